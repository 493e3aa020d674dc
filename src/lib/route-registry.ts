import { TrieRouter } from "hono/router/trie-router";
import type { RouteProperties } from "./route-properties";

/**
 * Every route `createRouter` registers, with the properties its declaration states (src/lib/route-properties.ts):
 * the one place middleware and the OpenAPI document learn what a route is (docs/decisions.md, "Route registry").
 * Matched with Hono's own trie router over the declared paths, so no path is written twice.
 */
export type RegisteredRoute = {
  /** Upper case, as requests name it. */
  method: string;
  /** Hono's form (`/v4/containers/:container_id`), without `.json`: what `routingPath` gives. */
  path: string;
  properties: RouteProperties;
  /** Left out of the OpenAPI document (a GET twin, a hidden alias). */
  hidden: boolean;
};

const ROUTES: RegisteredRoute[] = [];
let matcher: TrieRouter<RegisteredRoute> | undefined;

/** `{id}` (OpenAPI) to `:id` (Hono). */
export const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

export function recordRoute(route: RegisteredRoute) {
  ROUTES.push(route);
  matcher = undefined;
}

/**
 * A router mounted under `prefix`: the routes recorded for it so far now live there, as Hono copies them at mount
 * time too. `owned` are the routes the mounted router recorded (its own and those of its mounts).
 */
export function mountRoutes(owned: RegisteredRoute[], prefix: string) {
  const base = prefix.replace(/\/+$/, "");
  if (!base) return;
  for (const route of owned) route.path = `${base}${route.path === "/" ? "" : route.path}`;
  matcher = undefined;
}

export function registeredRoutes(): readonly RegisteredRoute[] {
  return ROUTES;
}

export type MatchedRoute = { route: RegisteredRoute; params: Record<string, string> };

/**
 * The route a request at `routingPath` reaches (HEAD as GET), with its decoded path parameters. Looked up once per
 * request, by `requestContext` (src/middleware/context.ts), which keeps it on the context as `route`. Where a literal and a
 * parameter both match (`/v4/containers/all`, `/v4/containers/{id}`) the literal wins, as the mount order makes it.
 */
export function routeOf(method: string, routingPath: string): MatchedRoute | undefined {
  if (!matcher) {
    matcher = new TrieRouter<RegisteredRoute>();
    for (const route of ROUTES) matcher.add(route.method, route.path, route);
  }
  const [matches] = matcher.match(method === "HEAD" ? "GET" : method, routingPath) as unknown as [
    Array<[RegisteredRoute, Record<string, string>]>,
  ];
  let best: [RegisteredRoute, Record<string, string>] | undefined;
  for (const m of matches) if (!best || Object.keys(m[1]).length < Object.keys(best[1]).length) best = m;
  if (!best) return undefined;
  const params = Object.fromEntries(Object.entries(best[1]).map(([k, v]) => [k, decoded(v)]));
  return { route: best[0], params };
}

function decoded(value: string) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
