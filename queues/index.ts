import { createDb, emptyStats, instrument } from "../src/db/client";
import { failJob, findJob } from "../src/db/queries/jobs";
import { JobMessage, jobHandlers } from "../src/jobs";
import { runJob } from "./runner";

/** Consumers by job type, from the definitions in src/jobs (mutable so tests can swap one in). */
export const handlers = jobHandlers();

export const DEAD_LETTER_QUEUE = "media-catalogue-jobs-dlq";

function consumerDb(env: Env) {
  return createDb(instrument(env.DB.withSession("first-primary"), emptyStats()));
}

export async function queue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = consumerDb(env);
  const deadLetters = batch.queue === DEAD_LETTER_QUEUE;
  for (const message of batch.messages) {
    const parsed = JobMessage.safeParse(message.body);
    if (!parsed.success) {
      // Nothing can ever process it; retrying would only delay the dead-letter queue.
      console.error(JSON.stringify({ level: "error", queue: batch.queue, error: "malformed job message", body: message.body }));
      message.ack();
      continue;
    }
    const { jobId, type } = parsed.data;
    if (deadLetters) {
      const job = await findJob(db, jobId);
      await failJob(db, jobId, `failed after ${job?.attempts ?? 0} attempts: ${job?.error ?? "unknown error"}`);
      message.ack();
      continue;
    }
    await runJob(db, env, jobId, handlers[type], message);
  }
}
