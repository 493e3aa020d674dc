import { type SQL, sql } from "drizzle-orm";
import type { DB } from "../client";
import { SHARD_TABLES } from "../shard-schema";
import type { ShardDB } from "../shards";
import { containerDeletedStatement } from "./catalogue-events";

/**
 * Deleting a container in bounded steps (docs/decisions.md, "Large container deletes become a job"). One DELETE of the
 * container row cascades through every video under it and what hangs off each in a single statement, and D1 runs one
 * statement at a time: a large container stalled every other request. These statements weigh a container,
 * and remove what hangs off it a chunk at a time, each chunk one short statement.
 */

/**
 * What one chunk statement did: the rows it deleted itself (from RETURNING: D1's `changes` also counts what
 * cascades and triggers changed), and the rows D1 read for it, cascades and triggers included.
 */
interface ChunkCost {
  deleted: number;
  rowsRead: number;
}

/**
 * The rows a container's delete takes with it in the catalogue (its videos), counted up to `cap`: the read stops at
 * the limit, so weighing a huge container reads about `cap` rows. Its shard rows go through the shard_cleanups outbox
 * and are weighed there (`shardDeleteWeight`).
 */
export async function containerDeleteWeight(db: DB, containerId: number, cap: number) {
  const row = await db.$client
    .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM videos WHERE container_id = ?1 LIMIT ?2)`)
    .bind(containerId, cap)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The shard tables whose rows a container's cleanup deletes one by one (the facts are a row per video). */
const WEIGHED_SHARD_TABLES = SHARD_TABLES.filter((t) => t !== "container_facts" && t !== "video_facts");

/**
 * The rows a container has on its shard (timed comments and the subtitle family), counted up to `cap` the same way:
 * the request that deletes a container drains its cleanup, so they are part of what the request would do. Each branch
 * is a range of the table's container index; D1 takes at most five terms in one compound SELECT, so the branches go
 * in groups of four (each a subquery, read only as far as the outer LIMIT needs).
 */
export async function shardDeleteWeight(db: ShardDB, containerId: number, cap: number) {
  const branch = (t: string) => sql`SELECT 1 AS one FROM ${sql.identifier(t)} WHERE container_id = ${containerId}`;
  const groups: SQL[] = [];
  for (let i = 0; i < WEIGHED_SHARD_TABLES.length; i += 4) {
    groups.push(sql`SELECT one FROM (${sql.join(WEIGHED_SHARD_TABLES.slice(i, i + 4).map(branch), sql` UNION ALL `)})`);
  }
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (${sql.join(groups, sql` UNION ALL `)} LIMIT ${cap})`);
  return row?.n ?? 0;
}

/**
 * The tables a large container is emptied of in the catalogue, in order: its videos, whose community rows are on the
 * shards (the cleanup outbox deletes them there). Each statement deletes at most `?2` rows, found through an index
 * from the container.
 */
const CHUNK_SQL = {
  videos: `DELETE FROM videos WHERE id IN (SELECT id FROM videos WHERE container_id = ?1 LIMIT ?2)`,
} as const;

export type ChunkTable = keyof typeof CHUNK_SQL;
export const CHUNK_TABLES = Object.keys(CHUNK_SQL) as ChunkTable[];

async function deleting(db: DB, statement: string, ...binds: unknown[]): Promise<ChunkCost> {
  const res = await db.$client
    .prepare(`${statement} RETURNING 1 AS gone`)
    .bind(...binds)
    .all();
  return { deleted: res.results.length, rowsRead: res.meta.rows_read ?? 0 };
}

export const deleteContainerChunk = (db: DB, containerId: number, table: ChunkTable, limit: number) =>
  deleting(db, CHUNK_SQL[table], containerId, limit);

/**
 * The container row itself, last: titles, genres, facets and the rest go by foreign key and cleanup triggers. Its
 * container.deleted event is recorded in the same transaction (none when a replay finds the container gone).
 */
export async function deleteEmptiedContainer(db: DB, containerId: number): Promise<ChunkCost> {
  const [event, res] = await db.$client.batch<{ gone: number }>([
    containerDeletedStatement(db.$client, containerId),
    db.$client.prepare("DELETE FROM containers WHERE id = ?1 RETURNING 1 AS gone").bind(containerId),
  ]);
  return { deleted: res.results.length, rowsRead: (event.meta.rows_read ?? 0) + (res.meta.rows_read ?? 0) };
}
