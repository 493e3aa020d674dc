import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { ZodError, z } from "zod";
import type { AppEnv } from "../types";
import { ApiError, type FieldProblem } from "./errors";
import { type Guard, type RouteProperties, type Security, declaredProperties } from "./route-properties";
import { type RegisteredRoute, honoPath, mountRoutes, recordRoute } from "./route-registry";
import { queryFields, shapeOf, tolerantMiddlewareFor } from "./tolerant-input";

function zodProblems(error: ZodError, where?: string): FieldProblem[] {
  const whole = !where || where === "json" || where === "form" ? "body" : where;
  const name = (path: PropertyKey[]) => (path.length ? path.map(String).join(".") : whole);
  return error.issues.map((issue) => ({ field: name(issue.path), message: issue.message }));
}

/**
 * A sub-app whose contract failures become the one 400 body of docs/spec/wire.md, "Errors" (vcode 5002, `details` per field), and whose
 * JSON bodies are read tolerantly (src/lib/tolerant-input.ts) after the route's own middleware (auth first, so a
 * caller without the right to write never learns how its body would have been read). Every resource router is made
 * here so no route can read input or answer validation errors differently.
 */
const GET_TOO = new WeakSet<object>();

/**
 * Marks a POST route that only reads (its filters in a JSON body, as the interface has it) to be served as GET too,
 * its body fields taken from the query string: the v4 gem fetches `GET /v4/subtitle_completions.json?video_ids=...`.
 * The GET twin is left out of the OpenAPI document; the POST's description mentions it.
 */
export function alsoAsGet<R extends object>(route: R): R {
  GET_TOO.add(route);
  return route;
}

const DOCUMENTED_REQUEST = new WeakMap<object, RouteConfig["request"]>();

/**
 * Serves `route` as declared while the OpenAPI document shows `request` instead: for input the route reads more
 * tolerantly than a client should write it (the v5 login's one-of bodies, the OAuth token form). The route itself is
 * registered hidden, so its validators stay what they were.
 */
export function documentedAs<R extends object>(route: R, request: RouteConfig["request"]): R {
  DOCUMENTED_REQUEST.set(route, request);
  return route;
}

/** The GET twin's stand-in for the JSON validator: the query read as the body, checked by the same schema. */
function queryAsBody(schema: z.ZodType): MiddlewareHandler {
  return async (c, next) => {
    const parsed = schema.safeParse(queryFields(shapeOf(schema) ?? {}, (k) => c.req.queries(k)));
    if (!parsed.success) throw ApiError.invalid(zodProblems(parsed.error, "query"));
    c.req.addValidatedData("json", parsed.data as object);
    return next();
  };
}

/** The routes each router recorded (its own and its mounted routers'), moved under a prefix when it is mounted. */
const RECORDED = new WeakMap<object, RegisteredRoute[]>();

type Declared = RouteConfig;
/** Passed on as given: their types are checked where the route is declared, against the route's own types. */
type Handler = unknown;
type Hook = unknown;
/** What a resource router adds to a route it registers: its defaults, and the guards its security names. */
type Additions = { properties: RouteProperties; guards: readonly MiddlewareHandler<AppEnv>[] };

/** Each router's own registration, which a resource router calls with what it adds. */
const REGISTER = new WeakMap<object, (declared: Declared, handler: Handler, hook: Hook, added?: Additions) => unknown>();

export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw ApiError.invalid(zodProblems(result.error as ZodError, result.target));
    },
  });
  const recorded: RegisteredRoute[] = [];
  RECORDED.set(router, recorded);
  const record = (route: Omit<RegisteredRoute, "path"> & { path: string }) => {
    const entry = { ...route, path: honoPath(route.path) };
    recordRoute(entry);
    recorded.push(entry);
  };
  const mount = router.route.bind(router) as unknown as (path: string, app: object) => unknown;
  router.route = ((path: string, app: object) => {
    const theirs = RECORDED.get(app);
    if (theirs) {
      mountRoutes(theirs, path);
      recorded.push(...theirs);
    }
    return mount(path, app);
  }) as typeof router.route;
  const openapi = router.openapi.bind(router) as unknown as (route: Declared, handler: Handler, hook: Hook) => unknown;
  const register = (declared: Declared, handler: Handler, hook: Hook, added?: Additions) => {
    const properties = { ...declaredProperties(declared), ...added?.properties } as RouteProperties;
    const declaredOwn = declared.middleware ? (Array.isArray(declared.middleware) ? declared.middleware : [declared.middleware]) : [];
    const own = [...(added?.guards ?? []), ...declaredOwn];
    let route = own.length ? { ...declared, middleware: own } : declared;
    if (DOCUMENTED_REQUEST.has(declared)) {
      const { middleware: _m, hide: _h, ...shown } = declared;
      router.openAPIRegistry.registerPath({ ...shown, request: DOCUMENTED_REQUEST.get(declared) });
      route = { ...route, hide: true };
    }
    const tolerant = tolerantMiddlewareFor(route.request as Parameters<typeof tolerantMiddlewareFor>[0]);
    if (GET_TOO.has(declared)) {
      const { body, ...request } = route.request ?? {};
      const schema = (body?.content as Record<string, { schema: z.ZodType }>)["application/json"].schema;
      const twin = { ...route, method: "get", hide: true, request, middleware: [...own, queryAsBody(schema)] } as typeof route;
      openapi(twin, handler, hook);
      record({ method: "GET", path: route.path, properties, hidden: true });
    }
    record({ method: route.method.toUpperCase(), path: route.path, properties, hidden: Boolean(declared.hide) });
    if (!tolerant.length) return openapi(route, handler, hook);
    return openapi({ ...route, middleware: [...own, ...tolerant] }, handler, hook);
  };
  REGISTER.set(router, register);
  router.openapi = ((declared: Declared, handler: Handler, hook: Hook) => {
    register(declared, handler, hook);
    return router;
  }) as typeof router.openapi;
  return router;
}

