import { type SQLWrapper, sql } from "drizzle-orm";
import { runBatch, runBatchResults } from "../raw-batch";
import type { ShardDB } from "../shards";
import { CONTAINER_ONLY_TABLES, DERIVED_TABLES, PARENTS, SHARD_TABLES, shardIds, type ShardTable } from "../shard-schema";

/**
 * Rows of a shard table by container, for the move job and the cleanup outbox (docs/decisions.md, "Shards"). Every
 * shard table has `container_id` at the start of an index, which also holds the rowid (the `id` where a table has
 * one), so each statement is one range of that index in rowid order, at most `limit` rows.
 */

/** The order rows of a container are deleted in: what refers to a row before the row (facts last, for the triggers). */
export const DELETE_ORDER: readonly ShardTable[] = [...SHARD_TABLES].reverse();

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

/** Advances `shard`'s counter by `n` ids at once, for an insert of `n` rows; goes first in the inserting batch. */
export const allocateShardIdsStatement = (db: ShardDB, shard: number, n: number) =>
  db
    .insert(shardIds)
    .values({ shard, nextId: shard * SHARD_ID_RANGE + n })
    .onConflictDoUpdate({ target: shardIds.shard, set: { nextId: sql`${shardIds.nextId} + ${n}` } });

/** The first of the `n` ids `allocateShardIdsStatement` just allocated (row i of the insert takes this + i). */
export const firstAllocatedId = (shard: number, n: number) =>
  sql<number>`((SELECT next_id FROM shard_ids WHERE shard = ${shard}) - ${n - 1})`;

/**
 * The containers a read across shards leaves out on one shard: those moving to it, whose rows are complete on the
 * shard they leave and read there (docs/decisions.md, "Subtitles on the shards"). Undefined when none are (the usual:
 * the test would cost a lookup per row).
 */
export const notLeftOutCondition = (column: SQLWrapper, leftOut: readonly number[]) =>
  leftOut.length ? sql`${column} NOT IN (SELECT value FROM json_each(${JSON.stringify(leftOut)}))` : undefined;

/** A shard table's name as an identifier, refusing any other name (the table arrives as a value in these queries). */
export const quoted = (table: ShardTable) => {
  if (!SHARD_TABLES.includes(table)) throw new Error(`not a shard table: ${table}`);
  return sql.identifier(table);
};

/** A row as read for a copy: its columns, and its rowid in the source (the paging key, not copied). */
export type ShardRow = Record<string, unknown> & { _rowid: number };

/** The next rows of a container after rowid `after`, in rowid order. */
export const containerRowsAfter = (db: ShardDB, table: ShardTable, containerId: number, after: number, limit: number) =>
  db.all<ShardRow>(
    sql`SELECT rowid AS _rowid, * FROM ${quoted(table)} WHERE container_id = ${containerId} AND rowid > ${after} ORDER BY rowid LIMIT ${limit}`,
  );

/**
 * Writes rows as they are, in one statement: the rows travel as one JSON parameter (D1 binds at most 100 values per
 * statement), unpacked by json_each. Shard tables hold no blobs. A row already there (a chunk written again after a
 * crash past a checkpoint) is left as it is: never replaced, as a REPLACE would delete it and cascade to its children,
 * and its triggers do not run twice. A row whose parent (PARENTS) is not there yet is skipped: the copy runs while the
 * source takes writes, so a parent written after its table was copied is in the move's change log, and so is every
 * row that refers to it, written after it (docs/decisions.md, "Online moves"). The copy's final check finds anything
 * missing.
 */
export async function insertRows(db: ShardDB, table: ShardTable, rows: ShardRow[]) {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]).filter((c) => c !== "_rowid");
  const names = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const values = sql.join(
    columns.map((c) => sql`json_extract(value, ${`$.${c}`})`),
    sql`, `,
  );
  const parent = PARENTS[table];
  const present = parent
    ? sql`EXISTS (SELECT 1 FROM ${quoted(parent.table)} WHERE id = json_extract(value, ${`$.${parent.column}`}))`
    : sql`true`;
  await db.run(
    sql`INSERT INTO ${quoted(table)} (${names}) SELECT ${values} FROM json_each(${JSON.stringify(rows)}) WHERE ${present} ON CONFLICT DO NOTHING`,
  );
}

/**
 * Deletes up to `limit` rows of a container (or of one of its videos: a table with no video_id has none); the number
 * deleted. The shard's triggers take each row off the counts as it goes. These deletes follow the catalogue (a
 * cleanup) or a move's switch (its drain), so they pass a move's fence: `passing` is set around the statement in its
 * own batch, one transaction no other write interleaves with (docs/decisions.md, "Online moves"). `passFence` false
 * spares the two statements where no fence can stand (a move's target, before its switch).
 */
export async function deleteRows(
  db: ShardDB,
  table: ShardTable,
  containerId: number,
  videoId: number | null,
  limit: number,
  passFence = true,
) {
  if (videoId !== null && CONTAINER_ONLY_TABLES.includes(table)) return 0;
  const t = quoted(table);
  const scope = videoId === null ? sql`container_id = ${containerId}` : sql`container_id = ${containerId} AND video_id = ${videoId}`;
  const remove = sql`DELETE FROM ${t} WHERE rowid IN (SELECT rowid FROM ${t} WHERE ${scope} LIMIT ${limit}) RETURNING 1 AS gone`;
  if (!passFence) return (await db.all(remove)).length;
  const passing = (on: 0 | 1) => sql`UPDATE move_fences SET passing = ${on} WHERE container_id = ${containerId}`;
  const [, deleted] = await runBatchResults(db, [passing(1), remove, passing(0)]);
  return deleted.results.length;
}

/** The counts the triggers left at zero for a container whose rows are all gone (one statement per derived table). */
export async function clearDerived(db: ShardDB, containerId: number) {
  await runBatch(
    db,
    DERIVED_TABLES.map((table) => sql`DELETE FROM ${sql.identifier(table)} WHERE container_id = ${containerId}`),
  );
}

/** How many rows of a container a table holds. */
export const containerTableCount = async (db: ShardDB, table: ShardTable, containerId: number) =>
  (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${quoted(table)} WHERE container_id = ${containerId}`))?.n ?? 0;

/** How many rows of a container each shard table holds (tests, health figures). */
export async function containerRowCounts(db: ShardDB, containerId: number) {
  const counts: Partial<Record<ShardTable, number>> = {};
  for (const table of SHARD_TABLES) counts[table] = await containerTableCount(db, table, containerId);
  return counts as Record<ShardTable, number>;
}
