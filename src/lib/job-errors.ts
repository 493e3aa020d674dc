/**
 * What a job's work throws to tell the runner how its delivery ends (docs/decisions.md, "Jobs"). Below every layer so
 * a service that owns a job's work (the subtitle import) throws them as a request's service throws `ApiError`;
 * src/jobs/define.ts re-exports them for the jobs and the consumer.
 */

/** A failure that retrying cannot fix (a broken file, a deleted video): the job fails at once. */
export class PermanentJobError extends Error {}

/**
 * This delivery no longer holds its job (docs/decisions.md, "Exclusive claims"): its lease ran out and another
 * delivery claimed it, or the sweeper took it back. It stops without writing anything more; the runner acks its
 * message, since the job is the other delivery's (or the sweeper's re-send's) now.
 */
export class LostClaim extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: another delivery holds it now`);
  }
}

/**
 * Work that does not fit one delivery: D1 allows a Worker invocation a bounded number of queries (docs/decisions.md,
 * "Jobs that continue"). A handler throws it at a checkpoint with the state the next delivery resumes from (merged
 * into the job's params); the runner records it and sends the job again at once, as a continuation, not a retry.
 */
export class ContinueJob extends Error {
  constructor(readonly state: Record<string, unknown>) {
    super("continues in the next delivery");
  }
}
