import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { SUBTITLE_LIMITS } from "../domain/subtitles/cue";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";

/** Default ceiling for JSON bodies. Routes that take files declare their own (`bodyLimit`, src/lib/route-properties.ts). */
const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Subtitle uploads (raw or JSON-wrapped): the file limit of docs/api.md, "Subtitle files". */
export const SRT_UPLOAD_LIMIT = SUBTITLE_LIMITS.bytes;

const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
function limiterFor(maxSize: number) {
  let mw = limiters.get(maxSize);
  if (!mw) {
    mw = bodyLimit({
      maxSize,
      onError: () => {
        throw ApiError.tooLarge(maxSize);
      },
    });
    limiters.set(maxSize, mw);
  }
  return mw;
}

export const limitBody = createMiddleware<AppEnv>((c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD") return next();
  const maxSize = c.get("route")?.route.properties.bodyLimit ?? DEFAULT_BODY_LIMIT;
  return limiterFor(maxSize)(c, next);
});
