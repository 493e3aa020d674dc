import { deleteCleanup, pendingCleanups, type ShardCleanup } from "../db/queries/shards";
import { clearDerived, DELETE_ORDER, deleteRows } from "../db/queries/shard-rows";
import { log } from "../lib/log";
import { type Deps, shardDb } from "./deps";
import { outboxFailure } from "./shard-outbox-errors";

/**
 * The shard_cleanups outbox (docs/decisions.md, "Shards"): a video or container deleted in the catalogue leaves a row,
 * in the same statement; here each row's shard rows are deleted, then the row. Idempotent (deleting what is gone
 * deletes nothing), so a crash between the two only repeats the first. The deleting request drains what it left; the
 * sweeper drains anything left over, a bounded amount per minute. A shard that fails is skipped for the rest of the
 * drain, so one shard in an outage never holds back the others' cleanups.
 */

/** Outbox rows one drain takes. */
export const CLEANUPS_PER_DRAIN = 20;
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
  /** Shards that failed in this drain: their rows wait for the next (the error logged and kept on the shard's row). */
  failed: number[];
}

class OutOfStatements extends Error {}

/** One cleanup's shard rows, a chunk a statement; throws OutOfStatements when `spend` says the budget is gone. */
async function cleanOnShard(deps: Pick<Deps, "env" | "shards">, cleanup: ShardCleanup, spend: () => void) {
  const db = shardDb(deps, cleanup.shard);
  let rows = 0;
  for (const table of DELETE_ORDER) {
    for (;;) {
      spend();
      const gone = await deleteRows(db, table, cleanup.containerId, cleanup.videoId, CLEANUP_CHUNK_ROWS);
      rows += gone;
      if (gone < CLEANUP_CHUNK_ROWS) break;
    }
  }
  if (cleanup.videoId === null) await clearDerived(db, cleanup.containerId);
  return rows;
}

export async function drainShardCleanups(deps: Pick<Deps, "db" | "env" | "shards">): Promise<CleanupDrain> {
  const result: CleanupDrain = { done: 0, rows: 0, left: false, failed: [] };
  let statements = 0;
  const spend = () => {
    if (statements++ >= DRAIN_STATEMENTS) throw new OutOfStatements();
  };
  // One read of the oldest rows; another past them only when a shard failed among them, so the other shards' rows
  // behind the failed shard's get their turn in this drain (each read skips one more shard: at most one per shard).
  for (let failedBefore = -1; result.failed.length > failedBefore;) {
    failedBefore = result.failed.length;
    const batch = await pendingCleanups(deps.db, CLEANUPS_PER_DRAIN, result.failed);
    for (const cleanup of batch) {
      if (result.failed.includes(cleanup.shard)) continue;
      let rows: number;
      try {
        rows = await cleanOnShard(deps, cleanup, spend);
      } catch (err) {
        if (err instanceof OutOfStatements) return finish({ ...result, left: true });
        result.failed.push(cleanup.shard);
        await outboxFailure(deps.db, "shard_cleanups", cleanup.shard, err);
        continue;
      }
      result.rows += rows;
      await deleteCleanup(deps.db, cleanup.id);
      result.done += 1;
    }
    if (!batch.length) break;
  }
  return finish(result);
}

function finish(result: CleanupDrain) {
  if (result.rows) log("info", { event: "shard-cleanup", ...result });
  return result;
}
