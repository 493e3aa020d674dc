import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { COPY_CHUNK_ROWS } from "../../src/jobs/subtitle-family-copy";
import { api, createApplication, db, signedInUser } from "../helpers";
import { catalogueTrack, firstCatalogueSubtitle, fromBeforeTheSwitch, subtitlesCopied } from "../helpers/catalogue-family";
import { createContainer, createVideo } from "../helpers/catalogue";
import { shardOf } from "../helpers/shards";
import { deliver } from "../helpers/subtitles";

/**
 * The copy of a container's subtitle family from the catalogue to its shard (docs/decisions.md, "Shards: the subtitle
 * family"; the cut-over, "Subtitles on the shards"), over rows a release before the switch left in the catalogue: the
 * rows arrive in the shard's shape, the counts the shard's triggers derive from them equal the ones the catalogue's
 * triggers keep, and the container is then marked: its subtitle routes, which answered 503, use the shard.
 */

type User = Awaited<ReturnType<typeof signedInUser>>;
let author: User;
let voter: User;
let official: string;

beforeAll(async () => {
  [author, voter] = await Promise.all([signedInUser(), signedInUser()]);
  official = (await createApplication({ official: true })).wireId;
});

async function runJob(type: string, params: Record<string, unknown>) {
  const job = await insertJob(db(), { type, params, createdBy: author.user.id } as Parameters<typeof insertJob>[1]);
  await deliver({ type, jobId: job.id });
  return (await findJob(db(), job.id))!;
}

const catalogueRows = async (query: string, ...args: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...args)
      .all<Record<string, unknown>>()
  ).results;

/**
 * A Korean series from before the switch (marked not copied, its family in the catalogue): one video in its origin
 * with Korean and English, one of English origin, one pending; a vote, a report and a caption suggestion on a
 * translation.
 */
async function subtitledContainer() {
  const c = await createContainer({ originLanguage: "ko" });
  await fromBeforeTheSwitch(c.id);
  const inherits = await createVideo(c.id, { number: 1 });
  const english = await createVideo(c.id, { number: 2, originLanguage: "en" });
  const pending = await createVideo(c.id, { number: 3, state: "pending" });
  await catalogueTrack(inherits, "ko", COPY_CHUNK_ROWS + 100, author.user.id);
  await catalogueTrack(inherits, "en", 30, author.user.id);
  await catalogueTrack(english, "en", 20, author.user.id);
  await catalogueTrack(english, "ko", 10, author.user.id);
  await catalogueTrack(pending, "fr", 5, author.user.id);
  const translation = await firstCatalogueSubtitle(inherits.id, "en");
  await env.DB.batch([
    env.DB.prepare("INSERT INTO translation_votes (user_id, subtitle_id, value) VALUES (?, ?, 1)").bind(voter.user.id, translation),
    env.DB.prepare("INSERT INTO reports (subtitle_id, user_id, reason) VALUES (?, ?, 'typo')").bind(translation, voter.user.id),
    env.DB.prepare("INSERT INTO caption_suggestions (origin_subtitle_id, language, user_id, content) VALUES (?, 'fr', ?, 'ligne')").bind(
      translation,
      voter.user.id,
    ),
  ]);
  return { c, inherits, english, pending };
}

const shardCount = async (containerId: number, table: string) => {
  const { binding } = await shardOf(containerId);
  return binding.prepare(`SELECT count(*) AS n FROM ${table} WHERE container_id = ?`).bind(containerId).first<number>("n");
};

