import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { handlers } from "../../queues";
import worker from "../../src";
import { dueJobIds, findJob, finishJob, insertJob, markJobRunning, noteJobError, type Job } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { LEASE_SECONDS, MAX_ATTEMPTS, QUEUED_TIMEOUT_SECONDS } from "../../src/jobs/deadlines";
import { SWEEP_BATCH, sweepJobs } from "../../src/jobs/sweeper";
import { db } from "../helpers";
import { deliver } from "../helpers/subtitles";

/** A JOBS binding that records what the sweeper sends instead of handing it to the real consumer. */
function recordingQueue() {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages.map((m) => m.body)),
  };
  return { sent, deps: { db: db(), env: { ...env, JOBS: queue as unknown as Env["JOBS"] } } };
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
const queuedJob = () =>
  insertJob(db(), { type: "completion", params: { videoIds: [], containerIds: [] }, startWithinSeconds: QUEUED_TIMEOUT_SECONDS });
const row = async (id: number) => (await findJob(db(), id))!;
const setRow = (id: number, values: Partial<Job>) => db().update(jobs).set(values).where(eq(jobs.id, id));

// Each test sweeps every due job of the database, so each starts without any.
beforeEach(async () => {
  await db().delete(jobs);
});

describe("job sweeper", () => {
  it("leaves a fresh queued job and a running job within its lease alone", async () => {
    const queued = await queuedJob();
    const running = await queuedJob();
    await markJobRunning(db(), running.id, LEASE_SECONDS);
    const { sent, deps } = recordingQueue();
    expect(await sweepJobs(deps, later(QUEUED_TIMEOUT_SECONDS - 5))).toEqual({ resent: [], failed: [] });
    expect(sent).toEqual([]);
    expect(await row(queued.id)).toMatchObject({ status: "queued", attempts: 0, error: null });
    expect(await row(running.id)).toMatchObject({ status: "running", attempts: 1, error: null });
  });

  it("re-sends a job left queued past its deadline, counting the lost send as an attempt", async () => {
    const job = await queuedJob();
    const { sent, deps } = recordingQueue();
    expect(await sweepJobs(deps, later(QUEUED_TIMEOUT_SECONDS + 1))).toEqual({ resent: [job.id], failed: [] });
    expect(sent).toEqual([{ type: "completion", jobId: job.id }]);
    const after = await row(job.id);
    expect(after).toMatchObject({ status: "queued", attempts: 1, error: expect.stringContaining("not delivered") });
    // A new deadline: the next sweep leaves it alone until then.
    expect(after.leaseUntil!.getTime()).toBeGreaterThan(Date.now() + (QUEUED_TIMEOUT_SECONDS - 5) * 1000);
    expect(await sweepJobs(deps, later(QUEUED_TIMEOUT_SECONDS - 5))).toEqual({ resent: [], failed: [] });

    // The re-sent message is the one the consumer expects, and it runs the job.
    const result = await deliver(sent[0]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(await row(job.id)).toMatchObject({ status: "succeeded", attempts: 2, error: null });
  });

  it("re-sends a job ever less often: the wait doubles with each attempt", async () => {
    const job = await queuedJob();
    await setRow(job.id, { attempts: 3 });
    const { deps } = recordingQueue();
    const now = later(QUEUED_TIMEOUT_SECONDS + 1);
    expect(await sweepJobs(deps, now)).toEqual({ resent: [job.id], failed: [] });
    const after = await row(job.id);
    expect(after.attempts).toBe(4);
    expect(after.leaseUntil!.getTime()).toBe(Math.floor(now.getTime() / 1000) * 1000 + QUEUED_TIMEOUT_SECONDS * 8 * 1000);
  });

  it("reclaims a running job whose lease expired; progress renews the lease", async () => {
    const job = await queuedJob();
    await markJobRunning(db(), job.id, LEASE_SECONDS);
    const { sent, deps } = recordingQueue();
    expect(await sweepJobs(deps, later(LEASE_SECONDS - 5))).toEqual({ resent: [], failed: [] });
    const result = await sweepJobs(deps, later(LEASE_SECONDS + 1));
    expect(result).toEqual({ resent: [job.id], failed: [] });
    expect(sent).toEqual([{ type: "completion", jobId: job.id }]);
    // Its delivery was counted when it started; the reclaim adds none.
    expect(await row(job.id)).toMatchObject({ status: "queued", attempts: 1, error: expect.stringContaining("lease expired") });
  });

  it("a retry the queue will make is covered by the lease: not re-sent before its delay has passed", async () => {
    const job = await queuedJob();
    const claim = (await markJobRunning(db(), job.id, LEASE_SECONDS))!;
    await noteJobError(db(), claim, "D1 is busy", 300 + LEASE_SECONDS);
    const { deps } = recordingQueue();
    expect(await sweepJobs(deps, later(LEASE_SECONDS + 60))).toEqual({ resent: [], failed: [] });
    expect(await sweepJobs(deps, later(300 + LEASE_SECONDS + 1))).toEqual({ resent: [job.id], failed: [] });
    expect(await row(job.id)).toMatchObject({ status: "queued", error: "D1 is busy" });
  });

  it(`fails a job after ${MAX_ATTEMPTS} attempts with the reason`, async () => {
    const crashed = await queuedJob();
    await setRow(crashed.id, { status: "running", attempts: MAX_ATTEMPTS, error: "D1 is busy" });
    const lost = await queuedJob();
    await setRow(lost.id, { attempts: MAX_ATTEMPTS - 1 });
    const lastChance = await queuedJob();
    await setRow(lastChance.id, { status: "running", attempts: MAX_ATTEMPTS - 1 });
    const { sent, deps } = recordingQueue();
    const result = await sweepJobs(deps, later(LEASE_SECONDS + 1));
    expect(result.failed.sort()).toEqual([crashed.id, lost.id].sort());
    expect(result.resent).toEqual([lastChance.id]);
    expect(sent).toEqual([{ type: "completion", jobId: lastChance.id }]);
    expect(await row(crashed.id)).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      error: `failed after ${MAX_ATTEMPTS} attempts: D1 is busy`,
    });
    const failed = await row(lost.id);
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, finishedAt: expect.any(Date) });
    expect(failed.error).toMatch(new RegExp(`^failed after ${MAX_ATTEMPTS} attempts: not delivered`));
    // A failed job stays failed: a late message is acked untouched.
    expect((await deliver({ type: "completion", jobId: lost.id })).explicitAcks).toHaveLength(1);
    expect(await row(lost.id)).toEqual(failed);
  });

  it("leaves a succeeded job alone, and the runner acks a re-sent one untouched", async () => {
    const job = await queuedJob();
    const claim = (await markJobRunning(db(), job.id, LEASE_SECONDS))!;
    await finishJob(db(), claim, { done: true });
    const done = await row(job.id);
    const { sent, deps } = recordingQueue();
    expect(await sweepJobs(deps, later(LEASE_SECONDS * 10))).toEqual({ resent: [], failed: [] });
    expect(sent).toEqual([]);
    let runs = 0;
    const real = handlers["completion"];
    handlers["completion"] = async () => {
      runs++;
      return {};
    };
    try {
      expect((await deliver({ type: "completion", jobId: job.id })).explicitAcks).toHaveLength(1);
    } finally {
      handlers["completion"] = real;
    }
    expect(runs).toBe(0);
    expect(await row(job.id)).toEqual(done);
  });

  it("two sweepers racing move each job once: one re-send, one failure", async () => {
    const lost = await queuedJob();
    const doomed = await queuedJob();
    await setRow(doomed.id, { status: "running", attempts: MAX_ATTEMPTS, error: "boom" });
    const a = recordingQueue();
    const b = recordingQueue();
    const now = later(LEASE_SECONDS + 1);
    const [ra, rb] = await Promise.all([sweepJobs(a.deps, now), sweepJobs(b.deps, now)]);
    expect([...ra.resent, ...rb.resent]).toEqual([lost.id]);
    expect([...ra.failed, ...rb.failed]).toEqual([doomed.id]);
    expect([...a.sent, ...b.sent]).toEqual([{ type: "completion", jobId: lost.id }]);
    expect(await row(lost.id)).toMatchObject({ status: "queued", attempts: 1 });
    expect(await row(doomed.id)).toMatchObject({ status: "failed", error: `failed after ${MAX_ATTEMPTS} attempts: boom` });
  });

  it("handles one bounded batch per sweep, found over the partial index", async () => {
    const { sql, params } = dueJobIds(db(), 0, SWEEP_BATCH).toSQL();
    const plan = (
      await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>()
    ).results
      .map((r) => r.detail)
      .join("\n");
    expect(plan).toMatch(/INDEX jobs_lease \(status=\? AND lease_until<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN/);

    await env.DB.prepare(
      "INSERT INTO jobs (type, lease_until) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT 'completion', 0 FROM n",
    )
      .bind(SWEEP_BATCH + 5)
      .run();
    const { sent, deps } = recordingQueue();
    expect((await sweepJobs(deps)).resent).toHaveLength(SWEEP_BATCH);
    expect((await sweepJobs(deps)).resent).toHaveLength(5);
    expect(new Set(sent.map((m) => (m as { jobId: number }).jobId)).size).toBe(SWEEP_BATCH + 5);
  });

  it("runs from the Worker's scheduled handler (the Cron Trigger) through the real queue", async () => {
    // Due at once (no deadline given): the cron re-sends it and the real consumer runs it.
    const job = await insertJob(db(), { type: "completion", params: { videoIds: [], containerIds: [] } });
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env);
    const deadline = Date.now() + 10_000;
    while ((await row(job.id)).status !== "succeeded" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await row(job.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});
