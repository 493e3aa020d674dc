import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../types";

/**
 * CORS for browser clients on the origins in `CORS_ORIGINS` (comma-separated; `*` for any origin). A listed origin
 * is echoed with credentials allowed; `*` never allows credentials (browsers refuse the pair, and a wildcard must not
 * let any site send a user's cookies). The API reads no cookies today: credentials only spare a web client that
 * fetches with `credentials: "include"` a failure.
 */
const ALLOW_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
/** Every non-safelisted header a client sends: the user token, request signatures, read-your-writes, revalidation. */
const ALLOW_HEADERS = "authorization, content-type, signature, timestamp, x-d1-bookmark, x-request-id, if-none-match";
/** What a browser script may read: ids for bug reports, the D1 bookmark, costs, caching, limits, tolerated input. */
const EXPOSE_HEADERS = [
  "x-request-id",
  "x-d1-bookmark",
  "server-timing",
  "etag",
  "retry-after",
  "ratelimit-policy",
  "ratelimit",
  "x-ignored-fields",
  "x-token-ignored",
  "x-app-ignored",
  "deprecation",
  "link",
].join(", ");
/** A day: the preflight answer only changes with a deploy. */
const MAX_AGE_SECONDS = 86_400;

type Policy = { any: boolean; origins: Set<string> };

let parsed: { from: string; policy: Policy } | undefined;
function policyOf(config: string | undefined): Policy {
  const from = config ?? "";
  if (parsed?.from !== from) {
    const list = from
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, ""))
      .filter(Boolean);
    parsed = { from, policy: { any: list.includes("*"), origins: new Set(list.filter((o) => o !== "*")) } };
  }
  return parsed.policy;
}

function allowOrigin(headers: Headers, policy: Policy, origin: string | undefined) {
  if (policy.any) {
    headers.set("access-control-allow-origin", "*");
    return true;
  }
  // Whether the origin is allowed changes the answer: shared caches and the edge must key on it.
  headers.append("vary", "Origin");
  if (!origin || !policy.origins.has(origin)) return false;
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-allow-credentials", "true");
  return true;
}

/**
 * Preflights (OPTIONS with `Access-Control-Request-Method`) are answered here, before routing, with 204; any other
 * OPTIONS still gets the router's 405 with `Allow`. Registered outside the edge cache, so a stored answer never
 * carries one caller's origin to another.
 */
export const cors = createMiddleware<AppEnv>(async (c, next) => {
  const policy = policyOf(c.env.CORS_ORIGINS);
  if (!policy.any && policy.origins.size === 0) return next();
  const origin = c.req.header("origin");
  if (c.req.method === "OPTIONS" && origin && c.req.header("access-control-request-method")) {
    const headers = new Headers();
    if (allowOrigin(headers, policy, origin)) {
      headers.set("access-control-allow-methods", ALLOW_METHODS);
      headers.set("access-control-allow-headers", ALLOW_HEADERS);
      headers.set("access-control-max-age", String(MAX_AGE_SECONDS));
    }
    return c.body(null, 204, Object.fromEntries(headers));
  }
  await next();
  if (allowOrigin(c.res.headers, policy, origin)) c.res.headers.set("access-control-expose-headers", EXPOSE_HEADERS);
});
