import { findUserById } from "../db/queries/users";
import { ApiError } from "../lib/errors";
import type { Deps } from "./deps";

/** A user by id, for what anyone may read of them (a public profile); 404 when there is none. */
export async function existingUser({ db }: Deps, userId: number) {
  const user = await findUserById(db, userId);
  if (!user) throw ApiError.notFound();
  return user;
}
