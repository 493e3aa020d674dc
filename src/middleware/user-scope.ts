import { createMiddleware } from "hono/factory";
import { findUserById } from "../db/queries/users";
import { ApiError } from "../lib/errors";
import { parseId } from "../lib/ids";
import { missingUser } from "./session";
import type { AppEnv, User } from "../types";

declare module "hono" {
  interface ContextVariableMap {
    /** The user named by `/v4/users/<user_id>/...`, set by `ownerOnly`. */
    owner: User;
  }
}

/**
 * `/v4/users/<user_id>/...` routes answer only to that user or staff (docs/spec/design.md, "User-scoped routes"): no token 401,
 * another user's token 403, a user id that does not exist 404 (staff) or 403 (anyone else, which reveals
 * nothing). Objects under the path that are not the owner's are the handler's 404.
 */
export const ownerOnly = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get("user");
  if (!user) throw missingUser(c);
  const ownerId = parseId(c.req.param("user_id"), "u");
  if (ownerId === user.id) {
    c.set("owner", user);
    return next();
  }
  if (!user.staff) throw ApiError.forbidden("this belongs to another user");
  const owner = await findUserById(c.get("db"), ownerId);
  if (!owner) throw ApiError.notFound();
  c.set("owner", owner);
  return next();
});
