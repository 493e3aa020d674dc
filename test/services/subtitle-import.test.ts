// The subtitle import as a service (src/services/subtitle-import.ts), called directly with real D1: what the
// srt-import job's body cannot show on its own. The service queues nothing (the completion it names is the job's to
// queue: docs/decisions.md, "The subtitle import"), and a second delivery of the same job after a crash past every
// write leaves one version and one subtitles.updated, with the counts of the first.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { markJobRunning } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { subtitleVersions } from "../../src/db/shard-schema";
import { SubtitleImportParams, runSubtitleImport } from "../../src/services/subtitle-import";
import { createUser, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { importJob, localisationCounts, makeCues, srtOf } from "../helpers/subtitles";
import { eventsWhere } from "../webhooks/events-helpers";

let userId: number;
let containerId: number;

beforeAll(async () => {
  userId = (await createUser()).user.id;
  containerId = (await createContainer({ title: "Import service" })).id;
});

/** One delivery's run of the import: the job claimed as the runner claims it, its params parsed as the runner parses them. */
async function delivery(jobId: number, bytes: Uint8Array) {
  const claim = (await markJobRunning(db(), jobId, 60))!;
  const progress: number[] = [];
  const run = await runSubtitleImport({ db: db(), env }, claim, SubtitleImportParams.parse(claim.params), bytes, async (p) => {
    progress.push(p);
  });
  return { ...run, progress };
}

/** The completion jobs a user's imports queued: the service names one and leaves the queuing to the job. */
const completionJobsOf = (userId: number) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.type, "completion"), eq(jobs.createdBy, userId)))
    .all();

describe("runSubtitleImport", () => {
  it("names the completion that follows and queues nothing; a replay after a crash past every write adds no version and no event", async () => {
    const video = await createVideo(containerId);
    const content = srtOf(makeCues(3, "Guten Tag"));
    const job = await importJob(userId, video.id, "de", content);
    const bytes = new TextEncoder().encode(content);

    const first = await delivery(job.id, bytes);
    expect(first.completion).toEqual({ videoIds: [video.id], containerIds: [containerId] });
    expect(first.result).toMatchObject({ cues: 3, created: 3, updated: 0, unchanged: 0, segments_created: 3, mode: "create", version: 1 });
    expect(first.result.rows_written).toBeGreaterThan(0);
    expect(first.progress).toEqual([10, 20, 90]);
    expect(await completionJobsOf(userId)).toEqual([]);
    const written = await localisationCounts(video.id);
    expect(written).toMatchObject({ segments: 3, subtitles: 3 });

    // The delivery died after the service returned, before the job finished: the lease runs out and the next claims it.
    await db()
      .update(jobs)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, job.id));
    const replay = await delivery(job.id, bytes);
    const { rows_written: _a, duration_ms: _b, ...firstCounts } = first.result;
    const { rows_written: rewritten, duration_ms: _c, ...replayCounts } = replay.result;
    expect(replayCounts).toEqual(firstCounts);
    expect(rewritten).toBe(0);
    expect(replay.completion).toEqual(first.completion);

    const { db: shard } = await videoShard(video.id);
    const versions = await shard
      .select({ number: subtitleVersions.number })
      .from(subtitleVersions)
      .where(and(eq(subtitleVersions.videoId, video.id), eq(subtitleVersions.language, "de")))
      .all();
    expect(versions).toEqual([{ number: 1 }]);
    expect(await eventsWhere("subtitles.updated", { video_id: video.wireId, language: "de" })).toHaveLength(1);
    expect(await localisationCounts(video.id)).toEqual(written);
    expect(await completionJobsOf(userId)).toEqual([]);
  });
});
