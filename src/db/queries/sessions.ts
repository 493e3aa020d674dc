import { eq } from "drizzle-orm";
import type { DB } from "../client";
import { sessions, users } from "../schema";

/** The user behind a token hash, in one indexed read (the primary key of sessions). */
export async function findSessionUser(db: DB, tokenHash: string) {
  const row = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .get();
  return row?.user;
}

export const insertSession = (db: DB, tokenHash: string, userId: number) =>
  db.insert(sessions).values({ tokenHash, userId });

export const deleteUserSessions = (db: DB, userId: number) => db.delete(sessions).where(eq(sessions.userId, userId));
