import { log } from "../src/lib/log";
import type { DB } from "../src/db/client";
import { continueJob, failJob, finishJob, markJobRunning, noteJobError, setJobProgress } from "../src/db/queries/jobs";
import { ContinueJob, PermanentJobError, type JobHandler } from "../src/jobs";
import { discardPayload } from "../src/jobs/payload";
import { LEASE_SECONDS } from "../src/jobs/deadlines";
import { sendDeliveries } from "../src/webhooks/pump";

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
  const started = performance.now();
  const log = (transition: JobTransition, extra: Record<string, unknown> = {}) =>
    logJobTransition(transition, {
      job: jobId,
      type: job.type,
      ...(job.requestId ? { requestId: job.requestId } : {}),
      attempt: message.attempts,
      ...extra,
      ...(transition === "running" ? {} : { durationMs: Math.round(performance.now() - started) }),
    });
  log("running");
  try {
    const result = await handler({ db, env, job, progress: (p) => setJobProgress(db, jobId, p, LEASE_SECONDS).then(() => undefined) });
    await finishJob(db, jobId, result);
    message.ack();
    log("succeeded");
    await announceEnd(env, job);
  } catch (err) {
    if (err instanceof ContinueJob) {
      await continueJob(db, jobId, err.state, LEASE_SECONDS);
      await env.JOBS.send({ type: job.type, jobId });
      message.ack();
      log("continued", { state: err.state });
      return;
    }
    const reason = describeError(err);
    if (err instanceof PermanentJobError) {
      await failJob(db, jobId, reason);
      message.ack();
      log("failed", { error: reason });
      await announceEnd(env, job);
      return;
    }
    const delaySeconds = backoffSeconds(message.attempts);
    await noteJobError(db, jobId, reason, delaySeconds + LEASE_SECONDS);
    message.retry({ delaySeconds });
    log("retry", { error: reason, delaySeconds });
  }
}

/** What was thrown, as text; never throws itself (a thrown object may have no usable toString). */
export function describeError(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
}

/**
 * The job's upload is deleted (discardPayload). The trigger jobs_webhook_event recorded job.succeeded/failed with the final status (when the job's application has
 * an endpoint); this asks the webhook consumer to send it now rather than at the next sweep. Never throws.
 */
async function announceEnd(env: Env, job: { applicationId: number | null; payloadKey: string | null }) {
  await discardPayload(env, job.payloadKey);
  if (job.applicationId !== null) await sendDeliveries(env);
}

export type JobTransition = "running" | "succeeded" | "failed" | "retry" | "continued";

/** One JSON line per job state change (`wrangler tail`, Workers Logs); failures and retries at a level that alerts. */
export function logJobTransition(transition: JobTransition, fields: Record<string, unknown>) {
  log(transition === "failed" ? "error" : transition === "retry" ? "warn" : "info", { event: "job", transition, ...fields });
}
