import { createMiddleware } from "hono/factory";
import { findSessionUser } from "../db/queries/sessions";
import { ApiError } from "../lib/errors";
import { hashToken } from "../lib/tokens";
import type { AppEnv } from "../types";

/** `token=` (the interface's form) or `Authorization: Bearer` (what newer clients send). */
export function requestToken(c: { req: { query(k: string): string | undefined; header(k: string): string | undefined } }) {
  const query = c.req.query("token");
  if (query) return query;
  const auth = c.req.header("authorization");
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1];
}

/**
 * Loads the user of a session token when one is sent. Sessions are read from D1 on every request,
 * never from KV, so a deleted session stops working at once. A token that matches no session is 401.
 */
export const loadUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = requestToken(c);
  if (token) {
    const user = await findSessionUser(c.get("db"), await hashToken(token));
    if (!user) throw ApiError.invalidSession();
    c.set("user", user);
  }
  return next();
});

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user")) throw ApiError.tokenRequired();
  return next();
});

/** Staff only: no token 401 (vcode 4500), any other user 403 (vcode 5403). */
export const requireStaff = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get("user");
  if (!user) throw ApiError.tokenRequired();
  if (!user.staff) throw ApiError.forbidden("only staff may do this");
  return next();
});
