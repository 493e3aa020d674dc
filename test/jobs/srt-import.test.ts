import { env } from "cloudflare:workers";
import { and, asc, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { segments, subtitleHistories, subtitles } from "../../src/db/shard-schema";
import { readSrt } from "../../src/domain/subtitles/srt";

const readSrtCues = (text: string) => readSrt(text).cues;
import { START_TOLERANCE_MS, planImport, writeImport } from "../../src/services/subtitles";
import { createUser, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { usernameOf, videoShard } from "../helpers/localisation";
import { deliver, importJob, insertSegments, insertTexts, localisationCounts, makeCues, srtOf } from "../helpers/subtitles";

let userId: number;
let containerId: number;

beforeAll(async () => {
  userId = (await createUser()).user.id;
  containerId = (await createContainer({ title: "Import consumer" })).id;
});

const newVideo = async () => (await createVideo(containerId)).id;

async function runImport(videoId: number, language: string, content: string | Uint8Array) {
  const job = await importJob(userId, videoId, language, content);
  const outcome = await deliver({ type: "srt-import", jobId: job.id });
  return { job, outcome, row: (await findJob(db(), job.id))! };
}

/** A video's texts in one language, on its container's shard (docs/decisions.md, "Subtitles on the shards"). */
const storedTexts = async (videoId: number, language: string) =>
  (await videoShard(videoId)).db
    .select({
      startMs: segments.startMs,
      endMs: segments.endMs,
      text: subtitles.text,
      version: subtitles.version,
      authorId: subtitles.authorId,
    })
    .from(subtitles)
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language)))
    .orderBy(asc(segments.startMs))
    .all();

