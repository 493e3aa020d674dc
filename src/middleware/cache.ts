import type { Context, MiddlewareHandler, Next } from "hono";
import { toHex } from "../lib/encoding";
import { ifNoneMatchHits } from "../lib/etag";
import { IsolateTier, type TierEntry } from "../lib/isolate-tier";
import { isV3, routingPath } from "../lib/paths";
import { verifyV3Token } from "../lib/v3-tokens";
import type { MatchedRoute } from "../lib/route-registry";
import { viewerRegion } from "../lib/view-context";
import { sharedReadUser } from "../services/sessions";
import { EDGE_MAX_AGE_SECONDS, EDGE_STALE_SECONDS, edgeKey, freshness, generations, scopesOf } from "../services/edge-cache";
import type { AppEnv } from "../types";
import { checkToken, deferOf, sayIgnoredToken } from "./session";

const PUBLIC_CACHE_CONTROL = `public, max-age=${EDGE_MAX_AGE_SECONDS}, stale-while-revalidate=${EDGE_STALE_SECONDS}`;

/**
 * A public read's answer as the edge cache shares it: `Cache-Control: public`, a strong ETag over the body, and 304
 * for an `If-None-Match` that matches it under weak comparison, or is `*` (src/lib/etag.ts). Only a request the edge
 * cache found shareable (no user token, no signature, no Authorization; a v3 token without a user) is marked public;
 * anything else keeps the `private, no-store` default.
 */
async function markPublic(c: Context<AppEnv>) {
  // HEAD runs the GET handler (Hono drops the body afterwards), so it gets the same ETag and the same 304.
  if ((c.req.method !== "GET" && c.req.method !== "HEAD") || c.res.status !== 200) return;
  if (!c.get("edgeShared") || c.get("user")) return;
  // A handler that says how its answer may be kept (an incomplete search: `no-store`) is not made public.
  if (c.res.headers.has("cache-control")) return;
  const body = await c.res.clone().arrayBuffer();
  const etag = `"${toHex(await crypto.subtle.digest("SHA-1", body)).slice(0, 32)}"`;
  const headers = new Headers(c.res.headers);
  headers.set("etag", etag);
  headers.set("cache-control", PUBLIC_CACHE_CONTROL);
  headers.append("vary", "Accept-Encoding");
  if (ifNoneMatchHits(c.req.header("if-none-match"), etag)) {
    c.res = new Response(null, { status: 304, headers });
    return;
  }
  c.res = new Response(body, { status: 200, headers });
}

/** When the stored answer was made (ms), for max-age and stale-while-revalidate; never sent to clients. */
export const STORED_AT = "x-edge-stored-at";

/** The Cache API drops an entry at its max-age, so the stored copy lives through the stale window too. */
const STORED_CACHE_CONTROL = `public, max-age=${EDGE_MAX_AGE_SECONDS + EDGE_STALE_SECONDS}`;

/** Background refreshes of a stale entry, with its key: they skip the lookup and store what they compute there. */
const REFRESHING = new WeakMap<Request, string>();

/**
 * The keys this isolate is refreshing: every stale hit until the new copy is stored would otherwise start its own
 * refresh, and a busy stale entry would send a burst of identical reads to D1.
 */
const refreshingKeys = new Set<string>();

type App = {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response>;
};

/**
 * Who the answer may be shared with. `anonymous`: every anonymous caller; the request has no user token (not even
 * `token=` empty, which answers with `x-token-ignored`), no Authorization, no signature. A v3 request carries a token
 * always: a client-credentials token (no user) is checked here (a JWT: no D1) and shared; a password-grant one is
 * never shared, nor is a token that fails (its 401/403 comes from the route). `user`: a v4 read with a user's token
 * (`token=` or a Bearer) to a route that declares `sharedWithUsers`, answered from the anonymous copy after its session
 * check. `false`: not shared.
 */
async function sharing(c: Context<AppEnv>, path: string, route: MatchedRoute): Promise<"anonymous" | "user" | false> {
  const req = c.req.raw;
  const query = new URL(req.url).searchParams;
  if (query.has("sig") || req.headers.has("signature")) return false;
  if (query.has("token") || req.headers.has("authorization")) {
    return route.route.properties.sharedWithUsers && !isV3(path) ? "user" : false;
  }
  if (!isV3(path)) return "anonymous";
  const token = query.getAll("access_token").at(-1);
  if (!token) return false;
  const check = await verifyV3Token(c.env, token);
  return check.ok && check.claims.userId === undefined ? "anonymous" : false;
}

/** The stored answer as the client gets it: the public Cache-Control, its age, 304 or no body when asked. */
function fromCache(c: Context<AppEnv>, hit: TierEntry) {
  const headers = new Headers(hit.headers);
  headers.set("cache-control", PUBLIC_CACHE_CONTROL);
  headers.set("age", String(Math.max(0, Math.floor((Date.now() - hit.storedAt) / 1000))));
  if (ifNoneMatchHits(c.req.header("if-none-match"), headers.get("etag"))) return new Response(null, { status: 304, headers });
  return new Response(c.req.method === "HEAD" ? null : hit.body, { status: 200, headers });
}

