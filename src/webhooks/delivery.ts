import { log } from "../lib/log";
import type { DB } from "../db/client";
import {
  claimDueDeliveries,
  deliveryTargets,
  recordAttempt,
  recordEndpointOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
  type EndpointOutcome,
} from "../db/queries/webhook-deliveries";
import { attemptDelivery, type AttemptOutcome } from "./attempt";
import { sendDeliveries, WebhookPumpMessage } from "./pump";

/**
 * The webhook delivery consumer (docs/decisions.md, "Signed webhooks"; README.md, "Webhooks"). A pump message only
 * says "send what is due": the deliveries and their attempts live in D1, so the consumer claims due ones itself, sends
 * them, and records every result in one batch. At least once: a delivery is claimed before it is sent, and one whose
 * consumer dies is put back by the sweeper (src/webhooks/sweep.ts) when its lease expires; one that was recorded is never sent again.
 */

/** Attempts before a delivery is marked failed: the first plus one per backoff step. */
export const MAX_ATTEMPTS = 8;
/** Wait before attempt n + 1 after attempt n failed: 20.6 hours from the first attempt to the last. */
export const BACKOFF_SECONDS = [10, 60, 300, 1800, 7200, 21600, 43200] as const;
const DELIVERY_TIMEOUT_MS = 10_000;
/** An endpoint is paused when this many attempts in a row failed... */
export const PAUSE_AFTER_FAILURES = 10;
/** ...over at least this long (so a receiver down for a minute during a burst is not paused). */
export const PAUSE_AFTER_SECONDS = 3600;
/** Events (and their deliveries) are kept this long for the delivery log and redelivery, then pruned by the sweeper. */
export const EVENT_RETENTION_DAYS = 14;
/** Deliveries claimed, and sent concurrently, per round. */
const CLAIM_BATCH = 10;
/** How long a claim holds: more than an attempt's timeout plus recording, so only a dead consumer loses it. */
export const LEASE_SECONDS = 60;
/** A consumer invocation stops starting rounds after this, and hands what is left to a new message. */
const RUN_BUDGET_MS = 20_000;

interface DeliveryOptions {
  /** The clock (default: the real one); tests move it. */
  now?: () => Date;
  timeoutMs?: number;
  budgetMs?: number;
  fetch?: typeof fetch;
}

