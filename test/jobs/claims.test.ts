import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { handlers, queue } from "../../queues";
import {
  continueJob,
  failJob,
  findJob,
  finishJob,
  insertJob,
  markJobRunning,
  mergeJobParams,
  noteJobError,
  setJobProgress,
} from "../../src/db/queries/jobs";
import { switchMove } from "../../src/db/queries/shards";
import { jobs, shardDirectory } from "../../src/db/schema";
import { timedComments } from "../../src/db/shard-schema";
import { LEASE_SECONDS } from "../../src/jobs/deadlines";
import { containerMove } from "../../src/jobs/container-move";
import { consumerOf, LostClaim } from "../../src/jobs/define";
import { db, signedInUser } from "../helpers";
import { commentedContainer as commentedContainerOf, markMoving, otherShard, shardDb, shardOf } from "../helpers/shards";

/**
 * Exclusive claims (docs/decisions.md, "Exclusive claims"): a delivery runs a job only if it claims it (queued, handed
 * back, or its holder's lease ran out), each claim bumps the job's epoch, and every later write of a delivery (its
 * progress, checkpoint, outcome, a move's switch, a copy's mark) is conditional on the epoch it claimed.
 */

type User = Awaited<ReturnType<typeof signedInUser>>;
let author: User;

beforeAll(async () => {
  author = await signedInUser();
});

const realCompletion = handlers["completion"];
afterEach(() => {
  handlers["completion"] = realCompletion;
});

const rowsOf = (n: number, containerId: number) =>
  shardDb(n).select().from(timedComments).where(eq(timedComments.containerId, containerId)).orderBy(timedComments.id).all();

/** A container with `perVideo` timed comments on each of two videos, written straight into its shard. */
const commentedContainer = (perVideo: number) => commentedContainerOf(author, { perVideo, idBase: 2_000_000 });

