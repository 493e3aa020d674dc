import type { DB } from "../src/db/client";
import { failJob, finishJob, markJobRunning, noteJobError, setJobProgress, type Job } from "../src/db/queries/jobs";

export interface JobContext {
  db: DB;
  env: Env;
  job: Job;
  /** Reports progress (0..100) to GET /v4/jobs/<id>.json. */
  progress(percent: number): Promise<void>;
}

export type JobHandler = (ctx: JobContext) => Promise<Record<string, unknown>>;

/** A failure that retrying cannot fix (a broken file, a deleted video): the job fails at once. */
export class PermanentJobError extends Error {}

/** Seconds before the next delivery: 2, 4, 8, ... capped at five minutes. */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(1, attempts));

/**
 * Runs one delivery of a job. Delivery is at least once, so a job that already finished is acked
 * untouched; handlers themselves write with upserts keyed so that a replay changes nothing.
 */
export async function runJob(db: DB, env: Env, jobId: number, handler: JobHandler, message: Message<unknown>) {
  const job = await markJobRunning(db, jobId);
  if (!job) {
    message.ack();
    return;
  }
  try {
    const result = await handler({ db, env, job, progress: (p) => setJobProgress(db, jobId, p).then(() => undefined) });
    await finishJob(db, jobId, result);
    message.ack();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (err instanceof PermanentJobError) {
      await failJob(db, jobId, reason);
      message.ack();
      return;
    }
    console.error(JSON.stringify({ level: "warn", job: jobId, attempt: message.attempts, error: reason }));
    await noteJobError(db, jobId, reason);
    message.retry({ delaySeconds: backoffSeconds(message.attempts) });
  }
}
