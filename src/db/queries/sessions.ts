import { and, eq, lt, lte, or, sql } from "drizzle-orm";
import type { DB } from "../client";
import { sessions, users } from "../schema";

/** Unix seconds: expired is `expires_at` at or before `now`, or `last_used_at` at or before `idleSince`. */
export type ExpiryCut = { now: number; idleSince: number };

const expired = (cut: ExpiryCut) => or(lte(sessions.expiresAt, cut.now), lte(sessions.lastUsedAt, cut.idleSince));

/**
 * The session of a token hash and its user, in one indexed read (batchable: `sessionQuery`) (the primary key of sessions, users by id).
 * Expiry is decided in the same query (`live`), so an expired row is still returned and can be deleted when met.
 */
export const sessionQuery = (db: DB, tokenHash: string, cut: ExpiryCut) =>
  db
    .select({
      user: users,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      live: sql<number>`not (${expired(cut)})`.as("session_live"),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash));

export type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["get"]>>;

export const findSession = (db: DB, tokenHash: string, cut: ExpiryCut) => sessionQuery(db, tokenHash, cut).get();

export const insertSession = (db: DB, row: { tokenHash: string; userId: number; now: number; expiresAt: number }) =>
  db.insert(sessions).values({ tokenHash: row.tokenHash, userId: row.userId, lastUsedAt: row.now, expiresAt: row.expiresAt });

/** Writes only when the stored time is older than `staleBefore`: a concurrent refresh makes this a no-op. */
export const touchSession = (db: DB, tokenHash: string, now: number, staleBefore: number) =>
  db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(and(eq(sessions.tokenHash, tokenHash), lt(sessions.lastUsedAt, staleBefore)));

export const deleteExpiredSession = (db: DB, tokenHash: string, cut: ExpiryCut) =>
  db.delete(sessions).where(and(eq(sessions.tokenHash, tokenHash), expired(cut)));

/** Through the sessions_user index: only this user's few rows are read. */
export const deleteExpiredUserSessions = (db: DB, userId: number, cut: ExpiryCut) =>
  db.delete(sessions).where(and(eq(sessions.userId, userId), expired(cut)));

export const deleteUserSessions = (db: DB, userId: number) => db.delete(sessions).where(eq(sessions.userId, userId));
