import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queue } from "../../queues";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { changesAfter, setMoveState, startMoveLog } from "../../src/db/queries/shard-moves";
import { SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { shardCleanups, shardDirectory, shards } from "../../src/db/schema";
import { timedComments } from "../../src/db/shard-schema";
import { containerMove, MOVE_CHUNK_ROWS } from "../../src/jobs/container-move";
import { enqueue } from "../../src/jobs/enqueue";
import { drainShardCleanups } from "../../src/services/shard-cleanups";
import { api, db, errorBody, type User } from "../helpers";
import { waitForJob } from "../helpers/jobs";
import { authorAndStaff, commentedContainer as commentedContainerOf, markMoving, otherShard, shardDb, shardOf } from "../helpers/shards";

let author: User;
let staff: User;

beforeAll(async () => {
  ({ author, staff } = await authorAndStaff());
});

const commentsPath = (videoId: number) => `/v4/videos/${videoId}v/timed_comments/en.json`;

/** A container with `perVideo` comments on each of its `videos` videos, written straight into its shard. */
const commentedContainer = (videos: number, perVideo: number) => commentedContainerOf(author, { videos, perVideo });

/** Rows written as they are, ten per statement (D1 binds at most 100 values). */
async function copyRows(n: number, rows: Awaited<ReturnType<typeof rowsOf>>) {
  for (let i = 0; i < rows.length; i += 10)
    await shardDb(n)
      .insert(timedComments)
      .values(rows.slice(i, i + 10));
}

const rowsOf = (n: number, containerId: number) =>
  shardDb(n).select().from(timedComments).where(eq(timedComments.containerId, containerId)).orderBy(timedComments.id).all();

/** A move of the container away from `shard`, queued as staff and run by the real consumer: the finished job. */
async function runMove(containerId: number, shard: number) {
  const job = await enqueue(
    { db: db(), env },
    containerMove,
    { containerId, from: shard, to: otherShard(shard) },
    { createdBy: staff.user.id },
  );
  return waitForJob(`${job.id}j`, staff.token);
}

/** A move under way from `shard`: marked in the directory, its source logging writes for the target. The source. */
async function startLoggedMove(containerId: number, shard: number) {
  await markMoving(containerId, otherShard(shard));
  const source = shardDb(shard);
  await startMoveLog(source, containerId);
  return source;
}

/** A move's end: every row on the target, none left on the source, and the directory pointing at the target. */
async function expectMoved(containerId: number, from: number, rows: unknown[]) {
  expect(await rowsOf(otherShard(from), containerId)).toEqual(rows);
  expect(await rowsOf(from, containerId)).toEqual([]);
  expect((await shardOf(containerId)).shard).toBe(otherShard(from));
}

async function deliver(jobId: number) {
  const batch = createMessageBatch("media-catalogue-jobs", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { type: "container-move", jobId } },
  ]);
  await queue(batch, env);
  await getQueueResult(batch, createExecutionContext());
  return findJob(db(), jobId);
}

const wholeCleanups = (containerId: number) =>
  db()
    .select({ shard: shardCleanups.shard, containerId: shardCleanups.containerId })
    .from(shardCleanups)
    .where(and(eq(shardCleanups.containerId, containerId), isNull(shardCleanups.videoId)))
    .all();

const placementOf = (containerId: number) => db().select().from(shardDirectory).where(eq(shardDirectory.containerId, containerId)).get();

/**
 * A container of one video's `perVideo` comments, copied to the other shard and switched there, its source not yet
 * emptied: where a move's job stands right after its switch (or where one that died there left it).
 */
async function switchedNotEmptied(perVideo: number) {
  const { container, shard } = await commentedContainer(1, perVideo);
  const rows = await rowsOf(shard, container.id);
  await copyRows(otherShard(shard), rows);
  await db()
    .update(shardDirectory)
    .set({ shard: otherShard(shard) })
    .where(eq(shardDirectory.containerId, container.id));
  return { container, shard, rows };
}

const moveJob = (containerId: number, from: number, to: number) =>
  insertJob(db(), { type: "container-move", params: { containerId, from, to } });

