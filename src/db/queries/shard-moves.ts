import { sql } from "drizzle-orm";
import { runBatch } from "../raw-batch";
import type { ShardDB } from "../shards";
import { type MoveState, ROW_KEYS, SHARD_TABLES, type ShardTable } from "../shard-schema";
import { quoted, type ShardRow } from "./shard-rows";

/**
 * A move's fence and change log on the shard a container leaves, and the replay of its changes on the shard it goes
 * to (docs/decisions.md, "Online moves"). The triggers that fill the log and refuse writes are in
 * src/db/shard-triggers/move-fences.sql.
 */

/** Starts the change log of a container (a fence already standing, from a delivery that crashed, is kept as it is). */
export const startMoveLog = (db: ShardDB, containerId: number) =>
  db.run(sql`INSERT INTO move_fences (container_id, state) VALUES (${containerId}, 'logging') ON CONFLICT DO NOTHING`);

/** Raises the fence (`fenced`) or lowers it back to the log alone (`logging`). */
export const setMoveState = (db: ShardDB, containerId: number, state: MoveState) =>
  db.run(sql`UPDATE move_fences SET state = ${state} WHERE container_id = ${containerId}`);

/** One logged change: its position, table and the key of the row (a JSON array, ROW_KEYS' order). */
interface MoveChange {
  seq: number;
  tableName: ShardTable;
  rowKey: string;
}

/** The next `limit` changes of a container after position `after`, in the order they were made. */
export const changesAfter = (db: ShardDB, containerId: number, after: number, limit: number) =>
  db.all<MoveChange>(
    sql`SELECT seq, table_name AS tableName, row_key AS rowKey FROM move_changes
        WHERE container_id = ${containerId} AND seq > ${after} ORDER BY seq LIMIT ${limit}`,
  );

/** The position of a container's last logged change (0 when none). */
export const lastChange = async (db: ShardDB, containerId: number) =>
  (await db.get<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM move_changes WHERE container_id = ${containerId}`))?.seq ?? 0;

/**
 * Ends a container's move on this shard: the fence first (nothing is logged or refused after it), then its log, at
 * most `limit` rows per statement. Whether the log is gone (false: call again).
 */
export async function endMove(db: ShardDB, containerId: number, limit: number) {
  await db.run(sql`DELETE FROM move_fences WHERE container_id = ${containerId}`);
  const gone = await db.all<{ seq: number }>(
    sql`DELETE FROM move_changes WHERE seq IN (SELECT seq FROM move_changes WHERE container_id = ${containerId} LIMIT ${limit}) RETURNING seq`,
  );
  return gone.length < limit;
}

/** The rows of `table` with these keys (ROW_KEYS' columns, each key a JSON array), as a copy reads them. */
export function rowsByKeys(db: ShardDB, table: ShardTable, keys: string[]) {
  return db.all<ShardRow>(sql`SELECT rowid AS _rowid, * FROM ${quoted(table)} WHERE ${keyIn(table, keys)}`);
}

/** `(key columns) IN (the keys)`, the keys travelling as one JSON parameter. */
function keyIn(table: ShardTable, keys: string[]) {
  const columns = ROW_KEYS[table];
  const names = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const values = sql.join(
    columns.map((_, i) => sql.raw(`json_extract(value, '$[${i}]')`)),
    sql`, `,
  );
  const json = `[${keys.join(",")}]`;
  return sql`(${names}) IN (SELECT ${values} FROM json_each(${json}))`;
}

/** A row's key as the change log writes it (a JSON array of ROW_KEYS' columns). */
export const rowKey = (table: ShardTable, row: Record<string, unknown>) => JSON.stringify(ROW_KEYS[table].map((c) => row[c]));

/**
 * Brings the target in line with the source for these rows (docs/decisions.md, "Online moves"): in one batch (one
 * transaction), the rows gone from the source are deleted, what refers to a row first, then the rows present are
 * written over their old copy or inserted, a row after the rows it refers to. An upsert updates in place, so a
 * row's children are never cascaded away and the target's triggers move its counts from the old values to the new.
 */
export async function applyChanges(
  target: ShardDB,
  gone: Partial<Record<ShardTable, string[]>>,
  present: Partial<Record<ShardTable, ShardRow[]>>,
) {
  const statements = [];
  for (const table of [...SHARD_TABLES].reverse()) {
    const keys = gone[table];
    if (keys?.length) statements.push(sql`DELETE FROM ${quoted(table)} WHERE ${keyIn(table, keys)}`);
  }
  for (const table of SHARD_TABLES) {
    const rows = present[table];
    if (rows?.length) statements.push(upsertStatement(table, rows));
  }
  return runBatch(target, statements);
}

function upsertStatement(table: ShardTable, rows: ShardRow[]) {
  const columns = Object.keys(rows[0]).filter((c) => c !== "_rowid");
  const keys = ROW_KEYS[table];
  const list = (names: string[]) =>
    sql.join(
      names.map((c) => sql.identifier(c)),
      sql`, `,
    );
  const values = sql.join(
    columns.map((c) => sql`json_extract(value, ${`$.${c}`})`),
    sql`, `,
  );
  const set = sql.join(
    columns.filter((c) => !keys.includes(c)).map((c) => sql`${sql.identifier(c)} = excluded.${sql.identifier(c)}`),
    sql`, `,
  );
  return sql`INSERT INTO ${quoted(table)} (${list(columns)}) SELECT ${values} FROM json_each(${JSON.stringify(rows)}) WHERE true
    ON CONFLICT (${list([...keys])}) DO UPDATE SET ${set}`;
}

/** Which of these keys of `table` the log names after position `since` (rows that changed since). */
export const loggedSince = async (db: ShardDB, containerId: number, since: number, table: ShardTable, keys: string[]) =>
  (
    await db.all<{ rowKey: string }>(
      sql`SELECT DISTINCT row_key AS rowKey FROM move_changes WHERE container_id = ${containerId} AND seq > ${since}
          AND table_name = ${table} AND row_key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
    )
  ).map((r) => r.rowKey);
