import { log } from "../src/lib/log";
import { createDb, emptyStats, instrument } from "../src/db/client";
import { failJob, findJob } from "../src/db/queries/jobs";
import { JobMessage, jobHandlers } from "../src/jobs";
import { discardPayload } from "../src/jobs/payload";
import { webhookQueue } from "../src/webhooks/delivery";
import { backoffSeconds, describeError, logJobTransition, runJob } from "./runner";

/** Consumers by job type, from the definitions in src/jobs (mutable so tests can swap one in). */
export const handlers = jobHandlers();

function consumerDb(env: Env) {
  return createDb(instrument(env.DB.withSession("first-primary"), emptyStats()));
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
  await eachAtMost(batch.messages, BATCH_CONCURRENCY, async (message) => {
    try {
      await consume(consumerDb(env), env, message, deadLetters, batch.queue);
    } catch (err) {
      const delaySeconds = backoffSeconds(message.attempts);
      log("error", { event: "job", queue: batch.queue, error: `message failed: ${describeError(err)}`, message: message.id, delaySeconds });
      message.retry({ delaySeconds });
    }
  });
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

async function consume(db: ReturnType<typeof consumerDb>, env: Env, message: Message<unknown>, deadLetters: boolean, queueName: string) {
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
  await runJob(db, env, jobId, handlers[type], message);
}
