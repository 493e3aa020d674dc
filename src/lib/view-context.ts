import type { Context } from "hono";
import type { AppEnv } from "../types";

/** What a view needs from the request: absolute URLs and the viewer's region. */
export interface ViewContext {
  origin: string;
  webOrigin: string;
  /** Two-letter country of the viewer (Cloudflare's `cf.country`), when known. */
  region?: string;
}

/** The viewer's region as the views use it (geo-blocking flags); the edge cache keys on it too. */
export function viewerRegion(request: Request): string | undefined {
  const cf = request.cf as { country?: string } | undefined;
  return cf?.country && cf.country !== "XX" ? cf.country.toLowerCase() : undefined;
}

export function viewContext(c: Context<AppEnv>): ViewContext {
  return {
    origin: new URL(c.req.url).origin,
    webOrigin: c.env.WEB_ORIGIN,
    region: viewerRegion(c.req.raw),
  };
}
