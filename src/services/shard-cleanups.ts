import { deleteCleanup, pendingCleanups } from "../db/queries/shards";
import { clearDerived, DELETE_ORDER, deleteRows } from "../db/queries/shard-rows";
import { log } from "../lib/log";
import { type Deps, shardDb } from "./deps";

/**
 * The shard_cleanups outbox (docs/decisions.md, "Shards"): a video or container deleted in the catalogue leaves a row,
 * in the same statement; here each row's shard rows are deleted, then the row. Idempotent (deleting what is gone
 * deletes nothing), so a crash between the two only repeats the first. The deleting request drains what it left; the
 * sweeper drains anything left over, a bounded amount per minute.
 */

/** Outbox rows one drain takes. */
const CLEANUPS_PER_DRAIN = 20;
/** Rows one delete statement removes from a shard table; a drain stops after DRAIN_STATEMENTS statements. */
const CLEANUP_CHUNK_ROWS = 500;
export const DRAIN_STATEMENTS = 40;

export interface CleanupDrain {
  /** Outbox rows finished. */
  done: number;
  /** Shard rows deleted. */
  rows: number;
  /** Outbox rows left for the next drain (the statement budget ran out). */
  left: boolean;
}

export async function drainShardCleanups(deps: Pick<Deps, "db" | "env" | "shards">): Promise<CleanupDrain> {
  const result: CleanupDrain = { done: 0, rows: 0, left: false };
  let statements = 0;
  for (const cleanup of await pendingCleanups(deps.db, CLEANUPS_PER_DRAIN)) {
    const db = shardDb(deps, cleanup.shard);
    for (const table of DELETE_ORDER) {
      for (;;) {
        if (statements++ >= DRAIN_STATEMENTS) return { ...result, left: true };
        const gone = await deleteRows(db, table, cleanup.containerId, cleanup.videoId, CLEANUP_CHUNK_ROWS);
        result.rows += gone;
        if (gone < CLEANUP_CHUNK_ROWS) break;
      }
    }
    if (cleanup.videoId === null) await clearDerived(db, cleanup.containerId);
    await deleteCleanup(deps.db, cleanup.id);
    result.done += 1;
  }
  if (result.rows) log("info", { event: "shard-cleanup", ...result });
  return result;
}
