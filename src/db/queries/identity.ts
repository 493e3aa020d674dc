import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { DB } from "../client";
import { usedCredentials, users } from "../schema";

/** The users columns that hold an external identity; each is UNIQUE, so each lookup is one index probe. */
export type LinkColumn = "socialId" | "idpId" | "retailerRef" | "storeRef";

export const findUserByLink = (db: DB, column: LinkColumn, ref: string) => db.select().from(users).where(eq(users[column], ref)).get();

export const findUserByEmail = (db: DB, email: string) => db.select().from(users).where(eq(users.email, email)).get();

/** Which of these usernames exist already (one `IN` probe on the unique username index). */
export async function takenUsernames(db: DB, candidates: string[]) {
  const rows = await db.select({ username: users.username }).from(users).where(inArray(users.username, candidates));
  return new Set(rows.map((r) => r.username));
}

export type NewUser = typeof users.$inferInsert;

export const insertUser = (db: DB, values: NewUser) => db.insert(users).values(values).returning().get();

/**
 * Links a user to `ref` in `column` (with any profile fields given), bumping updated_at, but only while the user is
 * unlinked or already linked to that ref: a concurrent link to another identity makes this answer undefined.
 */
export const updateUserLink = (
  db: DB,
  userId: number,
  column: LinkColumn,
  ref: string,
  profile: Partial<Pick<NewUser, "name" | "avatarUrl" | "emailVerified">>,
) =>
  db
    .update(users)
    .set({ ...profile, [column]: ref, updatedAt: new Date() })
    .where(and(eq(users.id, userId), or(isNull(users[column]), eq(users[column], ref))))
    .returning()
    .get();

/**
 * Marks a single-use credential as spent. True the first time, false on a replay: the insert and the
 * conflict check are one statement, so two concurrent uses cannot both win. Expired rows go in the same batch.
 */
export async function spendCredential(db: DB, hash: string, kind: "retailer" | "store", expiresAt: number) {
  const now = Math.floor(Date.now() / 1000);
  const [, inserted] = await db.batch([
    db.delete(usedCredentials).where(lt(usedCredentials.expiresAt, now)),
    db.insert(usedCredentials).values({ hash, kind, expiresAt }).onConflictDoNothing().returning({ hash: usedCredentials.hash }),
  ]);
  return inserted.length === 1;
}
