// What a subtitle version costs (docs/performance.md, "Subtitle versions"): recording one writes one row whatever the
// track's size (its cues are one R2 object), reads the track once, and comparing two versions of a 2,000-cue track with
// a tenth of its cues changed stays well inside a request.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { emptyStats, instrument } from "../../src/db/client";
import { createShardDb } from "../../src/db/shards";
import { findJob } from "../../src/db/queries/jobs";
import { currentCues, recordVersion, snapshotKey, type Track } from "../../src/services/subtitle-versions";
import { videoShard } from "../helpers/localisation";
import { api, createApplication, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { deliver, importJob, makeCues, srtOf } from "../helpers/subtitles";

/** D1 rows one version writes on its shard: the row, its four index entries and the id range's counter (6), with room. */
const ROWS_WRITTEN = 8;
/**
 * Rows read per cue of the track: reading its cues (a subtitle and its segment each), and the insert's count of the
 * video's segments for the completion; plus a few probes (the last version, the next number).
 */
const ROWS_READ_PER_CUE = 4;
const ROWS_READ_MORE = 100;
/** Comparing two 2,000-cue versions through the route, 200 cues changed: the median of a few requests. */
const COMPARE_MS = 1_000;

type Signed = Awaited<ReturnType<typeof signedInUser>>;
let manager: Signed;
let official: string;
let containerId: number;

/** A video with an imported track of `cues` cues (version 1). */
async function importedTrack(cues: number): Promise<Track & { wireId: string }> {
  const video = await createVideo(containerId);
  const job = await importJob(manager.user.id, video.id, "en", srtOf(makeCues(cues, "line of the track")));
  await deliver({ type: "srt-import", jobId: job.id });
  const done = (await findJob(db(), job.id))!;
  expect(done.status, String(done.error)).toBe("succeeded");
  return { videoId: video.id, language: "en", wireId: video.wireId };
}

/** Changes the text of every `every`-th cue of the track on its shard, as edits would (the next version records them). */
const editCues = async (t: Track, every: number, mark: string) =>
  (await videoShard(t.videoId)).binding
    .prepare(
      `UPDATE subtitles SET text = text || ?4 WHERE id IN (
       SELECT id FROM subtitles WHERE video_id = ?1 AND language = ?2 AND (id % ?3) = 0)`,
    )
    .bind(t.videoId, t.language, every, mark)
    .run();

/**
 * Records the track's next version on an instrumented client of its shard: what it cost in D1, and what reading the
 * cues alone costs.
 */
async function measuredRecord(t: Track) {
  const { shard, binding } = await videoShard(t.videoId);
  const reading = emptyStats();
  await currentCues(createShardDb(instrument(binding, reading)), t);
  const stats = emptyStats();
  const store = { db: createShardDb(instrument(binding, stats)), env, shard, containerId };
  const version = await recordVersion(store, t, {
    cause: "edit",
    authorId: manager.user.id,
    applicationId: null,
  });
  expect(version).not.toBeNull();
  const object = await env.SUBTITLES.head(snapshotKey(t, version!.hash));
  return {
    version: version!,
    rowsWritten: stats.rowsWritten,
    rowsRead: stats.rowsRead,
    cuesRowsRead: reading.rowsRead,
    statements: stats.queries,
    r2Bytes: object!.size,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

beforeAll(async () => {
  manager = await signedInUser();
  official = (await createApplication({ official: true })).wireId;
  containerId = (await createContainer({ title: "Version costs", managers: [manager.user.id] })).id;
});

describe("subtitle version costs", () => {
  it("recording a version writes a constant number of rows: 20 cues and 2,000 cues alike", async () => {
    const figures = [];
    for (const cues of [20, 2_000]) {
      const t = await importedTrack(cues);
      await editCues(t, 10, " (edited)");
      const m = await measuredRecord(t);
      expect(m.version.cues).toBe(cues);
      expect(m.version.bytes).toBe(m.r2Bytes);
      const srtBytes = new TextEncoder().encode(srtOf(makeCues(cues, "line of the track"))).length;
      figures.push({
        cues,
        rows_written: m.rowsWritten,
        rows_read: m.rowsRead,
        rows_read_reading_cues: m.cuesRowsRead,
        statements: m.statements,
        r2_bytes: m.r2Bytes,
        srt_bytes: srtBytes,
      });
      expect(m.rowsRead, `${cues} cues`).toBeLessThanOrEqual(ROWS_READ_PER_CUE * cues + ROWS_READ_MORE);
      // The snapshot is smaller than the same cues as SubRip (numbers and time stamps as digits, no separators).
      expect(m.r2Bytes).toBeLessThan(srtBytes);
    }
    console.log(JSON.stringify({ bench: "subtitle-version-record", figures }));
    const [small, large] = figures;
    expect(large.rows_written).toBe(small.rows_written);
    expect(large.rows_written).toBeLessThanOrEqual(ROWS_WRITTEN);
  });

  it(`comparing two versions of a 2,000-cue track, a tenth of the cues changed, takes under ${COMPARE_MS} ms`, async () => {
    const t = await importedTrack(2_000);
    await editCues(t, 10, " and a few more words");
    const changed = await measuredRecord(t);
    expect(changed.version.number).toBe(2);

    const path = `/v4/videos/${t.wireId}/subtitle_tracks/en/versions/1/compare/2.json?app=${official}&token=${manager.token}`;
    const times: number[] = [];
    let counts: Record<string, number> = {};
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const res = await api(path);
      expect(res.status).toBe(200);
      counts = ((await res.json()) as { counts: Record<string, number> }).counts;
      times.push(Date.now() - started);
    }
    console.log(JSON.stringify({ bench: "subtitle-version-compare", cues: 2_000, counts, ms: times, median_ms: median(times) }));
    expect(counts.changed).toBeGreaterThanOrEqual(150);
    expect(counts.changed + counts.unchanged).toBe(2_000);
    expect(median(times)).toBeLessThan(COMPARE_MS);
  });
});