/** One delivery of a job's message, as the queue makes it; what the consumer did with the message. */
async function deliver(type: string, jobId: number) {
  const batch = createMessageBatch("media-catalogue-jobs", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { type, jobId } },
  ]);
  await queue(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

const setJob = (id: number, values: Partial<typeof jobs.$inferInsert>) => db().update(jobs).set(values).where(eq(jobs.id, id));

describe("exclusive claims", () => {
  it("two deliveries of one move at once leave exactly one live copy: every row on the target, the source emptied once", async () => {
    const { container, shard } = await commentedContainer(700);
    const sourceRows = await rowsOf(shard, container.id);
    expect(sourceRows).toHaveLength(1400);
    // Both at once: the second arrives while the first is in its move, as a duplicate does.
    const job = await insertJob(db(), {
      type: "container-move",
      params: { containerId: container.id, from: shard, to: otherShard(shard) },
    });
    const [a, b] = await Promise.all([deliver("container-move", job.id), deliver("container-move", job.id)]);
    // Both messages are settled for good: one ran the move, the other found it held and left it to the holder.
    expect([...a.explicitAcks, ...b.explicitAcks]).toHaveLength(2);
    expect([...a.retryMessages, ...b.retryMessages]).toEqual([]);
    const done = (await findJob(db(), job.id))!;
    expect(done, done.error ?? "").toMatchObject({
      status: "succeeded",
      attempts: 1,
      epoch: 1,
      result: { rows: { timed_comments: 1400 } },
    });
    expect((await shardOf(container.id)).shard).toBe(otherShard(shard));
    expect(await rowsOf(otherShard(shard), container.id)).toEqual(sourceRows);
    expect(await rowsOf(shard, container.id)).toEqual([]);
  });

  it("a delivery while another holds a live lease does not run; one after the lease ran out does, and the old holder's writes are refused", async () => {
    const { container, shard } = await commentedContainer(20);
    const sourceRows = await rowsOf(shard, container.id);
    const job = await insertJob(db(), {
      type: "container-move",
      params: { containerId: container.id, from: shard, to: otherShard(shard) },
    });
    // A first delivery claimed it and is (as far as anyone can tell) still working: its lease is live.
    const first = (await markJobRunning(db(), job.id, LEASE_SECONDS))!;
    expect(first).toMatchObject({ epoch: 1, held: true, status: "running" });
    const held = await deliver("container-move", job.id);
    expect(held.explicitAcks).toHaveLength(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", epoch: 1, attempts: 1 });
    expect(await shardOf(container.id)).toMatchObject({ shard });
    expect(await rowsOf(otherShard(shard), container.id)).toEqual([]);

    // Its lease ran out: the next delivery claims the job (epoch 2) and moves the container.
    await setJob(job.id, { leaseUntil: new Date(Date.now() - 1000) });
    await deliver("container-move", job.id);
    const done = (await findJob(db(), job.id))!;
    expect(done, done.error ?? "").toMatchObject({ status: "succeeded", epoch: 2, attempts: 2 });
    expect((await shardOf(container.id)).shard).toBe(otherShard(shard));
    expect(await rowsOf(otherShard(shard), container.id)).toEqual(sourceRows);

    // The first delivery wakes up: nothing it writes lands, not even a switch back were it moving the other way.
    await db().update(shardDirectory).set({ movingTo: shard }).where(eq(shardDirectory.containerId, container.id));
    expect(await switchMove(db(), container.id, shard, first)).toBeUndefined();
    await db().update(shardDirectory).set({ movingTo: null }).where(eq(shardDirectory.containerId, container.id));
    expect(await setJobProgress(db(), first, 10, LEASE_SECONDS)).toBe(false);
    expect(await mergeJobParams(db(), first, { cursor: null })).toBe(false);
    expect(await continueJob(db(), first, { cursor: null }, LEASE_SECONDS)).toBe(false);
    expect(await noteJobError(db(), first, "late", LEASE_SECONDS)).toBe(false);
    expect(await failJob(db(), job.id, "late", { claim: first })).toBe(false);
    expect(await finishJob(db(), first, { late: true })).toBe(false);
    expect(await findJob(db(), job.id)).toEqual(done);
    expect((await shardOf(container.id)).shard).toBe(otherShard(shard));
  });

  it("a delivery that lost its claim mid-run stops at its next write without writing, and its message is acked", async () => {
    const job = await insertJob(db(), { type: "completion" });
    let after = "";
    handlers["completion"] = async ({ progress }) => {
      // Meanwhile its lease ran out and another delivery claimed the job.
      await setJob(job.id, { leaseUntil: new Date(Date.now() - 1000) });
      expect(await markJobRunning(db(), job.id, LEASE_SECONDS)).toMatchObject({ epoch: 2 });
      await progress(50);
      after = "ran on";
      return { done: true };
    };
    const result = await deliver("completion", job.id);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(after).toBe("");
    // The job is the second delivery's: running, held, its progress untouched by the first.
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", held: true, epoch: 2, progress: 0, result: null });
  });

  it("a retry hands the job back: the queue's retry claims it though the lease still covers the delay", async () => {
    const job = await insertJob(db(), { type: "completion" });
    let runs = 0;
    handlers["completion"] = async () => {
      if (++runs === 1) throw new Error("D1 is busy");
      return { done: true };
    };
    expect((await deliver("completion", job.id)).retryMessages).toHaveLength(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", held: false, error: "D1 is busy" });
    expect((await findJob(db(), job.id))!.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    await deliver("completion", job.id);
    expect(runs).toBe(2);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "succeeded", epoch: 2, result: { done: true } });
  });

  it("a move that lost its claim stops before its next delete chunk: the holder's copy on the target stays", async () => {
    const { container, shard } = await commentedContainer(30);
    const sourceRows = await rowsOf(shard, container.id);
    const job = await insertJob(db(), {
      type: "container-move",
      params: { containerId: container.id, from: shard, to: otherShard(shard) },
    });
    const stale = (await markJobRunning(db(), job.id, LEASE_SECONDS))!;
    // Its lease ran out; a second delivery claimed the job, marked the move and copied part of the rows.
    await setJob(job.id, { leaseUntil: new Date(Date.now() - 1000) });
    expect(await markJobRunning(db(), job.id, LEASE_SECONDS)).toMatchObject({ epoch: 2 });
    await markMoving(container.id, otherShard(shard));
    await shardDb(otherShard(shard)).insert(timedComments).values(sourceRows.slice(0, 10));
    // The first delivery goes on where it was, about to clear the target: its renewal before the chunk finds the
    // claim gone (the runner's renew, unthrottled here).
    const check = async () => {
      if (!(await setJobProgress(db(), stale, null, LEASE_SECONDS))) throw new LostClaim(stale.id);
    };
    const run = consumerOf(containerMove)({ db: db(), env, job: stale, progress: check, renew: check });
    await expect(run).rejects.toBeInstanceOf(LostClaim);
    expect(await rowsOf(otherShard(shard), container.id)).toEqual(sourceRows.slice(0, 10));
    expect(await rowsOf(shard, container.id)).toEqual(sourceRows);
    expect(await shardOf(container.id)).toMatchObject({ shard });
  });
});
