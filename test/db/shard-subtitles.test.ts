import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { containerFactsStatement } from "../../src/db/queries/shard-facts";
import { runBatch } from "../../src/db/raw-batch";
import { createShardDb, shardBinding } from "../../src/db/shards";
import { videos } from "../../src/db/schema";
import { sweepJobs } from "../../src/jobs/sweeper";
import { updateVideo } from "../../src/services/catalogue-writes";
import { api, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { moveContainer, putShardSubtitles, shardOf } from "../helpers/shards";

/**
 * The subtitle family's side of a shard (docs/decisions.md, "Shards: the subtitle family"): the copy of the
 * catalogue's facts (container_facts, video_facts) that the shard_fact_changes outbox keeps current, the shard's
 * triggers that keep the translation flag and the counts from it, and the move job and the cleanup outbox over the
 * family's tables.
 */

type User = Awaited<ReturnType<typeof signedInUser>>;
let staff: User;
let manager: User;

beforeAll(async () => {
  [staff, manager] = await Promise.all([signedInUser({ staff: true }), signedInUser()]);
});

const binding = (n: number) => shardBinding(env, n);
const other = (n: number) => (n === 1 ? 2 : 1);
const all = async <T>(n: number, query: string, ...args: unknown[]) =>
  (
    await binding(n)
      .prepare(query)
      .bind(...args)
      .all<T>()
  ).results;
const one = async <T>(n: number, query: string, ...args: unknown[]) =>
  binding(n)
    .prepare(query)
    .bind(...args)
    .first<T>();

const putVideo = (id: number, json: unknown, token = manager.token) => api(`/v4/videos/${id}v.json`, { method: "PUT", token, json });
const putContainer = (id: number, json: unknown) => api(`/v4/containers/${id}c.json`, { method: "PUT", token: staff.token, json });

const languageCounts = (n: number, language: string) =>
  one<{ originals: number; translations: number }>(n, "SELECT originals, translations FROM language_counts WHERE language = ?", language);
const containerCounts = (n: number, containerId: number) =>
  all<{ language: string; originals: number; translations: number }>(
    n,
    "SELECT language, originals, translations FROM container_language_counts WHERE container_id = ? ORDER BY language",
    containerId,
  );
const flags = (n: number, videoId: number) =>
  all<{ language: string; t: number; n: number }>(
    n,
    "SELECT language, is_translation AS t, count(*) AS n FROM subtitles WHERE video_id = ? GROUP BY language, is_translation ORDER BY language",
    videoId,
  );

let base = 0;
/** A Korean series with one video (origin: the container's) and `cues` cues in ko and en on its shard. */
async function subtitledVideo(cues = 4) {
  const c = await createContainer({ originLanguage: "ko", managers: [manager.user.id] });
  const v = await createVideo(c.id, { number: 1 });
  base += 10_000;
  const { shard } = await putShardSubtitles({ id: v.id, containerId: c.id }, ["ko", "en"], cues, base);
  return { c, v, shard };
}

/** The change a delta makes to the shard's language_counts row (a missing row counts as zero). */
async function delta(n: number, language: string, change: () => Promise<unknown>) {
  const read = async () => (await languageCounts(n, language)) ?? { originals: 0, translations: 0 };
  const before = await read();
  await change();
  const after = await read();
  return { originals: after.originals - before.originals, translations: after.translations - before.translations };
}

describe("the shard's triggers over the subtitle family", () => {
  it("flag translations and count them per container and per language, from the facts, as the subtitles arrive", async () => {
    const { c, v, shard } = await subtitledVideo(4);
    expect(await flags(shard, v.id)).toEqual([
      { language: "en", t: 1, n: 4 },
      { language: "ko", t: 0, n: 4 },
    ]);
    expect(await containerCounts(shard, c.id)).toEqual([
      { language: "en", originals: 0, translations: 4 },
      { language: "ko", originals: 4, translations: 0 },
    ]);
  });

  it("derive contributions from history rows, with the author's name, and drop a row that falls to zero", async () => {
    const { c, v, shard } = await subtitledVideo(1);
    const history = (id: number, kind: string, count: number) =>
      binding(shard)
        .prepare(
          "INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, count) VALUES (?, ?, ?, ?, ?, ?, 'en', ?)",
        )
        .bind(id, kind, manager.user.id, manager.user.username, v.id, c.id, count)
        .run();
    const first = (await shardOf(c.id)).shard * 2 ** 32 + base + 9_000;
    await history(first, "segment", 3);
    await history(first + 1, "subtitle", 5);
    const row = () => one(shard, "SELECT username, segments, subtitles, total FROM contributions WHERE container_id = ?", c.id);
    expect(await row()).toEqual({ username: manager.user.username, segments: 3, subtitles: 5, total: 8 });
    await binding(shard).prepare("DELETE FROM subtitle_histories WHERE container_id = ?").bind(c.id).run();
    expect(await row()).toBeNull();
  });
});

describe("the shard_fact_changes outbox", () => {
  it("carries a video's origin, state and number to its shard: flags flip and the counts follow", async () => {
    const { c, v, shard } = await subtitledVideo(4);
    // Its own origin, English: en becomes the original, ko the translation.
    expect((await putVideo(v.id, { origin: { language: "en" }, number: 9 })).status).toBe(200);
    expect(await flags(shard, v.id)).toEqual([
      { language: "en", t: 0, n: 4 },
      { language: "ko", t: 1, n: 4 },
    ]);
    expect(await one(shard, "SELECT origin_language, number FROM video_facts WHERE video_id = ?", v.id)).toEqual({
      origin_language: "en",
      number: 9,
    });
    expect(await containerCounts(shard, c.id)).toEqual([
      { language: "en", originals: 4, translations: 0 },
      { language: "ko", originals: 0, translations: 4 },
    ]);
    // Pending: its subtitles leave every count; normal again: they return.
    expect(await delta(shard, "en", () => putVideo(v.id, { state: "pending" }))).toEqual({ originals: -4, translations: 0 });
    expect(await containerCounts(shard, c.id)).toEqual([
      { language: "en", originals: 0, translations: 0 },
      { language: "ko", originals: 0, translations: 0 },
    ]);
    expect(await delta(shard, "ko", () => putVideo(v.id, { state: "normal" }))).toEqual({ originals: 0, translations: 4 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes").first("n")).toBe(0);
  });

  it("carries a container's origin and state: its videos that inherit the origin flip, its counts leave and return", async () => {
    const { c, v, shard } = await subtitledVideo(2);
    expect((await putContainer(c.id, { origin: { language: "en" } })).status).toBe(200);
    expect(await flags(shard, v.id)).toEqual([
      { language: "en", t: 0, n: 2 },
      { language: "ko", t: 1, n: 2 },
    ]);
    // A hidden container keeps its own counts but leaves the shard's totals.
    expect(await delta(shard, "en", () => putContainer(c.id, { state: "pending" }))).toEqual({ originals: -2, translations: 0 });
    expect(await containerCounts(shard, c.id)).toEqual([
      { language: "en", originals: 2, translations: 0 },
      { language: "ko", originals: 0, translations: 2 },
    ]);
    expect(await delta(shard, "ko", () => putContainer(c.id, { state: "normal" }))).toEqual({ originals: 0, translations: 2 });
  });

  it("writes a container's facts over an older version only, so overlapping syncs leave the newest", async () => {
    const { c, shard } = await subtitledVideo(1);
    const shardDb = createShardDb(binding(shard));
    const facts = (state: string, changeId: number) =>
      containerFactsStatement({ containerId: c.id, state, originLanguage: "ko", changeId });
    await runBatch(shardDb, [facts("blocked", 10_000_000)]);
    await runBatch(shardDb, [facts("pending", 9_999_999)]);
    expect(await one(shard, "SELECT state, change_id FROM container_facts WHERE container_id = ?", c.id)).toEqual({
      state: "blocked",
      change_id: 10_000_000,
    });
    await runBatch(shardDb, [facts("normal", 0)]);
    expect(await one(shard, "SELECT state FROM container_facts WHERE container_id = ?", c.id)).toEqual({ state: "blocked" });
  });

  it("is carried by the sweeper when the changing request did not get to it (a crash in between)", async () => {
    const { v, shard } = await subtitledVideo(1);
    // A change made outside the API: the trigger records it, nobody syncs it.
    await env.DB.prepare("UPDATE videos SET state = 'blocked' WHERE id = ?").bind(v.id).run();
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes WHERE video_id = ?").bind(v.id).first("n")).toBe(1);
    expect(await one(shard, "SELECT state FROM video_facts WHERE video_id = ?", v.id)).toEqual({ state: "normal" });
    const result = await sweepJobs({ db: db(), env });
    expect(result.shardFacts).toBeGreaterThanOrEqual(1);
    expect(await one(shard, "SELECT state FROM video_facts WHERE video_id = ?", v.id)).toEqual({ state: "blocked" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes").first("n")).toBe(0);
  });

  it("never fails the write that committed when a shard does not answer: the change waits for the sweeper", async () => {
    const { v, shard } = await subtitledVideo(1);
    const row = (await db().select().from(videos).where(eq(videos.id, v.id)).get())!;
    // The shard this request opens refuses every statement, as a shard in an outage would.
    const down = {
      db: () =>
        createShardDb({
          prepare: () => {
            throw new Error("shard unavailable");
          },
        } as unknown as D1Database),
      bookmarks: () => [],
    };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const updated = await updateVideo({ db: db(), env, shards: down }, manager.user, row, { number: 7 });
      expect(updated.number).toBe(7);
      expect(warn.mock.calls.map((c) => JSON.parse(String(c[0])))).toContainEqual(
        expect.objectContaining({ event: "shard-outbox", outbox: "shard_fact_changes" }),
      );
    } finally {
      warn.mockRestore();
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes WHERE video_id = ?").bind(v.id).first("n")).toBe(1);
    await sweepJobs({ db: db(), env });
    expect(await one(shard, "SELECT number FROM video_facts WHERE video_id = ?", v.id)).toEqual({ number: 7 });
  });

  it("goes to both shards while the container moves, and writes nothing for a container that is gone", async () => {
    const { c, v, shard } = await subtitledVideo(1);
    await env.DB.prepare("UPDATE shard_directory SET moving_to = ? WHERE container_id = ?").bind(other(shard), c.id).run();
    expect((await putVideo(v.id, { number: 3 })).status).toBe(200);
    for (const n of [shard, other(shard)]) {
      expect(await one(n, "SELECT number FROM video_facts WHERE video_id = ?", v.id)).toEqual({ number: 3 });
      expect(await one(n, "SELECT origin_language FROM container_facts WHERE container_id = ?", c.id)).toEqual({ origin_language: "ko" });
    }
    await env.DB.prepare("UPDATE shard_directory SET moving_to = NULL WHERE container_id = ?").bind(c.id).run();

    const gone = await createContainer();
    await env.DB.prepare("UPDATE containers SET origin_language = 'fr' WHERE id = ?").bind(gone.id).run();
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(gone.id).run();
    await sweepJobs({ db: db(), env });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes").first("n")).toBe(0);
    for (const n of [1, 2]) expect(await one(n, "SELECT 1 FROM container_facts WHERE container_id = ?", gone.id)).toBeNull();
  });
});

describe("the switch of a move", () => {
  it("carries the re-sent facts in the move job itself: the new shard has the catalogue's facts when the job ends", async () => {
    const { c, v, shard } = await subtitledVideo(1);
    await env.DB.prepare("UPDATE videos SET number = 5 WHERE id = ?").bind(v.id).run();
    await env.DB.prepare("DELETE FROM shard_fact_changes WHERE container_id = ?").bind(c.id).run();
    expect(await moveContainer(c.id, shard, other(shard))).toMatchObject({ status: "succeeded" });
    expect(await one(other(shard), "SELECT number FROM video_facts WHERE video_id = ?", v.id)).toEqual({ number: 5 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes WHERE container_id = ?").bind(c.id).first("n")).toBe(0);
  });

  it("re-sends the container's facts, so a sync that wrote only the shard it left leaves no old facts on its new one", async () => {
    const { c, v, shard } = await subtitledVideo(1);
    // The copy took the facts to the target; then a change was synced to the source alone (its homes read before the
    // move began).
    await runBatch(createShardDb(binding(other(shard))), [
      containerFactsStatement({ containerId: c.id, state: "normal", originLanguage: "ko", changeId: 0 }),
    ]);
    await binding(other(shard))
      .prepare(
        "INSERT INTO video_facts (video_id, container_id, state, origin_language, number, change_id) VALUES (?, ?, 'normal', '', 1, 0)",
      )
      .bind(v.id, c.id)
      .run();
    expect((await putVideo(v.id, { number: 7 })).status).toBe(200);
    expect(await one(other(shard), "SELECT number FROM video_facts WHERE video_id = ?", v.id)).toEqual({ number: 1 });
    // The switch, then whichever sync comes next.
    await env.DB.prepare("UPDATE shard_directory SET shard = ? WHERE container_id = ?").bind(other(shard), c.id).run();
    await sweepJobs({ db: db(), env });
    expect(await one(other(shard), "SELECT number FROM video_facts WHERE video_id = ?", v.id)).toEqual({ number: 7 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_fact_changes").first("n")).toBe(0);
  });
});

describe("the move job and the cleanup outbox over the subtitle family", () => {
  const familyOf = async (n: number, containerId: number) => ({
    segments: await all(n, "SELECT * FROM segments WHERE container_id = ? ORDER BY id", containerId),
    subtitles: await all(n, "SELECT * FROM subtitles WHERE container_id = ? ORDER BY id", containerId),
    votes: await all(n, "SELECT * FROM translation_votes WHERE container_id = ? ORDER BY subtitle_id", containerId),
    // Without change_id: the switch re-sends the facts, so the target's carry a newer change than the source's.
    facts: await all(
      n,
      "SELECT video_id, container_id, state, origin_language, number FROM video_facts WHERE container_id = ? ORDER BY video_id",
      containerId,
    ),
    counts: await containerCounts(n, containerId),
    contributions: await all(n, "SELECT * FROM contributions WHERE container_id = ? ORDER BY user_id", containerId),
  });

  it("moves a container's subtitles with everything that hangs off them; the target's triggers rebuild its counts", async () => {
    const { c, v, shard } = await subtitledVideo(600);
    const subtitle = (await one<{ id: number }>(shard, "SELECT id FROM subtitles WHERE video_id = ? AND language = 'en' LIMIT 1", v.id))!
      .id;
    await binding(shard).batch([
      binding(shard)
        .prepare("INSERT INTO translation_votes (user_id, subtitle_id, container_id, video_id, value) VALUES (?, ?, ?, ?, 1)")
        .bind(manager.user.id, subtitle, c.id, v.id),
      binding(shard)
        .prepare(
          "INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, count) VALUES (?, 'subtitle', ?, ?, ?, ?, 'en', 600)",
        )
        .bind(subtitle + 50_000, manager.user.id, manager.user.username, v.id, c.id),
    ]);
    const before = await familyOf(shard, c.id);
    expect(before.subtitles).toHaveLength(1200);
    const [enSource, enTarget] = [await languageCounts(shard, "en"), await languageCounts(other(shard), "en")];

    const done = await moveContainer(c.id, shard, other(shard));
    expect(done?.status).toBe("succeeded");
    expect(await familyOf(other(shard), c.id)).toEqual(before);
    expect(await familyOf(shard, c.id)).toEqual({ segments: [], subtitles: [], votes: [], facts: [], counts: [], contributions: [] });
    // The shards' per-language totals moved with it.
    expect((await languageCounts(shard, "en"))!.translations).toBe(enSource!.translations - 600);
    expect((await languageCounts(other(shard), "en"))?.translations ?? 0).toBe((enTarget?.translations ?? 0) + 600);
  });

  it("takes a deleted video's subtitle family off its shard, and its counts with it", async () => {
    const { c, v, shard } = await subtitledVideo(3);
    const sibling = await createVideo(c.id, { number: 2 });
    base += 10_000;
    await putShardSubtitles({ id: sibling.id, containerId: c.id }, ["ko"], 2, base);
    expect(await delta(shard, "en", () => api(`/v4/videos/${v.id}v.json`, { method: "DELETE", token: staff.token }))).toEqual({
      originals: 0,
      translations: -3,
    });
    expect(await all(shard, "SELECT id FROM subtitles WHERE video_id = ?", v.id)).toEqual([]);
    expect(await all(shard, "SELECT 1 FROM video_facts WHERE video_id = ?", v.id)).toEqual([]);
    expect(await containerCounts(shard, c.id)).toEqual([
      { language: "en", originals: 0, translations: 0 },
      { language: "ko", originals: 2, translations: 0 },
    ]);
    expect(await all(shard, "SELECT id FROM subtitles WHERE video_id = ?", sibling.id)).toHaveLength(2);
  });

  it("takes a deleted container's whole family off its shard, counts and facts included", async () => {
    const { c, shard } = await subtitledVideo(3);
    expect((await api(`/v4/containers/${c.id}c.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    expect(await familyOf(shard, c.id)).toEqual({ segments: [], subtitles: [], votes: [], facts: [], counts: [], contributions: [] });
    expect(await one(shard, "SELECT 1 FROM container_facts WHERE container_id = ?", c.id)).toBeNull();
  });
});
