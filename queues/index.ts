import { log } from "../src/lib/log";
import { createDb, emptyStats, instrument } from "../src/db/client";
import { failJob, findJob } from "../src/db/queries/jobs";
import { JobMessage, jobHandlers } from "../src/jobs";
import { BatchBudget, countedEnv, type DeliveryBudget } from "../src/jobs/batch-budget";
import { discardPayload } from "../src/jobs/payload";
import { webhookQueue } from "../src/webhooks/delivery";
import { backoffSeconds, describeError, logJobTransition, runJob } from "./runner";

/** Consumers by job type, from the definitions in src/jobs (mutable so tests can swap one in). */
export const handlers = jobHandlers();

function consumerDb(env: Env, stats = emptyStats()) {
  return createDb(instrument(env.DB.withSession("first-primary"), stats));
}

export async function queue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // Webhook deliveries share this entry point (one Worker), not the job message format.
  if (batch.queue === env.WEBHOOKS_QUEUE) return webhookQueue(batch, { db: consumerDb(env), env });
  // The name comes from config because each environment has its own queues (wrangler.toml, JOBS_DEAD_LETTER_QUEUE).
  const deadLetters = batch.queue === env.JOBS_DEAD_LETTER_QUEUE;
  // Each message is settled on its own (docs/decisions.md, "Jobs"): whatever one throws is that message's retry, and
  // after max_retries its own dead letter; the others of the batch are acked or retried as they finish. A message
  // already acked or retried keeps that outcome (the first call wins). Messages run side by side, at most
  // BATCH_CONCURRENCY at once (docs/decisions.md, "Jobs of one batch side by side"), each with its own D1 session.
  // They share one statement budget (src/jobs/batch-budget.ts): a message the batch cannot cover waits for the next.
  const budget = new BatchBudget();
  await eachAtMost(batch.messages, BATCH_CONCURRENCY, async (message) => {
    // A dead letter makes two or three statements, and has no later delivery to wait for.
    const delivery = deadLetters ? null : budget.start();
    try {
      if (!deadLetters && !delivery && (await sendOn(env, message))) return;
      const db = consumerDb(env, delivery?.stats);
      await consume(db, delivery ? countedEnv(env, delivery.stats) : env, message, deadLetters, batch.queue, delivery ?? undefined);
    } catch (err) {
      const delaySeconds = backoffSeconds(message.attempts);
      log("error", { event: "job", queue: batch.queue, error: `message failed: ${describeError(err)}`, message: message.id, delaySeconds });
      message.retry({ delaySeconds });
    } finally {
      if (delivery) budget.end(delivery);
    }
  });
  if (budget.spent() > budget.limit)
    log("warn", { event: "job", queue: batch.queue, batchStatements: budget.spent(), limit: budget.limit });
}

/**
 * A job message the batch's budget cannot cover, sent again as it is and acked, without a statement: the job's row is
 * untouched (queued, or handed back by its last delivery), and the new message runs it in a later batch, as a
 * continuation's does. False for a message that is not a job's (`consume` acks it).
 */
async function sendOn(env: Env, message: Message<unknown>) {
  const parsed = JobMessage.safeParse(message.body);
  if (!parsed.success) return false;
  await env.JOBS.send(parsed.data);
  message.ack();
  return true;
}

/**
 * Messages of one batch that run at once: uploads sent together (up to max_batch_size, one batch) then overlap, as
 * imports to containers on different shards can, while the batch's memory (each import holds its file and its cues)
 * stays within a few jobs'.
 */
export const BATCH_CONCURRENCY = 4;

/** Runs `work` on every item, at most `limit` at once, in the items' order of start. */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

async function consume(
  db: ReturnType<typeof consumerDb>,
  env: Env,
  message: Message<unknown>,
  deadLetters: boolean,
  queueName: string,
  budget?: DeliveryBudget,
) {
  const parsed = JobMessage.safeParse(message.body);
  if (!parsed.success) {
    // Nothing can ever process it; retrying would only delay the dead-letter queue.
    log("error", { event: "job", queue: queueName, error: "malformed job message", body: message.body });
    message.ack();
    return;
  }
  const { jobId, type } = parsed.data;
  if (deadLetters) {
    const job = await findJob(db, jobId);
    const reason = `failed after ${job?.attempts ?? 0} attempts: ${job?.error ?? "unknown error"}`;
    // Marked as the dead-letter path's (`jobs.dead_lettered_at`): the sweeper's failures read the same way.
    // A job a delivery still holds under a live lease is that delivery's to end, its upload with it.
    if (await failJob(db, jobId, reason, { deadLetter: true })) {
      await discardPayload(env, job?.payloadKey);
      logJobTransition("failed", { job: jobId, type, error: reason, deadLetter: true });
    }
    message.ack();
    return;
  }
  await runJob(db, env, jobId, handlers[type], message, budget);
}