/**
 * The edge cache of public reads (src/services/edge-cache.ts has the keys and generations). It runs before the
 * application and the user are resolved, so a hit costs no D1 query and, in an isolate that has served it recently,
 * no I/O at all: two tiers, the isolate's own copies, then `caches.default` (the location's); the generations come
 * from the isolate's memo, or one KV read a second. Only GET/HEAD requests to a route that declares
 * `cache: "public"` (src/lib/route-properties.ts) and that are shareable are looked up; only 200 answers
 * `markPublic` marked public are stored. A stale entry (past max-age, within
 * stale-while-revalidate) is served while the request is made again in the background (`waitUntil`).
 */
export function edgeCache(app: App): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const req = c.req.raw;
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = routingPath(req);
    const route = c.get("route");
    if (route?.route.properties.cache !== "public") return next();
    const shared = await sharing(c, path, route);
    if (!shared) return next();
    if (shared === "user") return tokenRead(c, app, route, next);
    c.set("edgeShared", true);

    const refreshing = REFRESHING.get(req);
    const key = refreshing ?? (await keyOf(c, route));
    if (!refreshing) {
      const hit = await lookup(key);
      const state = hit ? freshness(hit.storedAt) : "expired";
      if (hit && state !== "expired") {
        if (state === "stale") refreshLater(c, app, key);
        c.set("edgeCache", state === "fresh" ? "hit" : "stale");
        return fromCache(c, hit);
      }
    }
    c.set("edgeCache", "miss");
    await next();
    await markPublic(c);
    if (req.method !== "GET" || c.res.status !== 200 || c.res.headers.get("cache-control") !== PUBLIC_CACHE_CONTROL) return;
    const entry: TierEntry = { body: await c.res.clone().arrayBuffer(), headers: [...c.res.headers], storedAt: Date.now() };
    isolateTier.set(key, entry);
    const headers = new Headers(entry.headers);
    headers.set("cache-control", STORED_CACHE_CONTROL);
    headers.set(STORED_AT, String(entry.storedAt));
    // Awaited: the stored copy is complete (and the next read a hit in every isolate) when the client has its answer.
    await caches.default.put(key, new Response(entry.body, { status: 200, headers }));
  };
}

/** The key of a shareable request: its URL without credentials, the viewer's region, the generations of its scopes. */
async function keyOf(c: Context<AppEnv>, route: MatchedRoute) {
  return edgeKey(c.req.url, { region: viewerRegion(c.req.raw) }, await generations(c.env.CACHE, scopesOf(route)));
}

/**
 * A user's read of a route whose answers the token never changes (`sharedWithUsers`): the anonymous copy, when the
 * cache has one, with the session checked by `sharedReadUser` (a live session this isolate read in the last minute
 * costs no D1; a dead token still says `x-token-ignored`), and the wire of a token read: `private, no-store`, no ETag. The anonymous copy is a 200, which
 * every user gets too; a miss runs the route as usual and stores nothing, since its user may see more than anyone
 * (docs/decisions.md, "Token reads from the edge cache").
 */
async function tokenRead(c: Context<AppEnv>, app: App, route: MatchedRoute, next: Next) {
  const key = await keyOf(c, route);
  const hit = await lookup(key);
  const state = hit ? freshness(hit.storedAt) : "expired";
  if (!hit || state === "expired") {
    c.set("edgeCache", "miss");
    return next();
  }
  if (state === "stale") refreshLater(c, app, key);
  c.set("edgeCache", state === "fresh" ? "hit" : "stale");
  await checkToken(c, sharedReadUser);
  const headers = new Headers(hit.headers);
  headers.delete("etag");
  headers.delete("cache-control");
  c.res = new Response(c.req.method === "HEAD" ? null : hit.body, { status: 200, headers });
  sayIgnoredToken(c);
  return c.res;
}

/** The first tier of the edge cache: this isolate's recent answers (src/lib/isolate-tier.ts). */
const isolateTier = new IsolateTier();

/** Test setup starts each file with empty storage: the isolate's copies go with it. */
export function forgetIsolateTier() {
  isolateTier.clear();
}

/** The isolate's copy, else the location's (`caches.default`), which the isolate then keeps. */
async function lookup(key: string): Promise<TierEntry | undefined> {
  const mine = isolateTier.get(key);
  if (mine) return mine;
  const shared = await caches.default.match(key);
  if (!shared) return undefined;
  const headers = [...shared.headers].filter(([name]) => name !== STORED_AT && name !== "cache-control");
  const entry = { body: await shared.arrayBuffer(), headers, storedAt: Number(shared.headers.get(STORED_AT)) };
  isolateTier.set(key, entry);
  return entry;
}

/** Makes the request again through the whole application, after the response, so the next reader gets it fresh. */
function refreshLater(c: Context<AppEnv>, app: App, key: string) {
  const defer = deferOf(c);
  if (!defer || refreshingKeys.has(key)) return;
  refreshingKeys.add(key);
  const headers = new Headers(c.req.raw.headers);
  headers.delete("if-none-match");
  // A token read's refresh is the anonymous read it was answered with.
  headers.delete("authorization");
  const url = new URL(c.req.url);
  url.searchParams.delete("token");
  // `cf` carries the viewer's country, which the answer (and so the key) depends on.
  const again = new Request(url, { method: "GET", headers, cf: c.req.raw.cf } as RequestInit);
  REFRESHING.set(again, key);
  defer(Promise.resolve(app.fetch(again, c.env, c.executionCtx as ExecutionContext)).finally(() => refreshingKeys.delete(key)));
}
