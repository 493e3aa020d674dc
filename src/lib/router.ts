import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { ZodError, z } from "zod";
import type { AppEnv } from "../types";
import { ApiError, type FieldProblem } from "./errors";
import { declaredProperties } from "./route-properties";
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
  const openapi = router.openapi;
  router.openapi = ((declared, handler, hook) => {
    const properties = declaredProperties(declared);
    let route = declared;
    if (DOCUMENTED_REQUEST.has(declared)) {
      const { middleware: _m, hide: _h, ...shown } = declared;
      router.openAPIRegistry.registerPath({ ...shown, request: DOCUMENTED_REQUEST.get(declared) });
      route = { ...declared, hide: true };
    }
    const tolerant = tolerantMiddlewareFor(route.request as Parameters<typeof tolerantMiddlewareFor>[0]);
    const own = route.middleware ? (Array.isArray(route.middleware) ? route.middleware : [route.middleware]) : [];
    if (GET_TOO.has(declared)) {
      const { body, ...request } = route.request ?? {};
      const schema = (body?.content as Record<string, { schema: z.ZodType }>)["application/json"].schema;
      const twin = { ...route, method: "get", hide: true, request, middleware: [...own, queryAsBody(schema)] } as typeof route;
      openapi(twin, handler, hook);
      record({ method: "GET", path: route.path, properties, middleware: own, hidden: true });
    }
    record({ method: route.method.toUpperCase(), path: route.path, properties, middleware: own, hidden: Boolean(declared.hide) });
    if (!tolerant.length) return openapi(route, handler, hook);
    return openapi({ ...route, middleware: [...own, ...tolerant] }, handler, hook);
  }) as typeof router.openapi;
  return router;
}
