import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { shardCleanups, shards } from "../../src/db/schema";
import { timedComments } from "../../src/db/shard-schema";
import { CLEANUPS_PER_DRAIN, drainShardCleanups } from "../../src/services/shard-cleanups";
import { FACT_CHANGES_PER_ROUND, syncShardFacts } from "../../src/services/shard-facts";
import { db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { addTimedComment, shardDbs, shardOf } from "../helpers/shards";

/**
 * The catalogue's outboxes to the shards, drained per shard (docs/decisions.md, "Shards"): a shard that fails is
 * skipped for the rest of the drain, its error logged with its number and kept on its row in `shards` (migration
 * 0038), and the other shards' rows still drain, even behind more of the failed shard's rows than one read takes.
 */

let author: number;
beforeAll(async () => {
  author = (await signedInUser()).user.id;
});

/** A shard binding that refuses every statement, as a shard in an outage would. */
const down = (n: number) =>
  ({
    prepare: () => {
      throw new Error(`D1_ERROR: shard ${n} unavailable`);
    },
  }) as unknown as D1Database;
const withShardDown = (n: number) => ({ db: db(), env: { ...env, [`SHARD_${n}`]: down(n) } as Env });

/** A container on each shard (placement alternates between the two test shards), each with a video. */
async function containerOnEachShard() {
  const placed = new Map<number, { containerId: number; videoId: number }>();
  while (placed.size < 2) {
    const c = await createContainer();
    const { shard } = await shardOf(c.id);
    if (!placed.has(shard)) placed.set(shard, { containerId: c.id, videoId: (await createVideo(c.id)).id });
  }
  return [placed.get(1)!, placed.get(2)!] as const;
}

const outboxRow = (n: number) =>
  db().select({ error: shards.outboxError, at: shards.outboxErrorAt }).from(shards).where(eq(shards.id, n)).get();

/** The `shard-outbox` lines logged while `work` runs. */
async function outboxLines(work: () => Promise<unknown>) {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    await work();
    return warn.mock.calls.map((c) => JSON.parse(String(c[0]))).filter((line) => line.event === "shard-outbox");
  } finally {
    warn.mockRestore();
  }
}

describe("the shard_cleanups outbox with a shard down", () => {
  it("drains the other shard, leaves the failed one's rows, and records its error", async () => {
    const [one, two] = await containerOnEachShard();
    for (const { videoId } of [one, two]) await addTimedComment({ videoId, language: "en", userId: author, timeMs: 1, comment: "x" });
    // Shard 1's cleanup first in the outbox: before, its failure ended the drain with shard 2's row unread.
    for (const { containerId } of [one, two]) await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(containerId).run();
    const before = Math.floor(Date.now() / 1000);
    let drained;
    const lines = await outboxLines(async () => (drained = await drainShardCleanups(withShardDown(1))));
    expect(drained).toEqual({ done: 1, rows: 1, left: false, failed: [1] });
    expect(lines).toEqual([
      expect.objectContaining({ event: "shard-outbox", outbox: "shard_cleanups", shard: 1, error: "Error: D1_ERROR: shard 1 unavailable" }),
    ]);
    const comments = (n: number, containerId: number) =>
      shardDbs()[n - 1].select().from(timedComments).where(eq(timedComments.containerId, containerId)).all();
    expect(await comments(2, two.containerId)).toEqual([]);
    expect(await comments(1, one.containerId)).toHaveLength(1);
    expect(await db().select({ shard: shardCleanups.shard }).from(shardCleanups).all()).toEqual([{ shard: 1 }]);
    const recorded = await outboxRow(1);
    expect(recorded?.error).toBe("Error: D1_ERROR: shard 1 unavailable");
    expect(recorded?.at).toBeGreaterThanOrEqual(before);
    expect(await outboxRow(2)).toEqual({ error: null, at: null });

    // Shard 1 answers again: the next drain takes its row.
    expect(await drainShardCleanups({ db: db(), env })).toEqual({ done: 1, rows: 1, left: false, failed: [] });
    expect(await comments(1, one.containerId)).toEqual([]);
    expect(await db().select().from(shardCleanups).all()).toEqual([]);
  });

  it("reads past more of the failed shard's rows than one read takes", async () => {
    const [, two] = await containerOnEachShard();
    await addTimedComment({ videoId: two.videoId, language: "en", userId: author, timeMs: 1, comment: "x" });
    // A read's worth and more of shard 1's cleanups (containers long gone) ahead of shard 2's.
    const ahead = CLEANUPS_PER_DRAIN + 5;
    await env.DB.prepare(
      "INSERT INTO shard_cleanups (shard, container_id) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT 1, 900000000 + i FROM n",
    )
      .bind(ahead)
      .run();
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(two.containerId).run();
    let drained;
    const lines = await outboxLines(async () => (drained = await drainShardCleanups(withShardDown(1))));
    expect(drained).toEqual({ done: 1, rows: 1, left: false, failed: [1] });
    // One attempt on the failed shard per drain, not one per row.
    expect(lines).toHaveLength(1);
    const left = await db().select({ shard: shardCleanups.shard }).from(shardCleanups).all();
    expect(left).toHaveLength(ahead);
    expect(left.every((r) => r.shard === 1)).toBe(true);
    await env.DB.prepare("DELETE FROM shard_cleanups").run();
  });
});