interface DeliveryRun {
  rounds: number;
  succeeded: number[];
  retrying: number[];
  failed: number[];
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The WEBHOOKS queue's consumer (queues/index.ts dispatches by queue name). */
export async function webhookQueue(batch: MessageBatch<unknown>, deps: { db: DB; env: Env }, options: DeliveryOptions = {}) {
  const valid = batch.messages.filter((message) => {
    if (WebhookPumpMessage.safeParse(message.body).success) return true;
    // Nothing can ever process it; a retry would only come back.
    log("error", { event: "webhook", queue: batch.queue, error: "malformed webhook message", body: message.body });
    message.ack();
    return false;
  });
  if (!valid.length) return;
  // Every message says the same thing, so one run answers the whole batch.
  try {
    await deliverDue(deps, options);
    for (const message of valid) message.ack();
  } catch (err) {
    // The claimed deliveries come back through the sweeper; the retry only makes the next run sooner.
    log("error", { event: "webhook", error: `delivery run failed: ${String(err)}` });
    for (const message of valid) message.retry({ delaySeconds: 10 });
  }
}

/** Claims and sends due deliveries, round after round, until none is due or the run's budget is spent. */
export async function deliverDue({ db, env }: { db: DB; env: Env }, options: DeliveryOptions = {}): Promise<DeliveryRun> {
  const now = options.now ?? (() => new Date());
  const started = Date.now();
  const run: DeliveryRun = { rounds: 0, succeeded: [], retrying: [], failed: [] };
  const retryDelays = new Set<number>();
  for (;;) {
    const claimed = await claimDueDeliveries(db, { nowSeconds: seconds(now()), leaseSeconds: LEASE_SECONDS, limit: CLAIM_BATCH });
    if (!claimed.length) break;
    run.rounds += 1;
    await deliverClaimed(db, env, claimed, options, now, run, retryDelays);
    if (claimed.length < CLAIM_BATCH) break;
    if (Date.now() - started >= (options.budgetMs ?? RUN_BUDGET_MS)) {
      // More may be due: a fresh invocation picks them up rather than this one running on.
      await sendDeliveries(env);
      break;
    }
  }
  // One message per distinct backoff, so each retry is attempted on time rather than at the next sweep.
  for (const delay of retryDelays) await sendDeliveries(env, delay);
  return run;
}

async function deliverClaimed(
  db: DB,
  env: Env,
  claimed: ClaimedDelivery[],
  options: DeliveryOptions,
  now: () => Date,
  run: DeliveryRun,
  retryDelays: Set<number>,
) {
  const { events, endpoints } = await deliveryTargets(
    db,
    [...new Set(claimed.map((c) => c.eventId))],
    [...new Set(claimed.map((c) => c.endpointId))],
  );
  const eventById = new Map(events.map((x) => [x.id, x]));
  const endpointById = new Map(endpoints.map((x) => [x.id, x]));
  const sentAt = seconds(now());
  // Results in the order they finish: the endpoint's failure streak follows that order.
  const finished: { claim: ClaimedDelivery; outcome: AttemptOutcome }[] = [];
  await Promise.all(
    claimed.map(async (claim) => {
      const event = eventById.get(claim.eventId);
      const endpoint = endpointById.get(claim.endpointId);
      // Both cascade to the delivery, so this is a row deleted between the claim and the read: nothing to send.
      if (!event || !endpoint) return;
      const outcome = await attemptDelivery(
        {
          deliveryId: claim.id,
          attempt: claim.attempts,
          event,
          endpoint,
          origin: env.API_ORIGIN,
          nowSeconds: sentAt,
          timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
        },
        options.fetch,
      );
      finished.push({ claim, outcome });
    }),
  );
  if (!finished.length) return;

  const doneAt = seconds(now());
  const records = finished.map(({ claim, outcome }): AttemptRecord => {
    const backoff = BACKOFF_SECONDS[claim.attempts - 1];
    const retry = !outcome.ok && claim.attempts < MAX_ATTEMPTS && backoff !== undefined;
    if (retry) retryDelays.add(backoff);
    (outcome.ok ? run.succeeded : retry ? run.retrying : run.failed).push(claim.id);
    logAttempt(claim, eventById.get(claim.eventId)!.type, outcome, retry ? backoff : null);
    return {
      id: claim.id,
      attempts: claim.attempts,
      succeeded: outcome.ok,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      nextAttemptAt: retry ? doneAt + backoff : null,
    };
  });
  const opts = { nowSeconds: doneAt, pauseAfterFailures: PAUSE_AFTER_FAILURES, pauseAfterSeconds: PAUSE_AFTER_SECONDS };
  const [first, ...rest] = [
    ...records.map((r) => recordAttempt(db, r, doneAt)),
    ...endpointOutcomes(finished).map((o) => recordEndpointOutcome(db, o, opts)),
  ];
  await db.batch([first, ...rest]);
}

/** Per endpoint: whether any attempt succeeded, and the failures after the last success (the streak that remains). */
function endpointOutcomes(finished: { claim: ClaimedDelivery; outcome: AttemptOutcome }[]): EndpointOutcome[] {
  const byEndpoint = new Map<number, EndpointOutcome>();
  for (const { claim, outcome } of finished) {
    const o = byEndpoint.get(claim.endpointId) ?? { endpointId: claim.endpointId, succeeded: false, failures: 0, lastError: null };
    if (outcome.ok) Object.assign(o, { succeeded: true, failures: 0, lastError: null });
    else Object.assign(o, { failures: o.failures + 1, lastError: outcome.error });
    byEndpoint.set(claim.endpointId, o);
  }
  return [...byEndpoint.values()];
}

/** One JSON line per attempt, like the job transitions (queues/runner.ts); never the secret or the body. */
function logAttempt(claim: ClaimedDelivery, type: string, outcome: AttemptOutcome, retryInSeconds: number | null) {
  const transition = outcome.ok ? "succeeded" : retryInSeconds !== null ? "retry" : "failed";
  const level = outcome.ok ? "info" : retryInSeconds !== null ? "warn" : "error";
  log(level, {
    event: "webhook",
    transition,
    delivery: claim.id,
    webhookEvent: claim.eventId,
    endpoint: claim.endpointId,
    type,
    attempt: claim.attempts,
    status: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(retryInSeconds !== null ? { retryInSeconds } : {}),
  });
}
