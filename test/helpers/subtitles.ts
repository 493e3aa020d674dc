import { indexForm } from "../../src/domain/search-text";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { queue } from "../../queues";
import { insertJob, setJobPayloadKey } from "../../src/db/queries/jobs";
import { segments, subtitleHistories, subtitles } from "../../src/db/shard-schema";
import { insertWithIds, videoShard } from "./localisation";
import { importUploadKey } from "../../src/jobs/srt-import";
import { expect } from "vitest";
import { api, db } from ".";
import { waitForJob } from "./jobs";

export const QUEUE = "media-catalogue-jobs";

/** Delivers one message straight to the consumer (optionally with a doctored env) and returns the ack/retry outcome. */
export async function deliver(body: unknown, opts: { attempts?: number; queueName?: string; env?: Env } = {}) {
  const batch = createMessageBatch(opts.queueName ?? QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: opts.attempts ?? 1, body },
  ]);
  const ctx = createExecutionContext();
  await queue(batch, opts.env ?? env);
  return getQueueResult(batch, ctx);
}

export interface TestCue {
  startMs: number;
  endMs: number;
  text: string;
}

/** Cues written as [start ms, end ms, text] rows: a table of timings reads more easily than objects. */
export const cuesOf = (rows: ReadonlyArray<readonly [number, number, string]>): TestCue[] =>
  rows.map(([startMs, endMs, text]) => ({ startMs, endMs, text }));

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
export const srtTime = (ms: number) =>
  `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;

/** SubRip text of cues (CRLF, as most files in the wild). */
export const srtOf = (cues: TestCue[]) =>
  cues.map((c, i) => `${i + 1}\r\n${srtTime(c.startMs)} --> ${srtTime(c.endMs)}\r\n${c.text.replace(/\n/g, "\r\n")}\r\n`).join("\r\n");

/** `n` cues two seconds apart, with text made from `label`. */
export const makeCues = (n: number, label = "line", from = 1000): TestCue[] =>
  Array.from({ length: n }, (_, i) => ({ startMs: from + i * 2000, endMs: from + i * 2000 + 1500, text: `${label} ${i + 1}` }));

/**
 * An srt-import job row with its upload already in R2, as the route leaves it (but no message sent). The route queues
 * an import only for staff or a manager of the video's container, and the job asks again when it runs
 * (docs/decisions.md, "Jobs"), so the user is made a manager of it (when the video exists).
 */
export async function importJob(userId: number, videoId: number, language: string, content: string | Uint8Array) {
  await env.DB.prepare(
    "INSERT INTO container_managers (container_id, user_id) SELECT container_id, ?1 FROM videos WHERE id = ?2 ON CONFLICT DO NOTHING",
  )
    .bind(userId, videoId)
    .run();
  const job = await insertJob(db(), { type: "srt-import", params: { videoId, language }, createdBy: userId });
  const key = importUploadKey(job.id);
  await env.SUBTITLES.put(key, content);
  await setJobPayloadKey(db(), job.id, key);
  return { ...job, payloadKey: key };
}

/** Segments of a video on its shard, ids from the shard's range (a timing the community made before an import). */
export async function insertSegments(videoId: number, spans: Array<[number, number]>) {
  const placed = await videoShard(videoId);
  const rows = spans.map(([startMs, endMs]) => ({ containerId: placed.video.containerId, videoId, startMs, endMs }));
  return insertWithIds<typeof segments.$inferSelect>(placed, segments, rows, 14);
}

/** Row counts that an import writes (on the video's shard), for before/after comparisons. */
export async function localisationCounts(videoId: number) {
  const { db: shard } = await videoShard(videoId);
  const one = async (table: typeof segments | typeof subtitles | typeof subtitleHistories) =>
    (await shard
      .select({ n: sql<number>`count(*)` })
      .from(table)
      .where(eq(table.videoId, videoId))
      .get())!.n;
  return { segments: await one(segments), subtitles: await one(subtitles), histories: await one(subtitleHistories) };
}

export { waitForJob } from "./jobs";

/** Who imports: an official application (imports are official only, docs/api.md) and a user's session. */
export type Importer = { app: string; token: string };

/** POSTs `cues` as SubRip to the video's import route: the response, for the tests of its refusals. */
export const postSrtImport = (who: Importer, video: { wireId: string }, cues: TestCue[], language = "en") =>
  api(`/v4/videos/${video.wireId}/subtitles/import_srt.json`, {
    ...who,
    method: "POST",
    query: { language },
    body: srtOf(cues),
    headers: { "content-type": "application/x-subrip" },
  });

/** An import the route accepted (202): its job's id. */
export async function startSrtImport(who: Importer, video: { wireId: string }, cues: TestCue[], language = "en") {
  const res = await postSrtImport(who, video, cues, language);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { job: { id: string } }).job.id;
}

/** An import and the completion job it queues, both run to success by the real consumer: the import's result. */
export async function importSrt(who: Importer, video: { wireId: string }, cues: TestCue[], language = "en") {
  const job = await waitForJob(await startSrtImport(who, video, cues, language), who.token);
  expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
  const result = job.result as { version: number | null; completion_job: string };
  expect((await waitForJob(result.completion_job, who.token)).status).toBe("succeeded");
  return result;
}

/** Texts at segments of a video on its shard (what the community wrote before an import), ids from the shard's range. */
export async function insertTexts(videoId: number, rows: Array<{ segmentId: number; language: string; text: string }>) {
  const placed = await videoShard(videoId);
  // As the writer does (src/db/queries/subtitles.ts): the index form beside the text.
  const values = rows.map((r) => ({ ...r, searchText: indexForm(r.text), containerId: placed.video.containerId, videoId }));
  return insertWithIds<typeof subtitles.$inferSelect>(placed, subtitles, values, 7);
}

/** A track written straight to the shard, one segment and one text per cue, in the order given: the segments. */
export async function insertTrack(videoId: number, language: string, cues: Array<[startMs: number, endMs: number, text: string]>) {
  const segs = await insertSegments(
    videoId,
    cues.map(([start, end]) => [start, end]),
  );
  await insertTexts(
    videoId,
    cues.map(([, , text], i) => ({ segmentId: segs[i].id, language, text })),
  );
  return segs;
}