describe("the shard_fact_changes outbox with a shard down", () => {
  const number = (n: number, videoId: number) =>
    env[`SHARD_${n}` as "SHARD_1"].prepare("SELECT number FROM video_facts WHERE video_id = ?").bind(videoId).first<{ number: number }>();
  const pending = async () =>
    (await env.DB.prepare("SELECT container_id FROM shard_fact_changes ORDER BY id").all<{ container_id: number }>()).results.map(
      (r) => r.container_id,
    );

  it("carries the other shard's changes, keeps the failed one's, and records its error", async () => {
    const [one, two] = await containerOnEachShard();
    for (const { videoId } of [one, two]) await env.DB.prepare("UPDATE videos SET number = 7 WHERE id = ?").bind(videoId).run();
    let synced;
    const lines = await outboxLines(async () => (synced = await syncShardFacts(withShardDown(1))));
    expect(synced).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({ outbox: "shard_fact_changes", shard: 1, error: "Error: D1_ERROR: shard 1 unavailable" }),
    ]);
    expect(await number(2, two.videoId)).toEqual({ number: 7 });
    expect(await number(1, one.videoId)).toBeNull();
    expect(await pending()).toEqual([one.containerId]);
    expect((await outboxRow(1))?.error).toBe("Error: D1_ERROR: shard 1 unavailable");

    expect(await syncShardFacts({ db: db(), env })).toBe(1);
    expect(await number(1, one.videoId)).toEqual({ number: 7 });
    expect(await pending()).toEqual([]);
  });

  it("reads past more of the failed shard's changes than one round takes", async () => {
    const [one, two] = await containerOnEachShard();
    const ahead = FACT_CHANGES_PER_ROUND + 10;
    await env.DB.prepare(
      "INSERT INTO shard_fact_changes (container_id, video_id) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT ?, ? FROM n",
    )
      .bind(ahead, one.containerId, one.videoId)
      .run();
    await env.DB.prepare("UPDATE videos SET number = 9 WHERE id = ?").bind(two.videoId).run();
    let synced;
    const lines = await outboxLines(async () => (synced = await syncShardFacts(withShardDown(1), 2)));
    expect(synced).toBe(1);
    expect(lines).toHaveLength(1);
    expect(await number(2, two.videoId)).toEqual({ number: 9 });
    expect(await pending()).toEqual(Array.from({ length: ahead }, () => one.containerId));

    // Every change of a container is deleted once carried, not only the newest of them.
    expect(await syncShardFacts({ db: db(), env }, 2)).toBe(2);
    expect(await pending()).toEqual([]);
  });
});