/** What a group or a resource router gives the routes that do not say it themselves. */
export type RouteDefaults = { tag?: string; security?: Security; successor?: string };

type Pending = { declared: Declared; handler: Handler; hook: Hook; defaults: RouteDefaults };
const PENDING = new WeakMap<object, Pending[]>();

/**
 * The routes of one file (or one variant of them), declared as on any router but registered only when a resource
 * router takes them in (`resourceRouter`); `defaults` are theirs where they differ from the resource router's (the
 * subtitle routes under /v4/videos are tagged `subtitles`).
 */
export function routeGroup(defaults: RouteDefaults = {}) {
  const group = createRouter();
  const pending: Pending[] = [];
  PENDING.set(group, pending);
  group.openapi = ((declared: Declared, handler: Handler, hook: Hook) => {
    pending.push({ declared, handler, hook, defaults });
    return group;
  }) as typeof group.openapi;
  return group;
}

const segmentsOf = (path: string) => path.split("/").filter(Boolean);
const isParameter = (segment: string) => segment.startsWith("{");

/**
 * Whether `later` must be registered before `earlier`: both would serve one request (same method, each segment
 * equal or a parameter in one of them), and at the first segment where they differ `later` has the literal
 * (`/all` before `/{container_id}`).
 */
function outranks(later: Declared, earlier: Declared) {
  if (later.method !== earlier.method) return false;
  const [a, b] = [segmentsOf(later.path), segmentsOf(earlier.path)];
  if (a.length !== b.length) return false;
  const first = a.findIndex((segment, i) => segment !== b[i]);
  if (first < 0) return false;
  if (!a.every((segment, i) => segment === b[i] || isParameter(segment) || isParameter(b[i]))) return false;
  return !isParameter(a[first]) && isParameter(b[first]);
}

/** The routes in the order given, but each one moved before the first route its literal segment outranks. */
function literalsFirst(all: readonly Pending[]) {
  const ordered: Pending[] = [];
  for (const p of all) {
    const at = ordered.findIndex((q) => outranks(p.declared, q.declared));
    if (at < 0) ordered.push(p);
    else ordered.splice(at, 0, p);
  }
  return ordered;
}

/**
 * The one router of a resource prefix (docs/decisions.md, "Route layout"): it takes in the routes of its groups and
 * registers them with its defaults (the OpenAPI tag, the security, a v3 successor) wherever a route and its group
 * state none, each guard its security names before the route's own middleware. A path with a literal segment is
 * registered before one that has a parameter there and would serve the same request, so `/all` is served by its own
 * route whatever order the groups come in; otherwise routes keep their order (and the OpenAPI document its order). `guardsOf` turns guards into their middleware (src/routes/router.ts: this layer does not know them).
 */
export function composeRouter(
  defaults: RouteDefaults & { tag: string; security: Security },
  groups: readonly object[],
  guardsOf: (guards: readonly Guard[]) => MiddlewareHandler<AppEnv>[],
) {
  const router = createRouter();
  const register = REGISTER.get(router)!;
  const all = groups.flatMap((g) => {
    const pending = PENDING.get(g);
    if (!pending) throw new Error("a resource router takes route groups (routeGroup), not routers");
    return pending;
  });
  for (const p of literalsFirst(all)) {
    const own = declaredProperties(p.declared);
    const security = own.security ?? p.defaults.security ?? defaults.security;
    const properties = {
      ...own,
      tag: p.declared.tags?.[0] ?? own.tag ?? p.defaults.tag ?? defaults.tag,
      security,
      ...((own.successor ?? p.defaults.successor ?? defaults.successor)
        ? { successor: own.successor ?? p.defaults.successor ?? defaults.successor }
        : {}),
    } as RouteProperties;
    register(p.declared, p.handler, p.hook, { properties, guards: typeof security === "string" ? [] : guardsOf(security) });
  }
  // What a group documents besides its routes (the webhook events) goes with them.
  for (const group of groups as OpenAPIHono<AppEnv>[]) {
    for (const def of group.openAPIRegistry.definitions) {
      if (def.type === "webhook") router.openAPIRegistry.registerWebhook(def.webhook);
      else if (def.type === "component") router.openAPIRegistry.registerComponent(def.componentType, def.name, def.component);
      else if (def.type !== "route") throw new Error(`a route group documents a ${def.type}, which a resource router does not take`);
    }
  }
  return router;
}
