import { getPath as honoGetPath } from "hono/utils/url";

/**
 * Every v4/v5 path ends in `.json` (v3 also takes `.xml`). Routes are declared without the extension and
 * matched on the path with it stripped; handlers that care about the format read `requestFormat`.
 * Hono's router cannot match a parameter followed by a literal suffix inside one segment (`:id.json`).
 */
export function routingPath(request: Request): string {
  const path = honoGetPath(request);
  if (path.endsWith(".json")) return path.slice(0, -5);
  if (path.endsWith(".xml") && isV3(path)) return path.slice(0, -4);
  return path;
}

/**
 * The deprecated v3 API: its routes, its error body, its deprecation headers, its token rules in the edge cache. Any
 * path under `/api/v3` (so that a mistyped v3 path still gets the v3 error body), and the `/v3/movies` alias.
 */
export function isV3(path: string): boolean {
  return path.startsWith("/api/v3") || path.startsWith("/v3/");
}

export function requestFormat(url: string): "json" | "xml" {
  return new URL(url).pathname.endsWith(".xml") ? "xml" : "json";
}