describe("srt-import consumer", () => {
  it("creates one segment per cue on a video without segments, with histories and a completion job", async () => {
    const videoId = await newVideo();
    const cues = makeCues(3, "Bonjour");
    const { outcome, row, job } = await runImport(videoId, "fr", srtOf(cues));
    expect(outcome.explicitAcks).toHaveLength(1);
    expect(row).toMatchObject({ status: "succeeded", progress: 100, attempts: 1, error: null });
    expect(row.result).toMatchObject({ cues: 3, created: 3, updated: 0, unchanged: 0, unmatched: 0, segments_created: 3, mode: "create" });
    expect(row.result?.rows_written).toBeGreaterThan(0);
    // The mode is kept for later deliveries of the same job, and so is the mark that its subtitles.updated is recorded.
    expect(row.params).toEqual({ videoId, language: "fr", mode: "create", announced: true });
    expect(await storedTexts(videoId, "fr")).toEqual(cues.map((c) => ({ ...c, version: 1, authorId: userId })));

    const { db: shard } = await videoShard(videoId);
    const histories = await shard
      .select()
      .from(subtitleHistories)
      .where(eq(subtitleHistories.videoId, videoId))
      .orderBy(asc(subtitleHistories.id))
      .all();
    // docs/decisions.md, "An import's history is one row per kind and chunk": one history row per kind and chunk of
    // cues, standing for `count` changes (not two per cue).
    expect(histories.map((h) => [h.kind, h.count, h.sourceKey]).sort()).toEqual([
      ["segment", 3, `import:${job.id}:1-3:segment`],
      ["subtitle", 3, `import:${job.id}:1-3:created`],
    ]);
    // Rows on a shard carry their container and their author's name.
    const username = await usernameOf(userId);
    expect(histories.every((h) => h.userId === userId && h.containerId === containerId && h.username === username)).toBe(true);
    const texts = await shard.select().from(subtitles).where(eq(subtitles.videoId, videoId)).all();
    expect(texts.every((t) => t.containerId === containerId && t.authorUsername === username && t.isTranslation === 1)).toBe(true);

    const completionId = Number.parseInt(String(row.result?.completion_job), 10);
    expect(await findJob(db(), completionId)).toMatchObject({
      type: "completion",
      params: { videoIds: [videoId], containerIds: [containerId] },
      createdBy: userId,
    });
  });

  it(`matches cues to existing segments by start (±${START_TOLERANCE_MS} ms) and counts the rest as unmatched`, async () => {
    const videoId = await newVideo();
    const segs = await insertSegments(videoId, [
      [1000, 2000],
      [5000, 6000],
      [9000, 10000],
      [20000, 21000],
    ]);
    // Two texts the community wrote, on the video's shard.
    await insertTexts(videoId, [
      { segmentId: segs[0].id, language: "en", text: "Same" },
      { segmentId: segs[1].id, language: "en", text: "Old text" },
    ]);
    const placed = await videoShard(videoId);
    const cues = [
      { startMs: 1000, endMs: 1900, text: "Same" }, // exact start, same text
      { startMs: 5000 + START_TOLERANCE_MS, endMs: 6000, text: "New text" }, // at the edge of the tolerance
      { startMs: 9000 + START_TOLERANCE_MS + 1, endMs: 9800, text: "Too late" }, // just outside
      { startMs: 13000, endMs: 14000, text: "No segment here" },
      { startMs: 19900, endMs: 20500, text: "Fresh" },
    ];
    const { row } = await runImport(videoId, "en", srtOf(cues));
    expect(row.result).toMatchObject({ cues: 5, created: 1, updated: 1, unchanged: 1, unmatched: 2, segments_created: 0, mode: "match" });
    expect(await storedTexts(videoId, "en")).toEqual([
      { startMs: 1000, endMs: 2000, text: "Same", version: 1, authorId: null },
      { startMs: 5000, endMs: 6000, text: "New text", version: 2, authorId: userId },
      { startMs: 20000, endMs: 21000, text: "Fresh", version: 1, authorId: userId },
    ]);
    // Timing belongs to the segments: an import never moves or adds them.
    expect((await localisationCounts(videoId)).segments).toBe(4);
    // One history row for the created text (version 1) and one for the replaced one (version 2), a change each.
    const versions = await placed.db
      .select({ version: subtitleHistories.version, count: subtitleHistories.count })
      .from(subtitleHistories)
      .where(and(eq(subtitleHistories.videoId, videoId), eq(subtitleHistories.kind, "subtitle")))
      .orderBy(asc(subtitleHistories.version))
      .all();
    expect(versions).toEqual([
      { version: 1, count: 1 },
      { version: 2, count: 1 },
    ]);
  });

  it("gives each segment to one cue only: the nearest wins", () => {
    const cues = readSrtCues(
      srtOf([
        { startMs: 900, endMs: 1000, text: "a" },
        { startMs: 1010, endMs: 1100, text: "b" },
      ]),
    );
    expect(planImport(cues, "match", [{ startMs: 1000 }])).toEqual({
      rows: [{ cue: 1, startMs: 1000, endMs: 1000, text: "a", from: { cue: 1, line: 2 } }],
      unmatched: 1,
    });
  });

  it("puts cues that start together on one segment when creating", async () => {
    const videoId = await newVideo();
    const { row } = await runImport(videoId, "en", "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:01,000 --> 00:00:03,000\nB\n");
    expect(row.result).toMatchObject({ cues: 2, created: 1, segments_created: 1 });
    expect(await storedTexts(videoId, "en")).toEqual([{ startMs: 1000, endMs: 3000, text: "A\nB", version: 1, authorId: userId }]);
  });

  it("acks a replay of a finished job and writes nothing", async () => {
    const videoId = await newVideo();
    const { job, row } = await runImport(videoId, "ko", srtOf(makeCues(5, "안녕")));
    const before = await localisationCounts(videoId);
    const replay = await deliver({ type: "srt-import", jobId: job.id });
    expect(replay.explicitAcks).toHaveLength(1);
    expect(await localisationCounts(videoId)).toEqual(before);
    expect(await findJob(db(), job.id)).toEqual(row);
  });

  it("importing the same file again changes no row and bumps no version", async () => {
    const videoId = await newVideo();
    const content = srtOf(makeCues(4, "Hallo"));
    await runImport(videoId, "de", content);
    const before = { counts: await localisationCounts(videoId), texts: await storedTexts(videoId, "de") };
    const { row } = await runImport(videoId, "de", content);
    expect(row.result).toMatchObject({ cues: 4, created: 0, updated: 0, unchanged: 4, unmatched: 0, mode: "match" });
    expect({ counts: await localisationCounts(videoId), texts: await storedTexts(videoId, "de") }).toEqual(before);
  });

  it("a delivery after a crash mid-way converges on what one clean run writes, with the same counts", async () => {
    const cues = makeCues(1200, "chunked");
    const content = srtOf(cues);
    const clean = await newVideo();
    const { row: cleanRow } = await runImport(clean, "en", content);
    expect(cleanRow.result).toMatchObject({ cues: 1200, created: 1200, segments_created: 1200 });

    const crashed = await newVideo();
    const job = await importJob(userId, crashed, "en", content);
    // The first delivery fixed the mode, wrote the first 700 cues, then died before finishing the job.
    await db()
      .update(jobs)
      .set({ status: "running", attempts: 1, params: { videoId: crashed, language: "en", mode: "create" } })
      .where(eq(jobs.id, job.id));
    const parsed = readSrtCues(content);
    const scope = { videoId: crashed, containerId, userId, username: (await usernameOf(userId))!, language: "en" };
    const placed = await videoShard(crashed);
    const store = { db: placed.db, shard: placed.shard, facts: [] };
    await writeImport(store, job.id, scope, "create", planImport(parsed.slice(0, 700), "create", []), 700, async () => {});

    const outcome = await deliver({ type: "srt-import", jobId: job.id }, { attempts: 2 });
    expect(outcome.explicitAcks).toHaveLength(1);
    const row = (await findJob(db(), job.id))!;
    const { rows_written: _a, completion_job: _b, duration_ms: _e, ...counts } = row.result!;
    const { rows_written: _c, completion_job: _d, duration_ms: _f, ...cleanCounts } = cleanRow.result!;
    expect(counts).toEqual(cleanCounts);
    expect(await localisationCounts(crashed)).toEqual(await localisationCounts(clean));
    const strip = (rows: Awaited<ReturnType<typeof storedTexts>>) =>
      rows.map(({ startMs, endMs, text, version }) => ({ startMs, endMs, text, version }));
    expect(strip(await storedTexts(crashed, "en"))).toEqual(strip(await storedTexts(clean, "en")));
  });

  it("fails a broken file at once, naming the cue and the line, and writes nothing", async () => {
    const videoId = await newVideo();
    // A block whose timing does not read is skipped as players skip it; a cue that ends before it starts is refused.
    const broken = "1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:03,000 --> 00:00:02,500\nends before it starts\n";
    const { outcome, row } = await runImport(videoId, "en", broken);
    expect(outcome.explicitAcks).toHaveLength(1);
    expect(outcome.retryMessages).toHaveLength(0);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row.error).toMatch(/^invalid SubRip file: cue 2 \(line 6\): /);
    expect(await localisationCounts(videoId)).toEqual({ segments: 0, subtitles: 0, histories: 0 });
  });

  it("fails files that are empty or whose bytes read as no text of their language, with a clear reason", async () => {
    const videoId = await newVideo();
    const empty = await runImport(videoId, "en", "\r\n\r\n");
    expect(empty.row).toMatchObject({ status: "failed", error: "invalid SubRip file: cue 1 (line 1): the file holds no cue" });
    const noise = new Uint8Array([...new TextEncoder().encode("1\n00:00:01,000 --> 00:00:02,000\n"), 0xff, 0xfe, 0x81, 0x8d, 0x0a]);
    const wrong = await runImport(videoId, "ko", noise);
    expect(wrong.row.status).toBe("failed");
    expect(wrong.row.error).toMatch(/^unreadable text: the file is not UTF-8/);
    expect(await localisationCounts(videoId)).toEqual({ segments: 0, subtitles: 0, histories: 0 });
  });

  it("reads UTF-16 files by their byte order mark", async () => {
    const videoId = await newVideo();
    const text = srtOf([{ startMs: 500, endMs: 1500, text: "Été 한국어" }]);
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
      bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    const { row } = await runImport(videoId, "fr", bytes);
    expect(row).toMatchObject({ status: "succeeded", result: { cues: 1, created: 1 } });
    expect((await storedTexts(videoId, "fr"))[0].text).toBe("Été 한국어");
  });

  it("fails at once when the upload or the video is gone", async () => {
    const videoId = await newVideo();
    const job = await importJob(userId, videoId, "en", srtOf(makeCues(1)));
    await env.SUBTITLES.delete(job.payloadKey);
    await deliver({ type: "srt-import", jobId: job.id });
    expect(await findJob(db(), job.id)).toMatchObject({ status: "failed", error: `upload imports/${job.id}/upload is missing` });

    const malformed = await importJob(userId, videoId, "EN!", srtOf(makeCues(1)));
    await deliver({ type: "srt-import", jobId: malformed.id });
    expect(await findJob(db(), malformed.id)).toMatchObject({ status: "failed", error: "malformed srt-import parameters" });

    const gone = await importJob(userId, 999_999_999, "en", srtOf(makeCues(1)));
    await deliver({ type: "srt-import", jobId: gone.id });
    expect(await findJob(db(), gone.id)).toMatchObject({ status: "failed", error: "video 999999999v no longer exists" });
  });

  it("retries a transient failure with backoff, then the dead-letter queue marks the job failed with the reason", async () => {
    const videoId = await newVideo();
    const job = await importJob(userId, videoId, "en", srtOf(makeCues(2)));
    const broken = { ...env, SUBTITLES: { get: async () => Promise.reject(new Error("R2 unavailable")) } } as unknown as Env;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const outcome = await deliver({ type: "srt-import", jobId: job.id }, { attempts: attempt, env: broken });
      expect(outcome.retryMessages).toHaveLength(1);
      expect(outcome.explicitAcks).toHaveLength(0);
    }
    expect(await findJob(db(), job.id)).toMatchObject({ status: "running", attempts: 3, error: "R2 unavailable" });

    const dead = await deliver({ type: "srt-import", jobId: job.id }, { queueName: env.JOBS_DEAD_LETTER_QUEUE });
    expect(dead.explicitAcks).toHaveLength(1);
    expect(await findJob(db(), job.id)).toMatchObject({ status: "failed", error: "failed after 3 attempts: R2 unavailable" });
    // A late redelivery of the failed job does nothing.
    await deliver({ type: "srt-import", jobId: job.id });
    expect(await findJob(db(), job.id)).toMatchObject({ status: "failed", attempts: 3 });
    expect(await localisationCounts(videoId)).toEqual({ segments: 0, subtitles: 0, histories: 0 });
    expect(
      await (
        await videoShard(videoId)
      ).db
        .select()
        .from(subtitleHistories)
        .where(like(subtitleHistories.sourceKey, `import:${job.id}:%`))
        .all(),
    ).toEqual([]);
  });
});