describe("container-move", () => {
  it("moves every row to the other shard, ids and answers unchanged, and empties the source", async () => {
    const { container, videos, shard } = await commentedContainer(3, 450);
    const before = await Promise.all(videos.map(async (v) => (await api(commentsPath(v.id))).json()));
    const sourceRows = await rowsOf(shard, container.id);
    expect(sourceRows).toHaveLength(1350);
    const counts = async () => (await db().select().from(shards).orderBy(shards.id).all()).map((s) => s.containers);
    const countsBefore = await counts();

    const done = await runMove(container.id, shard);
    expect(done.status).toBe("succeeded");
    expect(done.result).toMatchObject({
      container_id: container.wireId,
      from: shard,
      to: otherShard(shard),
      rows: { timed_comments: 1350 },
    });

    await expectMoved(container.id, shard, sourceRows);
    const countsAfter = await counts();
    expect(countsAfter[shard - 1] - countsBefore[shard - 1]).toBe(-1);
    expect(countsAfter[otherShard(shard) - 1] - countsBefore[otherShard(shard) - 1]).toBe(1);
    // The edge cache is keyed by URL, not shard: ask past it with a token-bearing read, as fresh as D1.
    const after = await Promise.all(videos.map(async (v) => (await api(`${commentsPath(v.id)}?token=${author.token}`)).json()));
    expect(after).toEqual(before);
    // New comments go to the new shard, with ids from its range.
    const res = await api(commentsPath(videos[0].id), { method: "POST", token: author.token, json: { time: 5, comment: "after" } });
    expect(res.status).toBe(201);
    expect(Math.floor(Number(((await res.json()) as { id: string }).id.replace("tc", "")) / SHARD_ID_RANGE)).toBe(otherShard(shard));
  });

  it("continues across deliveries when the move takes more statements than one may make, and loses nothing", async () => {
    const { container, shard } = await commentedContainer(3, 450);
    const sourceRows = await rowsOf(shard, container.id);
    // 12 statements a delivery: the copy (3 chunks of comments, and every other table) and the deletes take several.
    const job = await enqueue(
      { db: db(), env },
      containerMove,
      { containerId: container.id, from: shard, to: otherShard(shard), statementsPerDelivery: 12 },
      { createdBy: staff.user.id },
    );
    const done = await waitForJob(`${job.id}j`, staff.token);
    expect(done.status, done.error ?? "").toBe("succeeded");
    expect(done.result).toMatchObject({ rows: { timed_comments: 1350 } });
    // The cost is the whole move's, summed over its deliveries.
    expect((done.result as { statements: number }).statements).toBeGreaterThan(24);
    await expectMoved(container.id, shard, sourceRows);
  });

  it("takes writes while the container's copy runs, logging them for the target, and refuses them under the fence (503, Retry-After)", async () => {
    const { container, videos, shard } = await commentedContainer(1, 3);
    const source = await startLoggedMove(container.id, shard);
    const accepted = await api(commentsPath(videos[0].id), { method: "POST", token: author.token, json: { time: 1, comment: "during" } });
    expect(accepted.status).toBe(201);
    const id = Number(((await accepted.json()) as { id: string }).id.replace("tc", ""));
    expect(await changesAfter(source, container.id, 0, 10)).toEqual([
      expect.objectContaining({ tableName: "timed_comments", rowKey: JSON.stringify([id]) }),
    ]);

    await setMoveState(source, container.id, "fenced");
    const write = await api(commentsPath(videos[0].id), { method: "POST", token: author.token, json: { time: 2, comment: "wait" } });
    expect(write.status).toBe(503);
    expect(write.headers.get("retry-after")).toBe("5");
    expect((await errorBody(write)).error).toMatch(/moving/);
    const [first] = await rowsOf(shard, container.id);
    const remove = await api(`/v4/videos/${videos[0].id}v/timed_comments/${first.id}tc.json`, { method: "DELETE", token: author.token });
    expect(remove.status).toBe(503);
    const read = await api(`${commentsPath(videos[0].id)}?token=${author.token}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toHaveLength(4);
    // Nothing refused was written or logged.
    expect(await rowsOf(shard, container.id)).toHaveLength(4);
    expect(await changesAfter(source, container.id, 0, 10)).toHaveLength(1);
  });

  it("resumes after a crash before the switch: copies again over a partial copy, no duplicates", async () => {
    const { container, shard } = await commentedContainer(2, MOVE_CHUNK_ROWS + 20);
    const rows = await rowsOf(shard, container.id);
    // As a first run left it: marked, and part of the rows copied.
    await markMoving(container.id, otherShard(shard));
    await copyRows(otherShard(shard), rows.slice(0, 300));
    const job = await deliver((await moveJob(container.id, shard, otherShard(shard))).id);
    expect(job).toMatchObject({ status: "succeeded" });
    await expectMoved(container.id, shard, rows);
  });

  it("resumes after a delivery died under the fence: the fence goes down, the move finishes, and the source keeps nothing", async () => {
    const { container, videos, shard } = await commentedContainer(1, 30);
    // As a delivery left it that died between raising the fence and the switch, with its copy done.
    const source = await startLoggedMove(container.id, shard);
    await setMoveState(source, container.id, "fenced");
    const refused = await api(commentsPath(videos[0].id), { method: "POST", token: author.token, json: { time: 1, comment: "stuck?" } });
    expect(refused.status).toBe(503);
    const job = await deliver((await moveJob(container.id, shard, otherShard(shard))).id);
    expect(job).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(otherShard(shard), container.id)).toHaveLength(30);
    expect(await rowsOf(shard, container.id)).toEqual([]);
    expect(await changesAfter(source, container.id, 0, 10)).toEqual([]);
    const after = await api(commentsPath(videos[0].id), { method: "POST", token: author.token, json: { time: 2, comment: "moved" } });
    expect(after.status).toBe(201);
  });

  it("resumes after a crash after the switch: only deletes the source rows, and never while the directory names that shard", async () => {
    const { container, shard, rows } = await switchedNotEmptied(40);
    expect(await deliver((await moveJob(container.id, shard, otherShard(shard))).id)).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(shard, container.id)).toEqual([]);
    expect(await rowsOf(otherShard(shard), container.id)).toEqual(rows);

    // A stale job naming the shard the container is on again (moved back since): a permanent failure, nothing deleted.
    const back = await deliver((await moveJob(container.id, otherShard(shard), shard)).id);
    expect(back).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(shard, container.id)).toEqual(rows);
    const stale = await deliver((await moveJob(container.id, otherShard(shard), shard)).id);
    expect(stale).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(shard, container.id)).toEqual(rows);
    const wrong = await deliver((await moveJob(container.id, otherShard(shard) + 5, shard)).id);
    expect(wrong?.status).toBe("failed");
    expect(await rowsOf(shard, container.id)).toEqual(rows);
  });

  it("the switch leaves the source's rows a pending cleanup there, which the job ends once it has emptied the source", async () => {
    const { container, shard } = await switchedNotEmptied(30);
    expect(await wholeCleanups(container.id)).toEqual([{ shard, containerId: container.id }]);
    expect(await deliver((await moveJob(container.id, shard, otherShard(shard))).id)).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(shard, container.id)).toEqual([]);
    expect(await wholeCleanups(container.id)).toEqual([]);
  });

  it("does not start a move back to a shard the container is still draining from, and moves it once that shard is empty", async () => {
    const { container, shard, rows } = await switchedNotEmptied(30);
    // The source still holds every row (the move job that switched died before deleting them).
    const back = await deliver((await moveJob(container.id, otherShard(shard), shard)).id);
    expect(back?.status).toBe("failed");
    expect(back?.error).toContain(`is still being deleted from shard ${shard}`);
    expect(await placementOf(container.id)).toMatchObject({ shard: otherShard(shard), movingTo: null });
    expect(await rowsOf(otherShard(shard), container.id)).toEqual(rows);
    // The sweeper's drain empties the source and ends the cleanup; then the move back runs.
    await drainShardCleanups({ db: db(), env });
    expect(await rowsOf(shard, container.id)).toEqual([]);
    expect(await deliver((await moveJob(container.id, otherShard(shard), shard)).id)).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(shard, container.id)).toEqual(rows);
    expect(await rowsOf(otherShard(shard), container.id)).toEqual([]);
    expect(await wholeCleanups(container.id)).toEqual([]);
  });

  it("loses nothing written or read while the container moves", async () => {
    const { container, videos, shard } = await commentedContainer(2, 600);
    const accepted: string[] = [];
    let refused = 0;
    let reading = true;
    const reads: number[] = [];
    const reader = (async () => {
      while (reading) {
        const res = await api(`${commentsPath(videos[1].id)}?token=${author.token}`);
        expect(res.status).toBe(200);
        reads.push(((await res.json()) as unknown[]).length);
      }
    })();
    const writer = (async () => {
      for (let i = 0; reading; i++) {
        const res = await api(commentsPath(videos[0].id), { method: "POST", token: author.token, json: { time: i, comment: `w${i}` } });
        if (res.status === 201) accepted.push(((await res.json()) as { id: string }).id);
        else {
          expect(res.status).toBe(503);
          refused++;
        }
      }
    })();
    // Some writes land before the move starts.
    await expect.poll(() => accepted.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    const done = await runMove(container.id, shard);
    // A little longer: writes land on the new shard.
    await new Promise((r) => setTimeout(r, 100));
    reading = false;
    await Promise.all([reader, writer]);
    expect(done.status).toBe("succeeded");
    expect(accepted.length).toBeGreaterThan(0);
    expect(reads.every((n) => n === 600)).toBe(true);
    const moved = await rowsOf(otherShard(shard), container.id);
    const ids = new Set(moved.map((r) => `${r.id}tc`));
    for (const id of accepted) expect(ids.has(id), id).toBe(true);
    expect(moved).toHaveLength(1200 + accepted.length);
    expect(await rowsOf(shard, container.id)).toEqual([]);
    // Writes landed before the move (ids of the source's range, copied over) and after it (the target's range); any
    // refused between were told to retry (how many depends on timing).
    const ranges = new Set(accepted.map((id) => Math.floor(Number(id.replace("tc", "")) / SHARD_ID_RANGE)));
    expect([...ranges].sort()).toEqual([1, 2]);
    expect(refused).toBeGreaterThanOrEqual(0);
  });

  it("removes what is left of a container deleted during its move from both shards", async () => {
    const { container, shard } = await commentedContainer(1, 30);
    const rows = await rowsOf(shard, container.id);
    // A copy under way when the container went: the catalogue row gone (its cleanup already drained), part of the
    // rows on the target after it.
    await markMoving(container.id, otherShard(shard));
    await copyRows(otherShard(shard), rows.slice(0, 10));
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(container.id).run();
    await env.DB.prepare("DELETE FROM shard_cleanups WHERE container_id = ?").bind(container.id).run();
    const job = await deliver((await moveJob(container.id, shard, otherShard(shard))).id);
    expect(job).toMatchObject({ status: "succeeded" });
    expect(await rowsOf(shard, container.id)).toEqual([]);
    expect(await rowsOf(otherShard(shard), container.id)).toEqual([]);
  });
});
