import type { SQL } from "drizzle-orm";
import {
  containerFactsStatement,
  deleteFactChanges,
  type PendingFacts,
  pendingFacts,
  videoFactsStatement,
} from "../db/queries/shard-facts";
import { runBatch } from "../db/raw-batch";
import { log } from "../lib/log";
import { type Deps, shardDb } from "./deps";
import { outboxFailure } from "./shard-outbox-errors";

/**
 * The shard_fact_changes outbox (docs/decisions.md, "Shards: the subtitle family"): a change to a container's or a
 * video's state, origin language or number leaves a row in the statement that makes it; here the current facts of
 * each container and video named go to every shard that holds its rows (both while it moves), one batch per shard,
 * then the rows are deleted. Idempotent and ordered by the change ids (a shard keeps the newest it was sent), so a
 * crash, a replay or two overlapping syncs leave the shards with the catalogue's current facts. The changing request
 * syncs what it left; the sweeper anything left over. A shard that fails is skipped for the rest of the sync: the
 * changes of its containers stay (and are read past), the others' are carried and deleted.
 */

/** Changes one sync takes; a sync runs until the outbox is empty or `rounds` batches are done. */
export const FACT_CHANGES_PER_ROUND = 50;
/** Rounds a changing request carries (a change leaves one row; leftovers of others ride along). */
export const REQUEST_FACT_ROUNDS = 4;

export async function syncShardFacts(deps: Pick<Deps, "db" | "env" | "shards">, rounds = REQUEST_FACT_ROUNDS) {
  let synced = 0;
  const failed: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const pending = await pendingFacts(deps.db, FACT_CHANGES_PER_ROUND, failed);
    if (!pending.length) break;
    const perShard = new Map<number, SQL[]>();
    for (const p of pending) {
      // A container gone from the catalogue (its cleanup removes its rows from the shards), or a video gone.
      if (p.shards === null || p.container_state === null || p.container_origin === null) continue;
      const container = { containerId: p.container_id, state: p.container_state, originLanguage: p.container_origin };
      const statements: SQL[] = [];
      if (p.video_id === null) statements.push(containerFactsStatement({ ...container, changeId: p.change_id }));
      else if (p.video_state !== null && p.video_origin !== null) {
        // The video's triggers read its container's row: one is written if the shard has none (an insert only).
        statements.push(
          containerFactsStatement({ ...container, changeId: 0 }),
          videoFactsStatement({
            ...container,
            videoId: p.video_id,
            state: p.video_state,
            originLanguage: p.video_origin,
            number: p.number,
            changeId: p.change_id,
          }),
        );
      }
      for (const shard of homesOf(p)) perShard.set(shard, [...(perShard.get(shard) ?? []), ...statements]);
    }
    // Async, so a shard without a binding fails as a rejection like one that does not answer.
    const outcomes = await Promise.allSettled([...perShard].map(async ([shard, statements]) => runBatch(shardDb(deps, shard), statements)));
    const shardsSent = [...perShard.keys()];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === "fulfilled") continue;
      failed.push(shardsSent[i]);
      await outboxFailure(deps.db, "shard_fact_changes", shardsSent[i], outcome.reason);
    }
    // A change is done once every shard it names has it; one naming a failed shard waits for the next sync.
    const carried = pending.filter((p) => !homesOf(p).some((shard) => failed.includes(shard)));
    if (carried.length)
      await deleteFactChanges(
        deps.db,
        carried.flatMap((p) => p.change_ids.split(",").map(Number)),
      );
    synced += carried.length;
  }
  if (synced) log("info", { event: "shard-facts", synced });
  return synced;
}

const homesOf = (p: PendingFacts) => (p.shards === null ? [] : p.shards.split(",").map(Number));
