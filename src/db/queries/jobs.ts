import { and, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "../client";
import { jobs } from "../schema";

export type Job = typeof jobs.$inferSelect;

/**
 * `startWithinSeconds` is how long the job may wait for its first delivery before the sweeper re-sends it; left
 * out, the job is due at once (a job nobody gave a deadline is still never forgotten).
 */
export async function insertJob(
  db: DB,
  {
    startWithinSeconds = 0,
    ...values
  }: {
    type: string;
    params?: Record<string, unknown>;
    payloadKey?: string;
    createdBy?: number;
    applicationId?: number;
    requestId?: string;
    startWithinSeconds?: number;
  },
) {
  const [job] = await db
    .insert(jobs)
    .values({ ...values, leaseUntil: sql`(unixepoch() + ${startWithinSeconds})` })
    .returning();
  return job;
}

export const findJob = (db: DB, id: number) => db.select().from(jobs).where(eq(jobs.id, id)).get();

/**
 * The delivery that claimed a job: its id and the epoch its claim bumped to (docs/decisions.md, "Exclusive claims").
 * The row `markJobRunning` returns is one.
 */
export type JobClaim = Pick<Job, "id" | "epoch">;

/** The job is still held by this claim: no later claim took it, and the sweeper has not taken it back. */
const holds = (claim: JobClaim) => and(eq(jobs.id, claim.id), eq(jobs.epoch, claim.epoch), eq(jobs.status, "running"), eq(jobs.held, true));

/**
 * The same condition as a statement of another table can state it (`WHERE ... AND ${jobHeldBy(claim)}`): a write
 * that is only right while the delivery still holds its job (a move's switch, a copy's mark) then changes nothing
 * once it has lost it, in the same statement, so no later claim can run between the check and the write.
 */
export const jobHeldBy = (claim: JobClaim) =>
  sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${claim.id} AND epoch = ${claim.epoch} AND status = 'running' AND held = 1)`;

/**
 * Claims a job for a delivery (docs/decisions.md, "Exclusive claims"), in one statement: a queued job, or a running
 * one no delivery holds (handed back for a queue retry or a continuation) or whose holder's lease ran out. The claim
 * bumps `epoch`; every later write of the delivery is conditional on it. Nothing comes back for a finished job or
 * one another delivery holds under a live lease: that delivery finishes it, hands it back, or dies and the sweeper
 * re-sends it once its lease runs out. The lease says how long the delivery may go without a sign of life.
 */
export async function markJobRunning(db: DB, id: number, leaseSeconds: number) {
  const [job] = await db
    .update(jobs)
    .set({
      status: "running",
      held: true,
      epoch: sql`${jobs.epoch} + 1`,
      attempts: sql`${jobs.attempts} + 1`,
      startedAt: sql`coalesce(${jobs.startedAt}, unixepoch())`,
      leaseUntil: sql`(unixepoch() + ${leaseSeconds})`,
      updatedAt: sql`(unixepoch())`,
    })
    .where(
      and(
        eq(jobs.id, id),
        sql`(${jobs.status} = 'queued' OR (${jobs.status} = 'running' AND (${jobs.held} = 0 OR ${jobs.leaseUntil} <= unixepoch())))`,
      ),
    )
    .returning();
  return job;
}

/** Whether a conditional write of a claim's found its row (false: the claim was lost). */
const changed = async (rows: Promise<unknown[]>) => (await rows).length > 0;

/** Merges keys into a job's params (a decision or a cursor later deliveries must follow); false once the claim is lost. */
export const mergeJobParams = (db: DB, claim: JobClaim, values: Record<string, unknown>) =>
  changed(
    db
      .update(jobs)
      .set({ params: sql`json_patch(coalesce(${jobs.params}, '{}'), ${JSON.stringify(values)})` })
      .where(holds(claim))
      .returning({ id: jobs.id }),
  );

/**
 * A running job whose delivery stopped at a checkpoint (src/jobs/define.ts, ContinueJob): its state merged into its
 * params, its attempts back to 0 (the next delivery is a continuation, not a retry), its lease renewed and the claim
 * handed back (the continuation's delivery claims it anew), so the sweeper sends it again only if the continuation's
 * message is lost. False once the claim is lost (the state is not written).
 */
export const continueJob = (db: DB, claim: JobClaim, state: Record<string, unknown>, leaseSeconds: number) =>
  changed(
    db
      .update(jobs)
      .set({
        params: sql`json_patch(coalesce(${jobs.params}, '{}'), ${JSON.stringify(state)})`,
        attempts: 0,
        held: false,
        leaseUntil: sql`(unixepoch() + ${leaseSeconds})`,
        updatedAt: sql`(unixepoch())`,
      })
      .where(holds(claim))
      .returning({ id: jobs.id }),
  );

/** Progress is the delivery's sign of life: it renews the lease (left out, the progress stays). False once the claim is lost. */
export const setJobProgress = (db: DB, claim: JobClaim, progress: number | null, leaseSeconds: number) =>
  changed(
    db
      .update(jobs)
      .set({
        ...(progress === null ? {} : { progress: Math.max(0, Math.min(100, Math.floor(progress))) }),
        leaseUntil: sql`(unixepoch() + ${leaseSeconds})`,
        updatedAt: sql`(unixepoch())`,
      })
      .where(holds(claim))
      .returning({ id: jobs.id }),
  );

/** False once the claim is lost: the delivery that holds the job now writes its outcome. */
export const finishJob = (db: DB, claim: JobClaim, result: Record<string, unknown>) =>
  changed(
    db
      .update(jobs)
      .set({ status: "succeeded", progress: 100, result, error: null, finishedAt: sql`(unixepoch())`, updatedAt: sql`(unixepoch())` })
      .where(holds(claim))
      .returning({ id: jobs.id }),
  );

/**
 * Records the last failure and hands the claim back; the job stays running while the queue still retries it, and
 * its lease covers the queue's delay before that retry, so the sweeper does not re-send a job the queue is about to
 * deliver (the retry claims it, the job being held by nobody). False once the claim is lost.
 */
export const noteJobError = (db: DB, claim: JobClaim, error: string, leaseSeconds: number) =>
  changed(
    db
      .update(jobs)
      .set({ error, held: false, leaseUntil: sql`(unixepoch() + ${leaseSeconds})`, updatedAt: sql`(unixepoch())` })
      .where(holds(claim))
      .returning({ id: jobs.id }),
  );

/**
 * `deadLetter`: the dead-letter queue's consumer fails it, and the row records when (`jobs dead-letters` lists them).
 * `claim`: a delivery fails the job it holds, and only while it holds it.
 */
export const failJob = (
  db: DB,
  id: number,
  error: string,
  { deadLetter = false, claim }: { deadLetter?: boolean; claim?: JobClaim } = {},
) =>
  changed(
    db
      .update(jobs)
      .set({
        status: "failed",
        error,
        finishedAt: sql`(unixepoch())`,
        updatedAt: sql`(unixepoch())`,
        ...(deadLetter ? { deadLetteredAt: sql`(unixepoch())` } : {}),
      })
      .where(
        claim
          ? holds(claim)
          : and(
              eq(jobs.id, id),
              inArray(jobs.status, ["queued", "running"]),
              // A dead letter is one message's end, not the job's: a delivery that holds the job under a live lease
              // (the sweeper re-sent it) writes its outcome, or dies and the sweeper counts it (docs/decisions.md,
              // "Exclusive claims").
              deadLetter ? sql`(${jobs.held} = 0 OR ${jobs.leaseUntil} <= unixepoch())` : undefined,
            ),
      )
      .returning({ id: jobs.id }),
  );

/**
 * A failed job back to `queued` as a new attempt (src/jobs/retry.ts): the same row, id and params, with the state of
 * a job just accepted. Its attempts start again at 0 because its message is new: the queue counts that message's
 * deliveries from 1, and the sweeper and the dead-letter consumer count the job's against MAX_ATTEMPTS. Only a job
 * still failed moves (one statement), so of two retries at once only one does; the other gets nothing back.
 */
export async function requeueFailedJob(db: DB, id: number, startWithinSeconds: number) {
  const [job] = await db
    .update(jobs)
    .set({
      status: "queued",
      attempts: 0,
      progress: 0,
      result: null,
      error: null,
      startedAt: null,
      finishedAt: null,
      deadLetteredAt: null,
      leaseUntil: sql`(unixepoch() + ${startWithinSeconds})`,
      updatedAt: sql`(unixepoch())`,
    })
    .where(and(eq(jobs.id, id), eq(jobs.status, "failed")))
    .returning();
  return job;
}

/** Points a job at its payload in R2 (written after the row, since the key carries the job id). */
export const setJobPayloadKey = (db: DB, id: number, payloadKey: string) =>
  db
    .update(jobs)
    .set({ payloadKey, updatedAt: sql`(unixepoch())` })
    .where(eq(jobs.id, id));

/**
 * Unfinished jobs whose lease ran out: a range scan per status of the partial index jobs_lease, stopping at `limit`
 * (queued ones first, each status oldest deadline first; no ORDER BY, which would read every due job to sort).
 */
export const dueJobIds = (db: DB, nowSeconds: number, limit: number) =>
  db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(sql`${jobs.status} in ('queued', 'running')`, sql`${jobs.leaseUntil} <= ${nowSeconds}`))
    .limit(limit);

/**
 * A queued job past its deadline was never delivered: its send was lost, which counts as an attempt. A running
 * job past its lease already counted its delivery when it started.
 */
const attemptsAfterSweep = sql<number>`${jobs.attempts} + (${jobs.status} = 'queued')`;

const sweepReason = sql`coalesce(${jobs.error}, case ${jobs.status}
  when 'queued' then 'not delivered in time (its queue message was lost)'
  else 'its delivery stopped without finishing (lease expired)' end)`;

/**
 * The sweeper's step (src/jobs/sweeper.ts), one batch in one transaction: due jobs that reached `maxAttempts` fail
 * with the reason, the others go back to `queued` with a new deadline, `startWithinSeconds` after `nowSeconds`
 * doubled for each attempt already made (a job merely stuck in a long backlog is re-sent ever less often, so it
 * fails only after about half an hour, not after six minutes); the caller re-sends those. Each UPDATE picks its
 * jobs in the same statement that moves them (writes are serialised), so a job that finished or renewed its lease
 * meanwhile is left alone, and of two sweepers racing only one moves a given job: for the other it is no longer due.
 */
export async function sweepDueJobs(db: DB, opts: { nowSeconds: number; limit: number; maxAttempts: number; startWithinSeconds: number }) {
  const { nowSeconds, limit, maxAttempts, startWithinSeconds } = opts;
  // By rowid only: re-stating the conditions here would make the planner scan jobs_lease past `limit`.
  const due = inArray(jobs.id, dueJobIds(db, nowSeconds, limit));
  const [failed, requeued] = await db.batch([
    db
      .update(jobs)
      .set({
        status: "failed",
        attempts: attemptsAfterSweep,
        error: sql`'failed after ' || (${attemptsAfterSweep}) || ' attempts: ' || ${sweepReason}`,
        finishedAt: sql`(unixepoch())`,
        updatedAt: sql`(unixepoch())`,
      })
      .where(and(due, sql`${attemptsAfterSweep} >= ${maxAttempts}`))
      .returning({ id: jobs.id, type: jobs.type, error: jobs.error, payloadKey: jobs.payloadKey }),
    db
      .update(jobs)
      .set({
        status: "queued",
        attempts: attemptsAfterSweep,
        error: sweepReason,
        leaseUntil: sql`${nowSeconds} + (${startWithinSeconds} << min(max(${attemptsAfterSweep} - 1, 0), 10))`,
        updatedAt: sql`(unixepoch())`,
      })
      .where(due)
      .returning({ id: jobs.id, type: jobs.type }),
  ]);
  return { failed, requeued };
}
