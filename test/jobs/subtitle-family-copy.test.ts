import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { COPY_CHUNK_ROWS } from "../../src/jobs/subtitle-family-copy";
import { db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { shardOf } from "../helpers/shards";
import { deliver, importJob, makeCues, srtOf } from "../helpers/subtitles";

/**
 * The copy of a container's subtitle family from the catalogue to its shard (docs/decisions.md, "Shards: the subtitle
 * family"), over rows the real import job wrote: the rows arrive in the shard's shape, and the counts the shard's
 * triggers derive from them equal the ones the catalogue's triggers keep.
 */

type User = Awaited<ReturnType<typeof signedInUser>>;
let author: User;
let voter: User;

beforeAll(async () => {
  [author, voter] = await Promise.all([signedInUser(), signedInUser()]);
});

async function runJob(type: string, params: Record<string, unknown>) {
  const job = await insertJob(db(), { type, params, createdBy: author.user.id } as Parameters<typeof insertJob>[1]);
  await deliver({ type, jobId: job.id });
  return (await findJob(db(), job.id))!;
}

async function imported(videoId: number, language: string, cues: number) {
  const job = await importJob(author.user.id, videoId, language, srtOf(makeCues(cues, `${language} line`)));
  await deliver({ type: "srt-import", jobId: job.id });
  expect((await findJob(db(), job.id))?.status).toBe("succeeded");
}

const catalogueRows = async (query: string, ...args: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...args)
      .all<Record<string, unknown>>()
  ).results;

/** A Korean series: one video in its origin with Korean and English, one of English origin, one pending. */
async function subtitledContainer() {
  const c = await createContainer({ originLanguage: "ko" });
  const inherits = await createVideo(c.id, { number: 1 });
  const english = await createVideo(c.id, { number: 2, originLanguage: "en" });
  const pending = await createVideo(c.id, { number: 3, state: "pending" });
  await imported(inherits.id, "ko", COPY_CHUNK_ROWS + 100);
  await imported(inherits.id, "en", 30);
  await imported(english.id, "en", 20);
  await imported(english.id, "ko", 10);
  await imported(pending.id, "fr", 5);
  const [translation] = await catalogueRows(
    "SELECT id FROM subtitles WHERE video_id = ? AND language = 'en' ORDER BY id LIMIT 1",
    inherits.id,
  );
  await env.DB.batch([
    env.DB.prepare("INSERT INTO translation_votes (user_id, subtitle_id, value) VALUES (?, ?, 1)").bind(voter.user.id, translation.id),
    env.DB.prepare("INSERT INTO reports (subtitle_id, user_id, reason) VALUES (?, ?, 'typo')").bind(translation.id, voter.user.id),
    env.DB.prepare("INSERT INTO caption_suggestions (origin_subtitle_id, language, user_id, content) VALUES (?, 'fr', ?, 'ligne')").bind(
      translation.id,
      voter.user.id,
    ),
  ]);
  return { c, inherits, english, pending };
}

describe("subtitle-family-copy", () => {
  it("copies the family in the shard's shape; the shard's triggers derive the catalogue's counts and flags", async () => {
    const { c, inherits } = await subtitledContainer();
    const done = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(done.error).toBeNull();
    expect(done.status).toBe("succeeded");
    const result = done.result as { rows: Record<string, number>; shard: number };
    expect(result.rows).toMatchObject({
      subtitles: COPY_CHUNK_ROWS + 100 + 30 + 20 + 10 + 5,
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
    expect(await shardRows("SELECT username, total FROM contributions WHERE container_id = ?", c.id)).toEqual([
      { username: author.user.username, total: expect.any(Number) },
    ]);
    expect(await shardRows("SELECT username, video_id, container_id FROM reports WHERE container_id = ?", c.id)).toEqual([
      { username: voter.user.username, video_id: inherits.id, container_id: c.id },
    ]);
  });

  it("is idempotent: a second run replaces the first copy with the same rows", async () => {
    const { c } = await subtitledContainer();
    const first = await runJob("subtitle-family-copy", { containerId: c.id });
    const second = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(second.status).toBe("succeeded");
    expect((second.result as { rows: unknown }).rows).toEqual((first.result as { rows: unknown }).rows);
    const { binding } = await shardOf(c.id);
    const count = await binding.prepare("SELECT count(*) AS n FROM subtitles WHERE container_id = ?").bind(c.id).first("n");
    expect(count).toBe((first.result as { rows: { subtitles: number } }).rows.subtitles);
  });

  it("continues across deliveries when the copy takes more statements than one may make, with the same result", async () => {
    const { c } = await subtitledContainer();
    const whole = await runJob("subtitle-family-copy", { containerId: c.id });
    const job = await insertJob(db(), {
      type: "subtitle-family-copy",
      params: { containerId: c.id, statementsPerDelivery: 10 },
      createdBy: author.user.id,
    } as Parameters<typeof insertJob>[1]);
    await deliver({ type: "subtitle-family-copy", jobId: job.id });
    // The first delivery stopped at a checkpoint; the queue delivers the rest.
    await expect.poll(async () => (await findJob(db(), job.id))?.status, { timeout: 20_000 }).toBe("succeeded");
    const done = (await findJob(db(), job.id))!;
    expect((done.result as { rows: unknown }).rows).toEqual((whole.result as { rows: unknown }).rows);
    expect((done.result as { statements: number }).statements).toBeGreaterThan(20);
  });

  it("fails, naming both sides, when the counts the shard derives differ from the catalogue's", async () => {
    const { c } = await subtitledContainer();
    // A catalogue count no trigger would have written: the check must see it.
    await env.DB.prepare("UPDATE contributions SET total = total + 1 WHERE container_id = ?").bind(c.id).run();
    const done = await runJob("subtitle-family-copy", { containerId: c.id });
    expect(done.status).not.toBe("succeeded");
    expect(done.error).toMatch(/copy differs: contributions: ".*" on the shard, ".*" in the catalogue/);
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
    await env.DB.prepare("UPDATE shard_directory SET moving_to = NULL WHERE container_id = ?").bind(c.id).run();
    const missing = await runJob("subtitle-family-copy", { containerId: 999_999_999 });
    expect(missing.status).toBe("failed");
  });
});
