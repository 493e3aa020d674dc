import { createMiddleware } from "hono/factory";
import { toHex } from "../lib/encoding";
import type { AppEnv } from "../types";

export const PUBLIC_CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=300";

/**
 * Public catalogue GETs: `Cache-Control: public`, a strong ETag over the body, and 304 for a matching
 * `If-None-Match`. A request that carries a user token (or signature) may see user-specific data, so it is
 * never marked public; it keeps the `private, no-store` default.
 */
export const publicCache = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.req.method !== "GET" || c.res.status !== 200) return;
  if (c.get("user") || c.req.query("token") || c.req.header("authorization") || c.req.query("sig")) return;
  const body = await c.res.clone().arrayBuffer();
  const etag = `"${toHex(await crypto.subtle.digest("SHA-1", body)).slice(0, 32)}"`;
  const headers = new Headers(c.res.headers);
  headers.set("etag", etag);
  headers.set("cache-control", PUBLIC_CACHE_CONTROL);
  headers.append("vary", "Accept-Encoding");
  const inm = c.req.header("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim() === etag)) {
    c.res = new Response(null, { status: 304, headers });
    return;
  }
  c.res = new Response(body, { status: 200, headers });
});
