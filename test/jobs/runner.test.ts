import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { BATCH_CONCURRENCY, handlers, queue } from "../../queues";
import { backoffSeconds } from "../../queues/runner";
import { eq, sql } from "drizzle-orm";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { ContinueJob } from "../../src/jobs";
import { jobs } from "../../src/db/schema";
import { db } from "../helpers";

async function deliver(queueName: string, body: unknown, attempts = 1) {
  const batch = createMessageBatch(queueName, [{ id: crypto.randomUUID(), timestamp: new Date(), attempts, body }]);
  const ctx = createExecutionContext();
  await queue(batch, env);
  return getQueueResult(batch, ctx);
}

// These tests swap in throwaway handlers; the real completion consumer is put back after each.
const realCompletion = handlers["completion"];
afterEach(() => {
  handlers["completion"] = realCompletion;
});

describe("job runner", () => {
  it("continues a job at its checkpoint: state merged into its params, acked, sent again at once, attempts not spent", async () => {
    const seen: unknown[] = [];
    handlers["completion"] = async ({ job }) => {
      seen.push(job.params);
      const step = (job.params as { step?: number } | null)?.step ?? 0;
      if (step < 2) throw new ContinueJob({ step: step + 1 });
      return { steps: step };
    };
    const job = await insertJob(db(), { type: "completion", params: { keep: "me" } });
    const first = await deliver("media-catalogue-jobs", { type: "completion", jobId: job.id });
    expect(first.explicitAcks).toHaveLength(1);
    expect(first.retryMessages).toHaveLength(0);
    // The queue delivers the continuations to the real consumer (the swapped handler above).
    await expect.poll(async () => (await findJob(db(), job.id))?.status, { timeout: 10_000 }).toBe("succeeded");
    expect(seen).toEqual([{ keep: "me" }, { keep: "me", step: 1 }, { keep: "me", step: 2 }]);
    expect(await findJob(db(), job.id)).toMatchObject({ result: { steps: 2 }, attempts: 1, params: { keep: "me", step: 2 } });
  });

  it("runs a handler once and acks a replay without running it again", async () => {
    let runs = 0;
    handlers["completion"] = async ({ progress }) => {
      runs++;
      await progress(50);
      return { done: true };
    };
    const job = await insertJob(db(), { type: "completion" });
    const first = await deliver("media-catalogue-jobs", { type: "completion", jobId: job.id });
    expect(first.explicitAcks).toHaveLength(1);
    const replay = await deliver("media-catalogue-jobs", { type: "completion", jobId: job.id });
    expect(replay.explicitAcks).toHaveLength(1);
    expect(runs).toBe(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", progress: 100, result: { done: true }, attempts: 1 });
  });

  it("retries a failing job with exponential backoff, keeping the reason", async () => {
    handlers["completion"] = async () => {
      throw new Error("D1 is busy");
    };
    const job = await insertJob(db(), { type: "completion" });
    const result = await deliver("media-catalogue-jobs", { type: "completion", jobId: job.id }, 3);
    // getQueueResult does not expose the delay; the runner passes backoffSeconds(attempts).
    expect(result.retryMessages).toEqual([{ msgId: expect.any(String) }]);
    expect(backoffSeconds(3)).toBe(8);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", error: "D1 is busy" });
  });

  it("settles each message of a batch on its own: a poisoned one is retried alone", async () => {
    // The middle job throws what no one expects: an object that cannot even be turned into text.
    const poisoned = await insertJob(db(), { type: "completion" });
    handlers["completion"] = async ({ job }) => {
      if (job.id === poisoned.id) throw Object.create(null);
      return { done: true };
    };
    const first = await insertJob(db(), { type: "completion" });
    const last = await insertJob(db(), { type: "completion" });
    const messages = [first, poisoned, last].map((job) => ({
      id: `m${job.id}`,
      timestamp: new Date(),
      attempts: 1,
      body: { type: "completion", jobId: job.id },
    }));
    const batch = createMessageBatch("media-catalogue-jobs", messages);
    const ctx = createExecutionContext();
    await queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryBatch.retry).toBe(false);
    expect(result.explicitAcks.sort()).toEqual([`m${first.id}`, `m${last.id}`].sort());
    expect(result.retryMessages).toEqual([{ msgId: `m${poisoned.id}` }]);
    expect(await findJob(db(), first.id)).toMatchObject({ status: "succeeded" });
    expect(await findJob(db(), last.id)).toMatchObject({ status: "succeeded" });
    expect(await findJob(db(), poisoned.id)).toMatchObject({ status: "running", error: "[object Object]" });
  });

  it("runs the messages of a batch side by side, at most BATCH_CONCURRENCY at once, each settled on its own", async () => {
    // Each handler waits until as many as may run are running (or a while, for the last ones): run one after another,
    // no two would ever be seen running together.
    let running = 0;
    let most = 0;
    const waiters: Array<() => void> = [];
    handlers["completion"] = async () => {
      most = Math.max(most, ++running);
      if (running >= BATCH_CONCURRENCY) waiters.splice(0).forEach((wake) => wake());
      else await new Promise<void>((wake) => (waiters.push(wake), setTimeout(wake, 200)));
      running--;
      return { done: true };
    };
    const made = [];
    for (let i = 0; i < BATCH_CONCURRENCY + 2; i++) made.push(await insertJob(db(), { type: "completion" }));
    const batch = createMessageBatch(
      "media-catalogue-jobs",
      made.map((job) => ({ id: `m${job.id}`, timestamp: new Date(), attempts: 1, body: { type: "completion", jobId: job.id } })),
    );
    const ctx = createExecutionContext();
    await queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(most).toBe(BATCH_CONCURRENCY);
    expect(result.explicitAcks.sort()).toEqual(made.map((job) => `m${job.id}`).sort());
    for (const job of made) expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded" });
  });

  it("a message whose own settling throws is retried, and the batch goes on", async () => {
    const job = await insertJob(db(), { type: "completion" });
    const after = await insertJob(db(), { type: "completion" });
    handlers["completion"] = async () => ({ done: true });
    // The dead-letter consumer's D1 write fails for the first message only.
    let calls = 0;
    const flaky = {
      ...env,
      DB: new Proxy(env.DB, {
        get(target, key) {
          if (key !== "withSession") return Reflect.get(target, key);
          return (...args: unknown[]) => {
            const session = target.withSession(...(args as [string]));
            return new Proxy(session, {
              get(s, k) {
                const value = Reflect.get(s, k);
                if (k === "prepare" && calls++ === 0)
                  return () => {
                    throw new Error("D1 is unavailable");
                  };
                return typeof value === "function" ? value.bind(s) : value;
              },
            });
          };
        },
      }),
    } as Env;
    const batch = createMessageBatch(env.JOBS_DEAD_LETTER_QUEUE, [
      { id: "dl1", timestamp: new Date(), attempts: 1, body: { type: "completion", jobId: job.id } },
      { id: "dl2", timestamp: new Date(), attempts: 1, body: { type: "completion", jobId: after.id } },
    ]);
    const ctx = createExecutionContext();
    await queue(batch, flaky);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages).toEqual([{ msgId: "dl1" }]);
    expect(result.explicitAcks).toEqual(["dl2"]);
    expect(await findJob(db(), after.id)).toMatchObject({ status: "failed" });
  });

  it("the dead-letter consumer marks the job failed with the reason", async () => {
    const job = await insertJob(db(), { type: "list-edit" });
    await db().update(jobs).set({ status: "running", error: "boom", attempts: 6 }).where(eq(jobs.id, job.id));
    const result = await deliver(env.JOBS_DEAD_LETTER_QUEUE, { type: "list-edit", jobId: job.id });
    expect(result.explicitAcks).toHaveLength(1);
    const failed = await findJob(db(), job.id);
    expect(failed?.status).toBe("failed");
    expect(failed?.error).toBe("failed after 6 attempts: boom");
  });

  it("the dead-letter consumer leaves alone a job that a delivery holds under a live lease (that delivery ends it)", async () => {
    const job = await insertJob(db(), { type: "list-edit" });
    await db()
      .update(jobs)
      .set({ status: "running", held: true, error: "boom", attempts: 6, leaseUntil: sql`(unixepoch() + 120)` })
      .where(eq(jobs.id, job.id));
    const result = await deliver(env.JOBS_DEAD_LETTER_QUEUE, { type: "list-edit", jobId: job.id });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", held: true });
    await db()
      .update(jobs)
      .set({ leaseUntil: sql`(unixepoch() - 1)` })
      .where(eq(jobs.id, job.id));
    await deliver(env.JOBS_DEAD_LETTER_QUEUE, { type: "list-edit", jobId: job.id });
    expect(await findJob(db(), job.id)).toMatchObject({ status: "failed", error: "failed after 6 attempts: boom" });
  });

  it("acks malformed messages instead of retrying them forever", async () => {
    const result = await deliver("media-catalogue-jobs", { type: "nonsense" });
    expect(result.explicitAcks).toHaveLength(1);
  });
});
