import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { SUBTITLE_LIMITS } from "../domain/subtitles/cue";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";

/** Default ceiling for JSON bodies. Routes that take files declare their own limit below. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Subtitle uploads (raw or JSON-wrapped): the file limit of docs/api.md, "Subtitle files". */
export const SRT_UPLOAD_LIMIT = SUBTITLE_LIMITS.bytes;

// Matched on the routing path, which has `.json` stripped (src/lib/paths.ts).
const LIMITS: Array<[RegExp, number]> = [[/\/subtitles\/import_srt(\.json)?$/, SRT_UPLOAD_LIMIT]];

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
  const path = c.req.path;
  const maxSize = LIMITS.find(([re]) => re.test(path))?.[1] ?? DEFAULT_BODY_LIMIT;
  return limiterFor(maxSize)(c, next);
});
