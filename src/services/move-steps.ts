import { applyChanges, changesAfter, rowKey, rowsByKeys } from "../db/queries/shard-moves";
import { containerRowsAfter, containerTableCount, type ShardRow } from "../db/queries/shard-rows";
import type { ShardDB } from "../db/shards";
import { MOVED_TABLES, type MovedTable, type ShardTable } from "../db/shard-schema";

/**
 * The steps of an online move between two shards (docs/decisions.md, "Online moves"): the replay of the source's
 * change log on the target, and the check of the copy by content. The job (src/jobs/container-move.ts) runs them in
 * order and keeps their positions in its params.
 */

/** Changes one replay step reads from the log (and rows it reads back from the source, at most). */
export const REPLAY_WINDOW = 500;
/** Rows one step of the content check compares. */
const CHECK_CHUNK_ROWS = 500;

/** A row's content as compared: its columns in order, without the rowid (which differs between shards). */
const content = (row: ShardRow) => JSON.stringify(Object.entries(row).filter(([c]) => c !== "_rowid"));

/**
 * Replays the next window of the source's log after position `after` on the target: each row named is read back
 * from the source as it is now and written over the target's copy, or deleted there when it is gone. A row changed
 * many times costs one read and one write. Returns the new position and how many changes it read.
 */
export async function replayWindow(source: ShardDB, target: ShardDB, containerId: number, after: number) {
  const changes = await changesAfter(source, containerId, after, REPLAY_WINDOW);
  if (!changes.length) return { position: after, changes: 0 };
  const keys = new Map<ShardTable, Set<string>>();
  for (const c of changes) keys.set(c.tableName, (keys.get(c.tableName) ?? new Set()).add(c.rowKey));
  const read = await Promise.all(
    [...keys].map(async ([table, named]) => ({ table, named: [...named], rows: await rowsByKeys(source, table, [...named]) })),
  );
  const gone: Partial<Record<ShardTable, string[]>> = {};
  const present: Partial<Record<ShardTable, ShardRow[]>> = {};
  for (const { table, named, rows } of read) {
    const found = new Set(rows.map((r) => rowKey(table, r)));
    gone[table] = named.filter((k) => !found.has(k));
    present[table] = rows;
  }
  await applyChanges(target, gone, present);
  return { position: changes[changes.length - 1].seq, changes: changes.length };
}

/**
 * Compares the next chunk of a table's rows of the container, source against target, after source rowid `after`.
 * Returns the keys whose content differs (or that the target lacks) and the next position (null at the table's end).
 */
export async function checkChunk(source: ShardDB, target: ShardDB, table: MovedTable, containerId: number, after: number) {
  const rows = await containerRowsAfter(source, table, containerId, after, CHECK_CHUNK_ROWS);
  const there = new Map(
    (rows.length
      ? await rowsByKeys(
          target,
          table,
          rows.map((r) => rowKey(table, r)),
        )
      : []
    ).map((r) => [rowKey(table, r), content(r)]),
  );
  const differ = rows.filter((r) => there.get(rowKey(table, r)) !== content(r)).map((r) => rowKey(table, r));
  return { differ, compared: rows.length, next: rows.length < CHECK_CHUNK_ROWS ? null : rows[rows.length - 1]._rowid };
}

/**
 * The rows changed since log position `since` (each key once), compared between source and target as they are now:
 * the keys whose content differs, a row on one side only counting as different. Run under the fence, after the last
 * replay, where nothing may differ.
 */
export async function checkChangedSince(source: ShardDB, target: ShardDB, containerId: number, since: number) {
  const named = new Map<ShardTable, Set<string>>();
  let compared = 0;
  for (let after = since; ;) {
    const changes = await changesAfter(source, containerId, after, REPLAY_WINDOW);
    for (const c of changes) named.set(c.tableName, (named.get(c.tableName) ?? new Set()).add(c.rowKey));
    if (changes.length < REPLAY_WINDOW) break;
    after = changes[changes.length - 1].seq;
  }
  const differ: string[] = [];
  for (const [table, set] of named) {
    const keys = [...set];
    for (let i = 0; i < keys.length; i += REPLAY_WINDOW) {
      const part = keys.slice(i, i + REPLAY_WINDOW);
      const [here, there] = await Promise.all([rowsByKeys(source, table, part), rowsByKeys(target, table, part)]);
      const theirs = new Map(there.map((r) => [rowKey(table, r), content(r)]));
      const ours = new Map(here.map((r) => [rowKey(table, r), content(r)]));
      for (const k of part) if (ours.get(k) !== theirs.get(k)) differ.push(`${table} ${k}`);
      compared += part.length;
    }
  }
  return { differ, compared };
}

/**
 * Whether each moved table holds as many rows of the container on both sides: the check's last word on rows the
 * target has and the source has not (the content check reads the source's rows). One statement per table and side,
 * all at once.
 */
export async function countsDiffer(source: ShardDB, target: ShardDB, containerId: number) {
  const counts = await Promise.all(
    MOVED_TABLES.map(async (table) => {
      const [a, b] = await Promise.all([containerTableCount(source, table, containerId), containerTableCount(target, table, containerId)]);
      return { table, source: a, target: b };
    }),
  );
  return counts.filter((c) => c.source !== c.target).map((c) => `${c.table} ${c.target} of ${c.source}`);
}
