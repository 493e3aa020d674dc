import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { DB } from "../client";
import { loginClients, users } from "../schema";

/**
 * Whether `client` logged in to the account named `username` after `since` (unix seconds), whatever the password now
 * sent: one probe of `users.username` and one of the primary key, so a right and a wrong password cost the same.
 */
export async function isKnownClient(db: DB, username: string, client: string, since: number) {
  const rows = await db
    .select({ userId: loginClients.userId })
    .from(loginClients)
    .where(
      and(
        eq(loginClients.userId, sql`(SELECT ${users.id} FROM ${users} WHERE ${users.username} = ${username})`),
        eq(loginClients.client, client),
        gt(loginClients.lastLoginAt, since),
      ),
    )
    .limit(1)
    .all();
  return rows.length > 0;
}

/**
 * Records a client's password login to an account (its last login moves to `now`), and drops the account's clients
 * not seen since `since`, in one batch: an account keeps the clients of its last 90 days, one range of its primary key.
 */
export async function rememberClient(db: DB, userId: number, client: string, since: number, now: number) {
  await db.batch([
    db
      .insert(loginClients)
      .values({ userId, client, lastLoginAt: now })
      .onConflictDoUpdate({ target: [loginClients.userId, loginClients.client], set: { lastLoginAt: sql`excluded.last_login_at` } }),
    db.delete(loginClients).where(and(eq(loginClients.userId, userId), lte(loginClients.lastLoginAt, since))),
  ]);
}
