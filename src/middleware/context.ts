import { createMiddleware } from "hono/factory";
import { createDb, emptyStats, instrument } from "../db/client";
import type { AppEnv } from "../types";

const BOOKMARK_HEADER = "x-d1-bookmark";

/** On every response (issue 12, "Safe output"); HSTS is added on HTTPS ones, a Content-Security-Policy on /docs. */
const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

/**
 * Per request: a request id, a D1 session (read replicas for reads, the primary for writes, with the
 * client's bookmark honoured), and the cost headers: Server-Timing with D1 time, queries and rows read, and
 * `cache` (hit, stale or miss) when the edge cache was consulted.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);

  const readOnly = c.req.method === "GET" || c.req.method === "HEAD";
  const bookmark = c.req.header(BOOKMARK_HEADER);
  const session = c.env.DB.withSession(bookmark || (readOnly ? "first-unconstrained" : "first-primary"));
  const stats = emptyStats();
  c.set("d1Stats", stats);
  c.set("db", createDb(instrument(session, stats)));

  const started = performance.now();
  await next();

  const res = c.res;
  res.headers.set("x-request-id", requestId);
  // WIRE.md: JSON is declared UTF-8 (Hono's c.json says only application/json).
  if (res.headers.get("content-type")?.toLowerCase() === "application/json")
    res.headers.set("content-type", "application/json; charset=utf-8");
  const newBookmark = session.getBookmark();
  if (newBookmark) res.headers.set(BOOKMARK_HEADER, newBookmark);
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "private, no-store");
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!res.headers.has(name)) res.headers.set(name, value);
  if (new URL(c.req.url).protocol === "https:") res.headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  // An edge-cache answer (fresh or stale) ran no D1 query: it names the cache and carries no D1 entries.
  const edge = c.get("edgeCache");
  const servedFromEdge = edge === "hit" || edge === "stale";
  res.headers.set(
    "server-timing",
    [
      `total;dur=${(performance.now() - started).toFixed(1)}`,
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
});
