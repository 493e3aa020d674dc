import { createDb, emptyStats, instrument } from "../src/db/client";
import { failJob, findJob } from "../src/db/queries/jobs";
import type { JobType } from "../src/db/schema";
import { completion } from "./completion";
import { listEdit } from "./list-edit";
import { JobMessage } from "./messages";
import { notificationFanout } from "./notification-fanout";
import { runJob, type JobHandler } from "./runner";
import { srtImport } from "./srt-import";

/** Consumers by job type; each later feature registers its own. */
export const handlers: Partial<Record<JobType, JobHandler>> = {
  "list-edit": listEdit,
  "notification-fanout": notificationFanout,
  "srt-import": srtImport,
  completion,
};

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
    const handler = handlers[type];
    if (!handler) {
      await failJob(db, jobId, `no consumer for job type ${type}`);
      message.ack();
      continue;
    }
    await runJob(db, env, jobId, handler, message);
  }
}
