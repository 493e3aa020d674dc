import { log } from "../src/lib/log";
import type { DB } from "../src/db/client";
import { continueJob, failJob, finishJob, markJobRunning, noteJobError, setJobProgress } from "../src/db/queries/jobs";
import { ContinueJob, LostClaim, PermanentJobError, type JobContext, type JobHandler } from "../src/jobs";
import { discardPayload } from "../src/jobs/payload";
import { LEASE_SECONDS, RENEW_SECONDS } from "../src/jobs/deadlines";
import { afterWrite } from "../src/services/after-write";

/** Seconds before the next delivery: 2, 4, 8, ... capped at five minutes. */
export const backoffSeconds = (attempts: number) => Math.min(300, 2 ** Math.max(1, attempts));

/**
 * Runs one delivery of a job. Delivery is at least once, so a job that already finished is acked
 * untouched; handlers themselves write with upserts keyed so that a replay changes nothing.
 * A delivery runs only if it claims the job (docs/decisions.md, "Exclusive claims"): one that finds another delivery
 * holding it under a live lease is acked without running, since that holder finishes it, hands it back with a
 * message of its own (a retry, a continuation), or dies and the sweeper re-sends it once the lease runs out. Every
 * write after the claim is conditional on it; one that finds the claim lost stops the delivery (`LostClaim`), acked.
 */
export async function runJob(
  db: DB,
  env: Env,
  jobId: number,
  handler: JobHandler,
  message: Message<unknown>,
  budget?: JobContext["budget"],
) {
  const job = await markJobRunning(db, jobId, LEASE_SECONDS);
  if (!job) {
    message.ack();
    return;
  }
  let renewed = Date.now();
  const held = async (write: Promise<boolean>) => {
    if (!(await write)) throw new LostClaim(jobId);
    renewed = Date.now();
  };
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
    const result = await handler({
      db,
      env,
      job,
      progress: (p) => held(setJobProgress(db, job, p, LEASE_SECONDS)),
      renew: async () => {
        if (Date.now() - renewed >= RENEW_SECONDS * 1000) await held(setJobProgress(db, job, null, LEASE_SECONDS));
      },
      budget,
    });
    await held(finishJob(db, job, result));
    message.ack();
    log("succeeded");
  } catch (caught) {
    let err = caught;
    try {
      if (err instanceof ContinueJob) await held(continueJob(db, job, err.state, LEASE_SECONDS));
      else if (err instanceof PermanentJobError) await held(failJob(db, jobId, describeError(err), { claim: job }));
      else if (!(err instanceof LostClaim)) {
        const delaySeconds = backoffSeconds(message.attempts);
        await held(noteJobError(db, job, describeError(err), delaySeconds + LEASE_SECONDS));
        message.retry({ delaySeconds });
        log("retry", { error: describeError(err), delaySeconds });
        return;
      }
    } catch (lost) {
      if (!(lost instanceof LostClaim)) throw lost;
      err = lost;
    }
    if (err instanceof LostClaim) {
      // Another delivery holds the job: its outcome is that delivery's to write, and this message's work is done.
      message.ack();
      log("lost", { error: err.message });
      return;
    }
    if (err instanceof ContinueJob) {
      await env.JOBS.send({ type: job.type, jobId });
      message.ack();
      log("continued", { state: err.state });
      return;
    }
    message.ack();
    log("failed", { error: describeError(err) });
  }
  // Ended either way: the upload goes (discardPayload), and the trigger jobs_webhook_event has recorded job.succeeded
  // or job.failed when the job's application has an endpoint, sent now rather than at the next sweep.
  await discardPayload(env, job.payloadKey);
  await afterWrite({ db, env }, { events: job.applicationId !== null });
}

/** What was thrown, as text; never throws itself (a thrown object may have no usable toString). */
export function describeError(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return Object.prototype.toString.call(err);
  }
}

type JobTransition = "running" | "succeeded" | "failed" | "retry" | "continued" | "lost";

/** One JSON line per job state change (`wrangler tail`, Workers Logs); failures and retries at a level that alerts. */
export function logJobTransition(transition: JobTransition, fields: Record<string, unknown>) {
  log(transition === "failed" ? "error" : transition === "retry" ? "warn" : "info", { event: "job", transition, ...fields });
}
