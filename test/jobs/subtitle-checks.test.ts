// The subtitle-checks job (src/jobs/subtitle-checks.ts): cues written before the quality checks existed (null
// checks, as migrations-shard/0006 leaves them) are checked when it has run, over as many deliveries as it takes.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { enqueue } from "../../src/jobs/enqueue";
import { subtitleChecks } from "../../src/jobs/subtitle-checks";
import { shardBinding } from "../../src/db/shards";
import { api, createApplication, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { waitForJob } from "../helpers/jobs";
import { shardOf } from "../helpers/shards";
import { insertTrack } from "../helpers/subtitles";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
let staff: Signed;
let official: string;
let series: { id: number };
let videos: Array<{ id: number; wireId: string }>;
let shard: number;

const passing = async (video: { wireId: string }) => {
  const res = await api(`/v4/videos/${video.wireId}/subtitle_tracks.json`, { app: official });
  const body = (await res.json()) as { tracks: Array<{ language: string; checks_passing: number | null }> };
  return Object.fromEntries(body.tracks.map((t) => [t.language, t.checks_passing]));
};

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  official = (await createApplication({ official: true })).wireId;
  series = await createContainer({ title: "Checks series" });
  ({ shard } = await shardOf(series.id));
  videos = [await createVideo(series.id, { number: 1 }), await createVideo(series.id, { number: 2 })];
  // Korean: 12 characters a second; the second cue reads 13. English: the first cue ends 40 ms before the next.
  await insertTrack(videos[0].id, "ko", [
    [1000, 2000, "가".repeat(12)],
    [3000, 4000, "가".repeat(13)],
  ]);
  await insertTrack(videos[1].id, "en", [
    [1000, 2000, "One"],
    [2040, 3000, "Two"],
    [4000, 5000, "Three"],
    [6000, 7000, "Four"],
  ]);
});

describe("subtitle-checks", () => {
  it("checks the tracks written before the checks, one per delivery, and checks_passing follows", async () => {
    expect(await passing(videos[0])).toEqual({ ko: null });
    expect(await passing(videos[1])).toEqual({ en: null });
    const job = await enqueue(
      { db: db(), env },
      subtitleChecks,
      { shard, containerId: series.id, statementsPerDelivery: 2 },
      { createdBy: staff.user.id },
    );
    const done = await waitForJob(`${job.id}j`, staff.token);
    expect(done.status, JSON.stringify(done.error)).toBe("succeeded");
    expect(done.result).toEqual({ shard, container_id: series.id, all: false, tracks: 2, changed: 6 });
    expect(await passing(videos[0])).toEqual({ ko: 50 });
    expect(await passing(videos[1])).toEqual({ en: 75 });
    const stored = await shardBinding(env, shard)
      .prepare("SELECT checks FROM subtitles WHERE video_id = ? ORDER BY id")
      .bind(videos[1].id)
      .all<{ checks: number }>();
    expect(stored.results.map((r) => r.checks)).toEqual([32, 0, 0, 0]);

    // Run again: nothing left to check.
    const again = await enqueue({ db: db(), env }, subtitleChecks, { shard, containerId: series.id }, { createdBy: staff.user.id });
    expect((await waitForJob(`${again.id}j`, staff.token)).result).toEqual({
      shard,
      container_id: series.id,
      all: false,
      tracks: 0,
      changed: 0,
    });
  });
});
