import type { DB } from "../db/client";
import { anyDeliveryDue, pruneEvents, reclaimExpiredLeases } from "../db/queries/webhook-deliveries";
import { EVENT_RETENTION_DAYS } from "./delivery";
import { sendDeliveries } from "./pump";

/** Leases taken back per sweep; far more than the consumers can hold at once (CLAIM_BATCH per running consumer). */
const RECLAIM_BATCH = 100;
/** Events pruned per sweep: the backlog of a day goes in a few minutes without one long statement. */
const PRUNE_BATCH = 500;

export interface WebhookSweepResult {
  /** Deliveries whose consumer died mid-batch, back to pending. */
  reclaimed: number;
  /** Whether a pump message was sent (something was due). */
  pumped: boolean;
  /** Events deleted for age, with their deliveries. */
  pruned: number;
}

/**
 * The webhook half of the sweep (src/jobs/sweeper.ts, every minute): the safety net behind the pump messages. A lost
 * message, a consumer that died, a retry whose delayed message never came: each leaves a due delivery in D1, and this
 * finds it and asks the consumer to run. Each step reads only the unfinished deliveries (the partial index
 * webhook_deliveries_due) or the oldest events.
 */
export async function sweepWebhooks({ db, env }: { db: DB; env: Env }, now: Date = new Date()): Promise<WebhookSweepResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const reclaimed = await reclaimExpiredLeases(db, nowSeconds, RECLAIM_BATCH);
  const pumped = reclaimed.length > 0 || (await anyDeliveryDue(db, nowSeconds));
  if (pumped) await sendDeliveries(env);
  const pruned = await pruneEvents(db, nowSeconds - EVENT_RETENTION_DAYS * 86_400, PRUNE_BATCH);
  return { reclaimed: reclaimed.length, pumped, pruned };
}
