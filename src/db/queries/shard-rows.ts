import { sql } from "drizzle-orm";
import type { ShardDB } from "../shards";
import { SHARD_TABLES, shardIds, type ShardTable } from "../shard-schema";

/**
 * Rows of a shard table by container, for the move job and the cleanup outbox (docs/decisions.md, "Shards"). Every
 * shard table has `id`, `container_id` and `video_id` and an index on (container_id, id), so each statement is one
 * range of that index, at most `limit` rows.
 */

/** Ids of shard `n` are n·2^32 + 1, + 2, …: disjoint ranges, so a row keeps its id on any shard. */
export const SHARD_ID_RANGE = 2 ** 32;

/** Advances `shard`'s counter in this database (creating it at the range's start). Goes first in the inserting batch. */
export const nextShardIdStatement = (db: ShardDB, shard: number) =>
  db
    .insert(shardIds)
    .values({ shard, nextId: shard * SHARD_ID_RANGE + 1 })
    .onConflictDoUpdate({ target: shardIds.shard, set: { nextId: sql`${shardIds.nextId} + 1` } });

/** The id just allocated, for the insert that follows `nextShardIdStatement` in the same batch. */
export const nextShardId = (shard: number) => sql<number>`(SELECT next_id FROM shard_ids WHERE shard = ${shard})`;

const quoted = (table: ShardTable) => {
  if (!SHARD_TABLES.includes(table)) throw new Error(`not a shard table: ${table}`);
  return sql.identifier(table);
};

export type ShardRow = Record<string, unknown> & { id: number };

/** The next rows of a container after `afterId`, in id order. */
export const containerRowsAfter = (db: ShardDB, table: ShardTable, containerId: number, afterId: number, limit: number) =>
  db.all<ShardRow>(sql`SELECT * FROM ${quoted(table)} WHERE container_id = ${containerId} AND id > ${afterId} ORDER BY id LIMIT ${limit}`);

/**
 * Writes rows as they are (a replay overwrites them with the same values), in one statement: the rows travel as one
 * JSON parameter (D1 binds at most 100 values per statement), unpacked by json_each. Shard tables hold no blobs.
 */
export async function upsertRows(db: ShardDB, table: ShardTable, rows: ShardRow[]) {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  const names = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const values = sql.join(
    columns.map((c) => sql`json_extract(value, ${`$.${c}`})`),
    sql`, `,
  );
  await db.run(sql`INSERT OR REPLACE INTO ${quoted(table)} (${names}) SELECT ${values} FROM json_each(${JSON.stringify(rows)})`);
}

/** Deletes up to `limit` rows of a container (or of one of its videos); the number deleted. */
export async function deleteRows(db: ShardDB, table: ShardTable, containerId: number, videoId: number | null, limit: number) {
  const t = quoted(table);
  const scope = videoId === null ? sql`container_id = ${containerId}` : sql`container_id = ${containerId} AND video_id = ${videoId}`;
  const gone = await db.all<{ gone: number }>(
    sql`DELETE FROM ${t} WHERE id IN (SELECT id FROM ${t} WHERE ${scope} LIMIT ${limit}) RETURNING 1 AS gone`,
  );
  return gone.length;
}

/** How many rows of a container each shard table holds (the move job's check, health figures). */
export async function containerRowCounts(db: ShardDB, containerId: number) {
  const counts: Partial<Record<ShardTable, number>> = {};
  for (const table of SHARD_TABLES) {
    const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${quoted(table)} WHERE container_id = ${containerId}`);
    counts[table] = row?.n ?? 0;
  }
  return counts as Record<ShardTable, number>;
}
