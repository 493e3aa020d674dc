import { deleteUserSessions, findSessionUser, insertSession } from "../db/queries/sessions";
import { findUserByUsername } from "../db/queries/users";
import type { DB } from "../db/client";
import { ApiError, VCODE } from "../lib/errors";
import { DUMMY_HASH, verifyPassword } from "../lib/password";
import { hashToken, newSessionToken } from "../lib/tokens";
import type { User } from "../types";

export const badLogin = () => new ApiError(VCODE.badLogin, "invalid username or password");

/** Checks a username and password; unknown users cost the same PBKDF2 work as wrong passwords. */
export async function authenticate(db: DB, username: string, password: string): Promise<User> {
  const user = await findUserByUsername(db, username);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw badLogin();
  return user;
}

export async function openSession(db: DB, user: User) {
  const token = newSessionToken();
  await insertSession(db, await hashToken(token), user.id);
  return token;
}

export async function sessionUser(db: DB, token: string) {
  return findSessionUser(db, await hashToken(token));
}

/** PUT: every session of the user goes, and one new token is issued, in one batch. */
export async function replaceSessions(db: DB, user: User) {
  const token = newSessionToken();
  await db.batch([deleteUserSessions(db, user.id), insertSession(db, await hashToken(token), user.id)]);
  return token;
}

export const closeAllSessions = (db: DB, user: User) => deleteUserSessions(db, user.id);

/** Plain-HTTP logins are refused everywhere but local development. */
export function assertSecureTransport(requestUrl: string, environment: string) {
  if (environment === "development") return;
  if (new URL(requestUrl).protocol !== "https:") throw ApiError.forbidden("login requires HTTPS");
}
