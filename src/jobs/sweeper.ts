import { log } from "../lib/log";
import { sweepDueJobs } from "../db/queries/jobs";
import { sweepUsedSignatures } from "../db/queries/signatures";
import type { CleanupDrain } from "../services/shard-cleanups";
import { carryToShards } from "../services/shard-outboxes";
import { pruneVersions, type VersionPruneResult } from "../services/subtitle-retention";
import { sweepWebhooks, type WebhookSweepResult } from "../webhooks/sweep";
import { MAX_ATTEMPTS, QUEUED_TIMEOUT_SECONDS } from "./deadlines";
import { discardPayload } from "./payload";
import type { JobDeps, JobMessageBody } from "./types";

/**
 * Durable jobs (docs/operations.md, "Durable jobs"): every accepted job ends `succeeded` or `failed`, whatever crashes. A queue message
 * can be lost (a crash between the jobs row and `JOBS.send`, a failed send, local queues dying with `wrangler dev`)
 * and a delivery can die without a word (an evicted isolate), so each unfinished job carries a deadline,
 * `jobs.lease_until`, and the sweeper takes over the jobs past it. The bounds follow from src/jobs/deadlines.ts and
 * the sweep period (a Cron Trigger every minute in production, scripts/lib.mjs's poller locally). The same run
 * prunes subtitle versions past retention, a bounded step at a time (src/services/subtitle-retention.ts), and forgets
 * used request signatures past their timestamp window.
 */

/** Jobs one sweep handles; `sendBatch` takes at most 100 messages. Later ones wait for the next minute. */
export const SWEEP_BATCH = 100;
/** Rounds of shard fact changes one sweep carries (FACT_CHANGES_PER_ROUND each): a bulk change made outside the API. */
const SWEEP_FACT_ROUNDS = 20;

interface SweepResult {
  resent: number[];
  failed: number[];
  /** The webhook sweep (src/webhooks/sweep.ts); left out when it had nothing to do. */
  webhooks?: WebhookSweepResult;
  /** Subtitle versions pruned past retention, with their snapshot objects; left out when none were. */
  versions?: VersionPruneResult;
  /** Deleted videos' and containers' shard rows removed (src/services/shard-cleanups.ts); left out when none were. */
  shardCleanups?: CleanupDrain;
  /** Catalogue changes carried to the shards' copies (src/services/shard-facts.ts); left out when none were. */
  shardFacts?: number;
  /** Used request signatures forgotten once their timestamp window closed; left out when none were. */
  usedSignatures?: number;
}

/**
 * One sweep: due jobs past MAX_ATTEMPTS fail with the reason, the others go back to `queued` with a new deadline
 * and their message `{type, jobId}` is sent again. Re-sending is safe: the runner acks a job that already finished
 * untouched, and handlers write with keyed upserts. If the send fails, the jobs keep their new deadline and the
 * next sweep after it tries again (counting the attempt).
 */
export async function sweepJobs({ db, env }: JobDeps, now: Date = new Date()): Promise<SweepResult> {
  const { failed, requeued } = await sweepDueJobs(db, {
    nowSeconds: Math.floor(now.getTime() / 1000),
    limit: SWEEP_BATCH,
    maxAttempts: MAX_ATTEMPTS,
    startWithinSeconds: QUEUED_TIMEOUT_SECONDS,
  });
  const result: SweepResult = { resent: requeued.map((j) => j.id), failed: failed.map((j) => j.id) };
  if (requeued.length) {
    await env.JOBS.sendBatch(requeued.map((j) => ({ body: { type: j.type, jobId: j.id } satisfies JobMessageBody })));
  }
  await Promise.all(failed.map((j) => discardPayload(env, j.payloadKey)));
  if (requeued.length || failed.length) {
    const reasons = failed.length ? { reasons: Object.fromEntries(failed.map((j) => [j.id, j.error])) } : {};
    log("warn", { event: "sweep", sweep: result, ...reasons });
  }
  const webhooks = await sweepWebhooks({ db, env }, now);
  if (webhooks.reclaimed || webhooks.pumped || webhooks.pruned) result.webhooks = webhooks;
  if (webhooks.reclaimed) log("warn", { event: "sweep", sweep: { webhooks } });
  // Replay records past their window (docs/decisions.md, "Signed requests and replay"): a stale timestamp is refused
  // before the table is read, so they can never match again.
  const usedSignatures = await sweepUsedSignatures(db, Math.floor(now.getTime() / 1000));
  if (usedSignatures) result.usedSignatures = usedSignatures;
  // The shard rows of deleted videos and containers, and the catalogue changes the shards keep a copy of, that their
  // request did not carry (a crash in between; docs/decisions.md, "Shards"). A shard that does not answer leaves them
  // for the next sweep and stops nothing after this.
  const carried = await carryToShards({ db, env }, { cleanups: true, factRounds: SWEEP_FACT_ROUNDS });
  if (carried.cleanups?.done) result.shardCleanups = carried.cleanups;
  if (carried.facts) result.shardFacts = carried.facts;
  // Last: retention waits for the next minute at no cost to anyone, jobs and deliveries do not.
  const versions = await pruneVersions({ db, env }, now);
  if (versions.pruned) result.versions = versions;
  return result;
}
