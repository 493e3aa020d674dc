import { log } from "../lib/log";
import type { Deps } from "./deps";
import { type CleanupDrain, drainShardCleanups } from "./shard-cleanups";
import { syncShardFacts } from "./shard-facts";

/**
 * The catalogue's outboxes to the shards, carried after the write that filled them (docs/decisions.md, "Shards"): the
 * cleanups of deleted videos and containers, and the fact changes. The catalogue write has committed by then, so a
 * shard that does not answer must not turn it into an error: each drain skips that shard and carries the others' rows,
 * leaving its rows for the sweeper, and logs and records the failure (`npm run admin -- shards list` shows each
 * shard's pending rows and last error). What is caught here is the catalogue failing under the drain itself.
 */
export async function carryToShards(
  deps: Pick<Deps, "db" | "env" | "shards">,
  work: { cleanups?: boolean; factRounds?: number },
): Promise<{ cleanups?: CleanupDrain; facts?: number }> {
  const carried: { cleanups?: CleanupDrain; facts?: number } = {};
  if (work.cleanups) {
    try {
      carried.cleanups = await drainShardCleanups(deps);
    } catch (err) {
      log("warn", { event: "shard-outbox", outbox: "shard_cleanups", error: String(err) });
    }
  }
  if (work.factRounds) {
    try {
      carried.facts = await syncShardFacts(deps, work.factRounds);
    } catch (err) {
      log("warn", { event: "shard-outbox", outbox: "shard_fact_changes", error: String(err) });
    }
  }
  return carried;
}