describe("subtitle-family-copy", () => {
  it("copies the family in the shard's shape; the shard's triggers derive the catalogue's counts and flags; marks the container", async () => {
    const { c, inherits } = await subtitledContainer();
    expect(await subtitlesCopied(c.id)).toBe(0);
    const done = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(done.error).toBeNull();
    expect(done.status).toBe("succeeded");
    expect(await subtitlesCopied(c.id)).toBe(1);
    const result = done.result as { rows: Record<string, number>; shard: number };
    expect(result.rows).toMatchObject({
      subtitles: COPY_CHUNK_ROWS + 100 + 30 + 20 + 10 + 5,
      subtitle_histories: 5,
      subtitle_versions: 5,
      translation_votes: 1,
      reports: 1,
      caption_suggestions: 1,
    });
    const { shard, binding } = await shardOf(c.id);
    expect(result.shard).toBe(shard);
    const shardRows = async (query: string, ...args: unknown[]) =>
      (
        await binding
          .prepare(query)
          .bind(...args)
          .all<Record<string, unknown>>()
      ).results;
    // Same ids, same texts, the same translation flag as the catalogue's triggers set; the author's name in the row.
    const columns = "id, segment_id, video_id, language, text, is_translation";
    const here = await catalogueRows(`SELECT ${columns} FROM subtitles WHERE video_id = ? ORDER BY id`, inherits.id);
    expect(await shardRows(`SELECT ${columns} FROM subtitles WHERE video_id = ? ORDER BY id`, inherits.id)).toEqual(here);
    expect(await shardRows("SELECT DISTINCT container_id, author_username FROM subtitles WHERE video_id = ?", inherits.id)).toEqual([
      { container_id: c.id, author_username: author.user.username },
    ]);
    expect(await shardRows("SELECT username, total FROM contributions WHERE container_id = ?", c.id)).toEqual(
      await catalogueRows(
        "SELECT u.username, t.total FROM contributions t JOIN users u ON u.id = t.user_id WHERE t.container_id = ?",
        c.id,
      ),
    );
    expect(await shardRows("SELECT username, video_id, container_id FROM reports WHERE container_id = ?", c.id)).toEqual([
      { username: voter.user.username, video_id: inherits.id, container_id: c.id },
    ]);
  });

  it("runs once: a second run answers already_copied and changes nothing on the shard", async () => {
    const { c } = await subtitledContainer();
    const first = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(first.status).toBe("succeeded");
    const tables = ["segments", "subtitles", "subtitle_histories", "subtitle_versions", "contributions", "container_language_counts"];
    const counts = () => Promise.all(tables.map((t) => shardCount(c.id, t)));
    const before = await counts();
    // A catalogue row written after the copy (a release before the switch, still running) is not the shard's concern.
    await catalogueTrack(
      { id: (await catalogueRows("SELECT id FROM videos WHERE container_id = ? LIMIT 1", c.id))[0].id as number, containerId: c.id },
      "de",
      3,
      author.user.id,
    );
    const second = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(second.status).toBe("succeeded");
    expect(second.result).toEqual({ container_id: `${c.id}c`, shard: (first.result as { shard: number }).shard, already_copied: true });
    expect(await counts()).toEqual(before);
    expect(await subtitlesCopied(c.id)).toBe(1);
  });

  it("copies and marks an empty container at once", async () => {
    const c = await createContainer();
    await fromBeforeTheSwitch(c.id);
    await createVideo(c.id, { number: 1 });
    const done = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(done.status).toBe("succeeded");
    expect(Object.values((done.result as { rows: Record<string, number> }).rows).every((n) => n === 0)).toBe(true);
    expect(await subtitlesCopied(c.id)).toBe(1);
  });

  it("continues across deliveries when the copy takes more statements than one may make, with the same result", async () => {
    const [one, other] = [await subtitledContainer(), await subtitledContainer()];
    const whole = await runJob("subtitle-family-copy", { containerId: one.c.id });
    const job = await insertJob(db(), {
      type: "subtitle-family-copy",
      params: { containerId: other.c.id, statementsPerDelivery: 10 },
      createdBy: author.user.id,
    } as Parameters<typeof insertJob>[1]);
    await deliver({ type: "subtitle-family-copy", jobId: job.id });
    // The first delivery stopped at a checkpoint; the queue delivers the rest.
    await expect.poll(async () => (await findJob(db(), job.id))?.status, { timeout: 20_000 }).toBe("succeeded");
    const done = (await findJob(db(), job.id))!;
    expect((done.result as { rows: unknown }).rows).toEqual((whole.result as { rows: unknown }).rows);
    expect((done.result as { statements: number }).statements).toBeGreaterThan(20);
    expect(await subtitlesCopied(other.c.id)).toBe(1);
  });

  it("fails, naming both sides, when the counts the shard derives differ from the catalogue's; the container stays unmarked", async () => {
    const { c } = await subtitledContainer();
    // A catalogue count no trigger would have written: the check must see it.
    await env.DB.prepare("UPDATE contributions SET total = total + 1 WHERE container_id = ?").bind(c.id).run();
    const done = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(done.status).not.toBe("succeeded");
    expect(done.error).toMatch(/copy differs: contributions: ".*" on the shard, ".*" in the catalogue/);
    expect(await subtitlesCopied(c.id)).toBe(0);
  });

  it("waits while the container moves, and refuses a container that does not exist", async () => {
    const { c } = await subtitledContainer();
    const { shard } = await shardOf(c.id);
    await env.DB.prepare("UPDATE shard_directory SET moving_to = ? WHERE container_id = ?")
      .bind(shard === 1 ? 2 : 1, c.id)
      .run();
    const waiting = await runJob("subtitle-family-copy", { containerId: c.id });
    // A retryable error: the job stays open for its next attempt.
    expect(["succeeded", "failed"]).not.toContain(waiting.status);
    expect(waiting.error).toMatch(/is moving/);
    expect(await subtitlesCopied(c.id)).toBe(0);
    await env.DB.prepare("UPDATE shard_directory SET moving_to = NULL WHERE container_id = ?").bind(c.id).run();
    const missing = await runJob("subtitle-family-copy", { containerId: 999_999_999 });
    expect(missing.status).toBe("failed");
  });
});

describe("a container's subtitle routes during the cut-over", () => {
  it("answer 503 with Retry-After until its copy is checked, then read the copied rows from its shard", async () => {
    const { c, inherits } = await subtitledContainer();
    const path = `/v4/videos/${inherits.id}v/subtitle_tracks/en.json`;
    const waiting = await api(path, { app: official });
    expect(waiting.status).toBe(503);
    expect(Number(waiting.headers.get("retry-after"))).toBeGreaterThan(0);
    const done = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(done.status).toBe("succeeded");
    const res = await api(path, { app: official });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { language: string; cues: Array<{ start_ms: number; text: string }> };
    expect(body.language).toBe("en");
    expect(body.cues).toHaveLength(30);
    expect(body.cues[0]).toMatchObject({ start_ms: 0, text: "en line 0" });
  });
});
