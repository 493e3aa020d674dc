import type { DB } from "../src/db/client";
import { failJob, finishJob, markJobRunning, noteJobError, setJobProgress } from "../src/db/queries/jobs";
import { PermanentJobError, type JobHandler } from "../src/jobs";
import { LEASE_SECONDS } from "../src/jobs/sweeper";

/** Seconds before the next delivery: 2, 4, 8, ... capped at five minutes. */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(1, attempts));

/**
 * Runs one delivery of a job. Delivery is at least once, so a job that already finished is acked
 * untouched; handlers themselves write with upserts keyed so that a replay changes nothing.
 */
export async function runJob(db: DB, env: Env, jobId: number, handler: JobHandler, message: Message<unknown>) {
  const job = await markJobRunning(db, jobId, LEASE_SECONDS);
  if (!job) {
    message.ack();
    return;
  }
  try {
    const result = await handler({ db, env, job, progress: (p) => setJobProgress(db, jobId, p, LEASE_SECONDS).then(() => undefined) });
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
    const delaySeconds = backoffSeconds(message.attempts);
    await noteJobError(db, jobId, reason, delaySeconds + LEASE_SECONDS);
    message.retry({ delaySeconds });
  }
}
