import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createDb, emptyStats, instrument, type D1Stats } from "../db/client";
import { openShards } from "../db/shards";
import { log } from "../lib/log";
import { redactUrl } from "../lib/redact";
import { routeOf } from "../lib/route-registry";
import type { AppEnv } from "../types";

const BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * `x-d1-bookmark` is the catalogue's bookmark, then `;<shard>:<bookmark>` for each shard the request used
 * (docs/decisions.md, "Shards"): sent back as it came, every database reads at least the client's own writes.
 */
function parseBookmarks(header: string | undefined) {
  const [catalogue, ...rest] = (header ?? "").split(";");
  const shards = new Map<number, string>();
  for (const part of rest) {
    const [shard, bookmark] = part.split(/:(.*)/s);
    if (/^[1-9][0-9]{0,5}$/.test(shard) && bookmark) shards.set(Number(shard), bookmark);
  }
  return { catalogue: catalogue || undefined, shards };
}

/** A client's own id is kept, so its logs and ours share one key; anything else could forge or flood log lines. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestIdOf(headers: Headers): string {
  const own = headers.get("x-request-id");
  if (own && SANE_REQUEST_ID.test(own)) return own;
  return headers.get("cf-ray") ?? crypto.randomUUID();
}

/**
 * Every answer but /docs is data, never a page: kept manifests and subtitle files are text managers and contributors
 * wrote, served from this origin, and a browser sent to one must neither run nor load anything from it, whatever the
 * content type says (docs/decisions.md, "Holding up outside"). /docs is Swagger UI and sets its own policy on its
 * routes (src/routes/docs.ts), which this default leaves as it is; its static files are served before the Worker.
 */
const DATA_CSP = "default-src 'none'; sandbox";

/** On every response that has not set its own, so no route can leave them out; HSTS is added on HTTPS ones. */
const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy": DATA_CSP,
} as const;

/**
 * Per request: a request id, a D1 session (read replicas for reads, the primary for writes, with the
 * client's bookmark honoured), and the cost headers: Server-Timing with D1 time, queries and rows read, and
 * `cache` (hit, stale or miss) when the edge cache was consulted.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = requestIdOf(c.req.raw.headers);
  c.set("requestId", requestId);
  // The one lookup of the route (docs/decisions.md, "Route registry"): `c.req.path` is the routing path (src/lib/paths.ts).
  const route = routeOf(c.req.method, c.req.path);
  if (route) c.set("route", route);

  const readOnly = c.req.method === "GET" || c.req.method === "HEAD";
  const bookmarks = parseBookmarks(c.req.header(BOOKMARK_HEADER));
  const constraint = readOnly ? "first-unconstrained" : "first-primary";
  const session = c.env.DB.withSession(bookmarks.catalogue || constraint);
  const stats = emptyStats();
  c.set("d1Stats", stats);
  c.set("db", createDb(instrument(session, stats)));
  const shards = openShards(c.env, { constraint, bookmarks: bookmarks.shards, stats });
  c.set("shards", shards);

  const started = performance.now();
  await next();

  const res = c.res;
  res.headers.set("x-request-id", requestId);
  // docs/spec/wire.md, "Conventions": JSON is declared UTF-8 (Hono's c.json says only application/json).
  if (res.headers.get("content-type")?.toLowerCase() === "application/json")
    res.headers.set("content-type", "application/json; charset=utf-8");
  const newBookmark = [session.getBookmark() ?? "", ...shards.bookmarks()].join(";");
  if (newBookmark) res.headers.set(BOOKMARK_HEADER, newBookmark);
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "private, no-store");
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!res.headers.has(name)) res.headers.set(name, value);
  if (new URL(c.req.url).protocol === "https:") res.headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  // An anonymous edge-cache answer (fresh or stale) ran no D1 query: it names the cache and carries no D1 entries; a
  // token read answered from the cache names both, since its session check is a D1 read.
  const edge = c.get("edgeCache");
  const servedFromEdge = (edge === "hit" || edge === "stale") && stats.queries === 0;
  const durationMs = performance.now() - started;
  res.headers.set(
    "server-timing",
    [
      `total;dur=${durationMs.toFixed(1)}`,
      ...(edge ? [`cache;desc="${edge}"`] : []),
      ...(servedFromEdge
        ? []
        : [
            `d1;dur=${stats.durationMs.toFixed(1)};desc="D1"`,
            `d1-queries;desc="${stats.queries}"`,
            `d1-trips;desc="${stats.trips}"`,
            `d1-rows-read;desc="${stats.rowsRead}"`,
            `d1-rows-written;desc="${stats.rowsWritten}"`,
          ]),
    ].join(", "),
  );
  const status = c.res.status;
  // A 5xx is the service's fault (error), a 4xx the client's (warn, with its code), so alerts can tell them apart.
  log(status >= 500 ? "error" : status >= 400 ? "warn" : "info", requestLogLine(c, durationMs, stats, edge));
});

/**
 * The one log line of a request (`wrangler tail`, Workers Logs). The path is redacted (session tokens live in
 * /v5/sessions paths) and the query left out (it may carry credentials or a username); no bodies.
 */
function requestLogLine(c: Context<AppEnv>, durationMs: number, stats: D1Stats, edge: AppEnv["Variables"]["edgeCache"]) {
  return {
    event: "request",
    requestId: c.get("requestId"),
    method: c.req.method,
    path: redactUrl(new URL(c.req.url).pathname),
    status: c.res.status,
    ...(c.get("errorCode") !== undefined ? { errorCode: c.get("errorCode") } : {}),
    durationMs: Math.round(durationMs * 10) / 10,
    d1: {
      queries: stats.queries,
      trips: stats.trips,
      rowsRead: stats.rowsRead,
      rowsWritten: stats.rowsWritten,
      ms: Math.round(stats.durationMs * 10) / 10,
    },
    ...(edge ? { cache: edge } : {}),
    ...(c.get("application") ? { app: c.get("application")?.id } : {}),
    // Requests still signed with a rotated-out secret (docs/operations.md, "Rotating secrets").
    ...(c.get("signature")?.previousSecret ? { appSecret: "previous" } : {}),
    ...(c.get("user") ? { user: c.get("user")?.id } : {}),
  };
}
