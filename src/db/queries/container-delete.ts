import type { DB } from "../client";
import { containerDeletedStatement } from "./catalogue-events";

/**
 * Deleting a container in bounded steps (docs/decisions.md, "Large container deletes become a job"). One DELETE of the
 * container row cascades through every video, segment, subtitle and history row under it in a single statement, and D1
 * runs one statement at a time: a large container stalled every other request. These statements weigh a container,
 * and remove what hangs off it a chunk at a time, each chunk one short statement.
 */

/**
 * What one chunk statement did: the rows it deleted itself (from RETURNING: D1's `changes` also counts what
 * cascades and triggers changed), and the rows D1 read for it, cascades and triggers included.
 */
export interface ChunkCost {
  deleted: number;
  rowsRead: number;
}

/**
 * The rows a container's delete takes with it in this database (videos, their segments and subtitles, and its
 * subtitle histories; its shard rows go through the shard_cleanups outbox), counted up to `cap`: the compound stops at the limit, so weighing a huge container
 * reads about `cap` rows.
 */
export async function containerDeleteWeight(db: DB, containerId: number, cap: number) {
  const row = await db.$client
    .prepare(
      `SELECT count(*) AS n FROM (
         SELECT 1 FROM videos WHERE container_id = ?1
         UNION ALL SELECT 1 FROM subtitle_histories WHERE container_id = ?1
         UNION ALL SELECT 1 FROM videos v JOIN segments s ON s.video_id = v.id WHERE v.container_id = ?1
         UNION ALL SELECT 1 FROM videos v JOIN subtitles s ON s.video_id = v.id WHERE v.container_id = ?1
         LIMIT ?2)`,
    )
    .bind(containerId, cap)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * The tables a large container is emptied of, in order: the bulky leaves first (histories, then
 * subtitles with their votes, reports and suggestions, then segments), so that deleting a video later
 * cascades into nothing. Each statement deletes at most `?2` rows, found through an index from the container.
 */
const CHUNK_SQL = {
  subtitle_histories: `DELETE FROM subtitle_histories WHERE id IN (
    SELECT id FROM subtitle_histories WHERE container_id = ?1 LIMIT ?2)`,
  subtitles: `DELETE FROM subtitles WHERE id IN (
    SELECT s.id FROM videos v JOIN subtitles s ON s.video_id = v.id WHERE v.container_id = ?1 LIMIT ?2)`,
  segments: `DELETE FROM segments WHERE id IN (
    SELECT s.id FROM videos v JOIN segments s ON s.video_id = v.id WHERE v.container_id = ?1 LIMIT ?2)`,
  videos: `DELETE FROM videos WHERE id IN (SELECT id FROM videos WHERE container_id = ?1 LIMIT ?2)`,
} as const;

export type ChunkTable = keyof typeof CHUNK_SQL;
export const CHUNK_TABLES = Object.keys(CHUNK_SQL) as ChunkTable[];

async function deleting(db: DB, sql: string, ...binds: unknown[]): Promise<ChunkCost> {
  const res = await db.$client
    .prepare(`${sql} RETURNING 1 AS gone`)
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
