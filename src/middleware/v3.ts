import { createMiddleware } from "hono/factory";
import { ApiError, VCODE } from "../lib/errors";
import { routeOf } from "../lib/route-registry";
import { verifyV3Token } from "../lib/v3-tokens";
import type { AppEnv } from "../types";

/** When v4 took over; sent as the RFC 9745 `Deprecation` date on every v3 response. */
const V3_DEPRECATED_AT = "@1356998400";

/** Where a path no v3 route serves (a mistyped one) points: the film listing, as the movie routes do. */
const DEFAULT_SUCCESSOR = "/v4/films.json";

export const v3Deprecation = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const origin = new URL(c.req.url).origin;
  c.res.headers.set("deprecation", V3_DEPRECATED_AT);
  // Each v3 route declares its v4 successor (src/lib/route-properties.ts); a wrong method names the GET's.
  const route = c.get("route") ?? routeOf("GET", c.req.path);
  const successor = route?.route.properties.successor ?? DEFAULT_SUCCESSOR;
  c.res.headers.append("link", `<${origin}${successor}>; rel="successor-version"`);
  c.res.headers.append("link", `<${origin}/docs>; rel="deprecation"`);
});

/** `access_token=` (or a Bearer header): missing or invalid 401, expired 403 (interface: "v3 access token"). */
export const v3Auth = createMiddleware<AppEnv>(async (c, next) => {
  const auth = c.req.header("authorization");
  // The last one: a client that follows an old link appends its own token after the link's.
  const token = c.req.queries("access_token")?.at(-1) ?? (auth ? /^Bearer\s+(\S+)$/i.exec(auth)?.[1] : undefined);
  if (!token) throw new ApiError(VCODE.v3Unauthorized, "access_token is required");
  const check = await verifyV3Token(c.env, token);
  if (!check.ok) {
    if (check.reason === "expired") throw new ApiError(VCODE.v3Expired, "The access token has expired; request a new one");
    throw new ApiError(VCODE.v3Unauthorized, "The access token is invalid");
  }
  return next();
});
