import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../types";

/**
 * For routes whose JSON body is optional (histories, like, dislike, report): clients send
 * `Content-Type: application/json` with an empty body, or a JSON `null`, when they have nothing to say. Both
 * are treated as no body (the validator then sees `{}`) instead of a 400 for malformed JSON.
 */
export const optionalJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const type = c.req.header("content-type");
  if (type && /^application\/([a-z0-9.+-]*\+)?json/i.test(type)) {
    const text = (await c.req.text()).trim();
    if (text === "" || text === "null") {
      const headers = new Headers(c.req.raw.headers);
      headers.delete("content-type");
      c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers });
    }
  }
  return next();
});
