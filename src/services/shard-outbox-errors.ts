import type { DB } from "../db/client";
import { recordOutboxError } from "../db/queries/shards";
import { log } from "../lib/log";

/**
 * A shard that failed in a drain of one of the catalogue's outboxes (docs/decisions.md, "Shards"): logged with its
 * number (`shard-outbox`) and kept on its row in `shards` (migration 0038) for `npm run admin -- shards list`. Its rows
 * stay in the outbox for the next drain; the drain goes on with the other shards.
 */
export async function outboxFailure(db: DB, outbox: "shard_cleanups" | "shard_fact_changes", shard: number, err: unknown) {
  const error = String(err);
  log("warn", { event: "shard-outbox", outbox, shard, error });
  await recordOutboxError(db, shard, error, Math.floor(Date.now() / 1000));
}
