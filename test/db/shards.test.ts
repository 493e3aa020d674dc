import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { shardCleanups, shardDirectory, shards } from "../../src/db/schema";
import { timedComments } from "../../src/db/shard-schema";
import { sweepJobs } from "../../src/jobs/sweeper";
import { api, db, type User } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { addTimedComment, authorAndStaff, shardDbs, shardOf } from "../helpers/shards";

let author: User;
let staff: User;

beforeAll(async () => {
  ({ author, staff } = await authorAndStaff());
});

const comment = async (videoWireId: string, text: string, token = author.token) => {
  const res = await api(`/v4/videos/${videoWireId}/timed_comments/en.json`, { method: "POST", token, json: { time: 10, comment: text } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
};

describe('shard placement (docs/decisions.md, "Shards")', () => {
  it("puts each new container on the accepting shard holding the fewest, so they alternate", async () => {
    const before = await db().select().from(shards).orderBy(shards.id).all();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createContainer());
    const placed = await db()
      .select()
      .from(shardDirectory)
      .where(
        inArray(
          shardDirectory.containerId,
          made.map((c) => c.id),
        ),
      )
      .all();
    const counts = (rows: typeof before) => rows.map((r) => r.containers);
    expect(placed.map((p) => p.shard).sort()).toEqual([1, 1, 2, 2]);
    const after = await db().select().from(shards).orderBy(shards.id).all();
    expect(counts(after).map((n, i) => n - counts(before)[i])).toEqual([2, 2]);
  });

  it("sends none to a shard that stopped accepting, and the counts follow deletes", async () => {
    await db().update(shards).set({ accepting: false }).where(eq(shards.id, 1));
    try {
      const made = [await createContainer(), await createContainer(), await createContainer()];
      for (const c of made) expect((await shardOf(c.id)).shard).toBe(2);
      const before = (await db().select().from(shards).where(eq(shards.id, 2)).get())!.containers;
      expect((await api(`/v4/containers/${made[0].wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
      expect((await db().select().from(shards).where(eq(shards.id, 2)).get())!.containers).toBe(before - 1);
    } finally {
      await db().update(shards).set({ accepting: true }).where(eq(shards.id, 1));
    }
  });
});

describe("shard ids", () => {
  it("come from each shard's own range, so they never collide across shards", async () => {
    const [a, b] = [await createContainer(), await createContainer()];
    const [va, vb] = [await createVideo(a.id), await createVideo(b.id)];
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await comment(`${va.id}v`, `a${i}`)).id, (await comment(`${vb.id}v`, `b${i}`)).id);
    const numbers = ids.map((id) => Number(id.replace(/tc$/, "")));
    expect(new Set(numbers).size).toBe(6);
    for (const [container, video] of [
      [a, va],
      [b, vb],
    ] as const) {
      const { shard, db: sdb } = await shardOf(container.id);
      const rows = await sdb.select().from(timedComments).where(eq(timedComments.videoId, video.id)).all();
      expect(rows).toHaveLength(3);
      for (const r of rows) expect(Math.floor(r.id / SHARD_ID_RANGE)).toBe(shard);
    }
  });
});

describe("the shard_cleanups outbox", () => {
  it("takes a deleted video's comments off its shard and leaves its siblings'", async () => {
    const c = await createContainer({ managers: [] });
    const [gone, kept] = [await createVideo(c.id), await createVideo(c.id)];
    await comment(`${gone.id}v`, "bye");
    await comment(`${kept.id}v`, "stay");
    expect((await api(`/v4/videos/${gone.id}v.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    const { db: sdb } = await shardOf(c.id);
    const left = await sdb.select({ videoId: timedComments.videoId }).from(timedComments).where(eq(timedComments.containerId, c.id)).all();
    expect(left).toEqual([{ videoId: kept.id }]);
    expect(await db().select().from(shardCleanups).all()).toEqual([]);
  });

  it("is drained by the sweeper when the deleting request did not get to it (a crash in between)", async () => {
    const c = await createContainer();
    const v = await createVideo(c.id);
    await addTimedComment({ videoId: v.id, language: "en", userId: author.user.id, timeMs: 1, comment: "orphan" });
    const { db: sdb } = await shardOf(c.id);
    // The catalogue delete alone, as a request that died before draining would leave it.
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(c.id).run();
    expect(await db().select().from(shardCleanups).all()).toMatchObject([{ containerId: c.id, videoId: null }]);
    expect(await sdb.select().from(timedComments).where(eq(timedComments.containerId, c.id)).all()).toHaveLength(1);
    const swept = await sweepJobs({ db: db(), env });
    expect(swept.shardCleanups).toEqual({ done: 1, rows: 1, left: false, failed: [] });
    expect(await sdb.select().from(timedComments).where(eq(timedComments.containerId, c.id)).all()).toEqual([]);
    expect(await db().select().from(shardCleanups).all()).toEqual([]);
  });

  it("holds nothing of other containers on either shard after a delete", async () => {
    const c = await createContainer();
    const other = await createContainer();
    const [v, w] = [await createVideo(c.id), await createVideo(other.id)];
    await comment(`${v.id}v`, "x");
    await comment(`${w.id}v`, "y");
    expect((await api(`/v4/containers/${c.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    const everywhere = (await Promise.all(shardDbs().map((s) => s.select().from(timedComments).all()))).flat();
    expect(everywhere.filter((r) => r.containerId === c.id)).toEqual([]);
    expect(everywhere.filter((r) => r.containerId === other.id)).toHaveLength(1);
  });
});

describe("x-d1-bookmark", () => {
  it("carries the bookmark of each shard a request used after the catalogue's, and takes it back", async () => {
    const c = await createContainer();
    const v = await createVideo(c.id);
    const res = await api(`/v4/videos/${v.id}v/timed_comments/en.json`, {
      method: "POST",
      token: author.token,
      json: { time: 1, comment: "b" },
    });
    const { shard } = await shardOf(c.id);
    const bookmark = res.headers.get("x-d1-bookmark")!;
    expect(bookmark).toMatch(new RegExp(`^[^;]+;${shard}:[^;]+$`));
    const read = await api(`/v4/videos/${v.id}v/timed_comments/en.json`, { token: author.token, headers: { "x-d1-bookmark": bookmark } });
    expect(read.status).toBe(200);
    expect(await read.json()).toHaveLength(1);
    // A read of the catalogue alone hands the shard's bookmark back, so the client's next comment read still sees its write.
    const other = await api(`/v4/containers/${c.id}c.json`, { token: author.token, headers: { "x-d1-bookmark": bookmark } });
    expect(other.headers.get("x-d1-bookmark")!.endsWith(`;${shard}:${bookmark.split(`;${shard}:`)[1]}`)).toBe(true);
  });

  it("answers a hostile bookmark without a 5xx, whatever its parts", async () => {
    const c = await createContainer();
    const v = await createVideo(c.id);
    for (const bookmark of ["garbage;1:garbage;2:%%%", ";;;", "x;999999:y", ";1:;2", "a".repeat(4000)]) {
      const read = await api(`/v4/videos/${v.id}v/timed_comments/en.json`, { token: author.token, headers: { "x-d1-bookmark": bookmark } });
      expect(read.status, bookmark).toBeLessThan(500);
      const write = await api(`/v4/videos/${v.id}v/timed_comments/en.json`, {
        method: "POST",
        token: author.token,
        json: { time: 1, comment: "b" },
        headers: { "x-d1-bookmark": bookmark },
      });
      expect(write.status, bookmark).toBeLessThan(500);
    }
  });
});
