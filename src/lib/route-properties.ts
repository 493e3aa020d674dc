/**
 * What a route is, stated where it is declared (docs/decisions.md, "Route registry"): its write limit, its body
 * limit, whether its answer may be shared, whether its session check rides in its data batch. `createRouter`
 * records them with the route; the middleware reads them from src/lib/route-registry.ts, never from path patterns.
 */

/** The kinds of per-user write limit (docs/api.md, "Write limits"); each is its own policy and quota. */
export type WriteKind =
  "threads" | "messages" | "timedComments" | "votes" | "reports" | "suggestions" | "imports" | "catalogue" | "webhooks" | "lookups";

/**
 * The generations an edge-cached answer depends on: the whole catalogue, a video's own for its timed comments, and a
 * series' own for its glossary (which only the glossary's writes bump).
 */
export type CacheScope = "catalogue" | `video:${number}` | `glossary:${number}`;

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

/**
 * What a route requires of its caller, each enforced by its guard middleware (src/routes/router.ts) and documented
 * as the OpenAPI security it means (src/openapi.ts): a user's session (`user`; `staff`; `owner`, the user the path
 * names), the calling application (`app`), its signature (`officialApp` for official applications, `signedApp` for a
 * write signed by the application alone), either a user or a signed official application (`userOrOfficialApp`), a v3
 * access token (`v3Token`).
 */
export type Guard = "user" | "staff" | "owner" | "app" | "officialApp" | "signedApp" | "userOrOfficialApp" | "v3Token";

/**
 * A route's security: every one of its guards, in order; or none, where `optionalUser` says a user's token is read
 * when sent (it widens what is seen, or links an identity) and `public` that no credential is.
 */
export type Security = "public" | "optionalUser" | readonly Guard[];

export type RouteProperties = WriteDecision & {
  /** The OpenAPI tag: the resource a client looks for it under; the router's default when the route names none. */
  tag?: string;
  /** The router's default when the route declares none (docs/decisions.md, "Route registry"). */
  security?: Security;
  /** A v3 route's v4 successor, sent as `Link: <...>; rel="successor-version"` (src/middleware/v3.ts). */
  successor?: string;
  /**
   * The path names its own file (`.srt`, a track's `<language>.<ext>`, a kept manifest's `<sha256>.mpd`) or is called
   * bare (`/oauth/token`, `/health`): documented as it is, not with `.json` (src/openapi.ts).
   */
  ownExtension?: boolean;
  /** Largest request body in bytes; DEFAULT_BODY_LIMIT (src/middleware/body-limit.ts) when absent. */
  bodyLimit?: number;
  /** Required of every GET by test/lib/route-properties.test.ts. */
  cache?: CacheDecision;
  /** The generations a `public` answer depends on, from the route's (decoded) path parameters; `catalogue` if absent. */
  cacheScope?: (params: Record<string, string>) => CacheScope[];
  /**
   * A `public` answer that a user's token never changes: the token only turns an anonymous 404 or 401 into an answer
   * (a hidden container for its managers), never one 200 into another. A token read is then answered from the edge
   * cache's anonymous copy after its session check (docs/decisions.md, "Token reads from the edge cache");
   * test/middleware/token-reads.test.ts holds every route that declares it to this.
   */
  sharedWithUsers?: boolean;
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
