/**
 * What a route is, stated where it is declared (docs/decisions.md, "Route registry"): its write limit, its body
 * limit, whether its answer may be shared, whether its session check rides in its data batch. `createRouter`
 * records them with the route; the middleware reads them from src/lib/route-registry.ts, never from path patterns.
 */

/** The kinds of per-user write limit (docs/api.md, "Write limits"); each is its own policy and quota. */
export type WriteKind =
  "threads" | "messages" | "timedComments" | "votes" | "reports" | "suggestions" | "imports" | "catalogue" | "webhooks";

/** The generations an edge-cached answer depends on: the whole catalogue, and a video's own for its timed comments. */
export type CacheScope = "catalogue" | `video:${number}`;

/**
 * How a GET's answer may be kept. `public`: the same for every anonymous caller, edge-cached and sent with
 * `Cache-Control: public` and an ETag. `user`: it shows one user's data, never shared. `none`: shared by nobody
 * because it changes on every call (a random pick, the health of the bindings).
 */
type CacheDecision = "public" | "user" | "none";

type WriteDecision =
  /** Counted against this limit, per user (per signed application for `webhooks`). */
  | { writeLimit: WriteKind; noWriteLimitBecause?: never }
  /** Deliberately not counted; the reason is part of the declaration, so the choice is visible. */
  | { writeLimit: null; noWriteLimitBecause: string }
  | { writeLimit?: undefined; noWriteLimitBecause?: never };

export type RouteProperties = WriteDecision & {
  /** Largest request body in bytes; DEFAULT_BODY_LIMIT (src/middleware/body-limit.ts) when absent. */
  bodyLimit?: number;
  /** Required of every GET by test/lib/route-properties.test.ts. */
  cache?: CacheDecision;
  /** The generations a `public` answer depends on, from the route's (decoded) path parameters; `catalogue` if absent. */
  cacheScope?: (params: Record<string, string>) => CacheScope[];
  /** The handler checks the session in its first D1 batch (`deps.session`), so `loadUser` does not read it first. */
  sessionInBatch?: boolean;
  /**
   * A playback grant in the query is the route's only credential (src/lib/playback-grant.ts): it names the application
   * and the viewer itself, so `resolveApplication` and `loadUser` read nothing for it and its check costs no D1.
   */
  grantOnly?: boolean;
};

const PROPERTIES = new WeakMap<object, RouteProperties>();

/** Declares `route`'s properties; returns the route, so it wraps `createRoute(...)` where the route is declared. */
export function withProperties<R extends object>(route: R, properties: RouteProperties): R {
  PROPERTIES.set(route, properties);
  return route;
}

export function declaredProperties(route: object): RouteProperties {
  return PROPERTIES.get(route) ?? {};
}
