import { findJob, requeueFailedJob, type Job } from "../db/queries/jobs";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import { log } from "../lib/log";
import type { User } from "../types";
import { QUEUED_TIMEOUT_SECONDS } from "./deadlines";
import { sendQueued } from "./enqueue";
import type { JobDeps } from "./types";

const notFailed = (job: Job) => ApiError.conflict(`job ${formatId(job.id, "j")} is ${job.status}: only a failed job can be retried`);

/**
 * POST /v4/jobs/<id>/retry.json (staff; docs/operations.md, "Jobs runbook"): a failed job runs again as a new attempt
 * of the same job (docs/decisions.md, "Jobs"), its row back to `queued` (src/db/queries/jobs.ts, `requeueFailedJob`)
 * and its message sent as `enqueue` sends one, so the consumer, the sweeper and the dead-letter queue treat it as any
 * job just accepted; its application hears the new outcome (job.succeeded or job.failed again). Refused with 409: a
 * job that is not failed (a second retry finds it queued), a type no longer registered (`registered`: the registry's
 * names, which a module of src/jobs may not import), and a job whose upload was deleted when it failed
 * (src/jobs/payload.ts): it could only fail again, so its work must be started anew.
 */
export async function retryJob(deps: JobDeps, user: User, jobId: number, registered: readonly string[]) {
  const { db, env } = deps;
  const job = await findJob(db, jobId);
  if (!job) throw ApiError.notFound();
  if (job.status !== "failed") throw notFailed(job);
  const id = formatId(job.id, "j");
  if (!registered.includes(job.type)) throw ApiError.conflict(`job ${id} is of type ${job.type}, which this version no longer runs`);
  if (job.payloadKey && !(await env.SUBTITLES.head(job.payloadKey))) {
    throw ApiError.conflict(`job ${id}'s upload (${job.payloadKey}) was deleted when it failed: start the work again instead`);
  }
  const queued = await requeueFailedJob(db, job.id, QUEUED_TIMEOUT_SECONDS);
  // Another retry moved it between the read and the update.
  if (!queued) throw notFailed((await findJob(db, job.id)) ?? job);
  log("info", { event: "job", transition: "requeued", job: job.id, type: job.type, by: user.id, previousError: job.error });
  await sendQueued(deps, queued);
  return queued;
}
