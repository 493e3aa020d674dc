import { eq, sql } from "drizzle-orm";
import type { DB } from "../client";
import { containers, followCounts, markers, subscriptions, videos } from "../schema";

/**
 * Subscriptions and markers have the same shape: (user, resource kind, resource id, created_at), primary
 * key (user, kind, id), index (user, created_at). These are the statements both use; the table decides.
 */
export type FollowTable = typeof subscriptions | typeof markers;
type FollowKind = "c" | "v";
export interface FollowRef {
  kind: FollowKind;
  id: number;
}
export interface FollowRow extends FollowRef {
  /** Unix seconds. */
  createdAt: number;
}

/** The one follow of a user and resource (a primary-key read). */
export async function findFollow(db: DB, table: FollowTable, userId: number, ref: FollowRef) {
  const rows = await db.all<{ createdAt: number }>(
    sql`SELECT created_at AS createdAt FROM ${table}
        WHERE user_id = ${userId} AND resource_kind = ${ref.kind} AND resource_id = ${ref.id}`,
  );
  return rows[0];
}

/**
 * Newest first: the (user_id, created_at) index walked backwards; its implicit rowid breaks ties within a
 * second in insertion order, so no sort step is needed and a page reads `offset + limit` index entries.
 */
export function findFollowPage(db: DB, table: FollowTable, userId: number, offset: number, limit: number) {
  return db.all<FollowRow>(
    sql`SELECT resource_kind AS kind, resource_id AS id, created_at AS createdAt FROM ${table}
        WHERE user_id = ${userId} ORDER BY created_at DESC, rowid DESC LIMIT ${limit} OFFSET ${offset}`,
  );
}

/** Every follow of a user, newest first (reads one row per follow). */
export function findAllFollowRefs(db: DB, table: FollowTable, userId: number) {
  return db.all<FollowRef>(
    sql`SELECT resource_kind AS kind, resource_id AS id FROM ${table}
        WHERE user_id = ${userId} ORDER BY created_at DESC, rowid DESC`,
  );
}

/**
 * Adds a follow unless it exists (then nothing changes: the first `created_at` stays) and, with `max`,
 * unless the user already has `max` of them (read from follow_counts, one row). Answers the new row's
 * `created_at`, or undefined when nothing was inserted.
 */
export async function insertFollow(
  db: DB,
  table: FollowTable,
  userId: number,
  ref: FollowRef,
  max?: { column: "subscriptions" | "markers"; limit: number },
) {
  const guard = max
    ? sql`WHERE coalesce((SELECT ${sql.raw(max.column)} FROM ${followCounts} WHERE user_id = ${userId}), 0) < ${max.limit}`
    : sql`WHERE true`;
  const rows = await db.all<{ createdAt: number }>(
    sql`INSERT INTO ${table} (user_id, resource_kind, resource_id)
        SELECT ${userId}, ${ref.kind}, ${ref.id} ${guard}
        ON CONFLICT DO NOTHING RETURNING created_at AS createdAt`,
  );
  return rows[0];
}

/** Removes a follow; true when there was one. */
export async function deleteFollow(db: DB, table: FollowTable, userId: number, ref: FollowRef) {
  const rows = await db.all<{ one: number }>(
    sql`DELETE FROM ${table} WHERE user_id = ${userId} AND resource_kind = ${ref.kind} AND resource_id = ${ref.id}
        RETURNING 1 AS one`,
  );
  return rows.length > 0;
}

/** The user's numbers of subscriptions and markers (one row, kept by triggers). */
export async function findFollowCounts(db: DB, userId: number) {
  const row = await db.select().from(followCounts).where(eq(followCounts.userId, userId)).get();
  return { subscriptions: row?.subscriptions ?? 0, markers: row?.markers ?? 0 };
}

type Lookup = ReturnType<typeof lookupContainer> | ReturnType<typeof lookupVideo>;
const lookupContainer = (db: DB, id: number) => db.select().from(containers).where(eq(containers.id, id));
const lookupVideo = (db: DB, id: number) => db.select().from(videos).where(eq(videos.id, id));

/**
 * Containers and videos by id as one D1 batch of primary-key reads: one row read per id, where an
 * `IN (...)` list costs two (D1 counts the list's own rows).
 */
export async function loadByIds(db: DB, containerIds: number[], videoIds: number[]) {
  const statements: Lookup[] = [...containerIds.map((id) => lookupContainer(db, id)), ...videoIds.map((id) => lookupVideo(db, id))];
  if (!statements.length) return { containers: [], videos: [] };
  const results = (await db.batch(statements as [Lookup, ...Lookup[]])) as unknown[][];
  return {
    containers: results.slice(0, containerIds.length).flat() as (typeof containers.$inferSelect)[],
    videos: results.slice(containerIds.length).flat() as (typeof videos.$inferSelect)[],
  };
}
