// Retention of subtitle versions (src/services/subtitle-retention.ts): the sweeper prunes versions older than
// VERSION_RETENTION_DAYS beyond the newest VERSIONS_KEPT of their track, a bounded step per run on every shard, with the
// snapshot objects no remaining version refers to; and a video's snapshots go with the video, by DELETE or by
// container-delete. Versions live on their container's shard (docs/decisions.md, "Subtitles on the shards").
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { sweepJobs } from "../../src/jobs/sweeper";
import {
  PRUNE_VERSIONS_BATCH,
  PRUNE_WINDOW_IDS,
  CLEANUP_VIDEOS,
  VERSION_RETENTION_DAYS,
  VERSIONS_KEPT,
  deleteVideoSnapshots,
  pruneVersions,
} from "../../src/services/subtitle-retention";
import { snapshotKey, videoSnapshotPrefix, type Track } from "../../src/services/subtitle-versions";
import { SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { api, createUser, db, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { allocateIdsStatement, shardDbs, shardOf } from "../helpers/shards";
import { deliver, importJob, makeCues, srtOf } from "../helpers/subtitles";

const DAY = 86_400;
/**
 * What one run may read, however many versions the table holds: its window and a probe per old row in it (two
 * rows per id), then the rows left in the tracks it pruned (750 at most here). 5,000 is the container-delete job's
 * chunk budget (test/budgets/deletes.test.ts): what any other request may wait behind.
 */
const RUN_ROWS_READ = 5_000;
/** The seeks a run makes on each of the two shards to find its blocks of ids (src/db/queries/subtitle-versions.ts), with room. */
const BLOCK_SEEKS = 30;
/** A run with nothing to prune: its window and the probes (this file's versions are all on one shard), and the seeks. */
const IDLE_ROWS_READ = 2 * PRUNE_WINDOW_IDS + 10 + BLOCK_SEEKS;
/** A deleted version row writes itself and its four index entries. */
const RUN_ROWS_WRITTEN = 5 * PRUNE_VERSIONS_BATCH;

let containerId: number;
let userId: number;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Versions written on the track's shard as the insert would leave them (ids from the shard's range; numbers after the
 * track's last unless given), in one statement: `rows` travel as one JSON parameter.
 */
async function insertVersions(t: Track, rows: Array<{ hash: string; language?: string; number?: number; cause?: string }>) {
  const { shard, binding, video } = await videoShard(t.videoId);
  await binding.batch([
    allocateIdsStatement(binding, shard, rows.length),
    binding
      .prepare(
        `INSERT INTO subtitle_versions (id, container_id, video_id, language, number, cause, cues, completion, hash, bytes)
         SELECT (SELECT next_id FROM shard_ids WHERE shard = ?4) - ?5 + 1 + key, ?3, ?1, coalesce(json_extract(value, '$.language'), ?2),
           coalesce(json_extract(value, '$.number'),
             coalesce((SELECT max(number) FROM subtitle_versions WHERE video_id = ?1 AND language = ?2), 0) + key + 1),
           coalesce(json_extract(value, '$.cause'), 'edit'), 1, 0, json_extract(value, '$.hash'), 2
         FROM json_each(?6)`,
      )
      .bind(t.videoId, t.language, video.containerId, shard, rows.length, JSON.stringify(rows)),
  ]);
}

/** Versions with these hashes, after the track's last, with their snapshot objects. */
async function addVersions(t: Track, hashes: string[], { objects = true } = {}) {
  await insertVersions(
    t,
    hashes.map((hash) => ({ hash })),
  );
  if (objects) await Promise.all([...new Set(hashes)].map((h) => env.SUBTITLES.put(snapshotKey(t, h), "[]")));
}

/** `n` versions with hashes `<label>-1` ... made in one statement (no objects: R2 deletes of absent keys do nothing). */
const addManyVersions = (t: Track, n: number, label: string) =>
  insertVersions(
    t,
    range(1, n).map((i) => ({ hash: `${label}-${i}` })),
  );

/** Back-dates a track's versions up to number `upTo` (all by default) by `days`. */
const backDate = async (t: Track, days: number, upTo = Number.MAX_SAFE_INTEGER) =>
  (await videoShard(t.videoId)).binding
    .prepare("UPDATE subtitle_versions SET created_at = ?4 WHERE video_id = ?1 AND language = ?2 AND number <= ?3")
    .bind(t.videoId, t.language, upTo, nowSeconds() - days * DAY)
    .run();

async function numbers(t: Track) {
  const { results } = await (
    await videoShard(t.videoId)
  ).binding
    .prepare("SELECT number FROM subtitle_versions WHERE video_id = ?1 AND language = ?2 ORDER BY number")
    .bind(t.videoId, t.language)
    .all<{ number: number }>();
  return results.map((r) => r.number);
}

const exists = async (t: Track, hash: string) => (await env.SUBTITLES.head(snapshotKey(t, hash))) !== null;
/** Every snapshot key of a video (R2 lists 1,000 at most per call). */
async function listed(videoId: number) {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.SUBTITLES.list({ prefix: videoSnapshotPrefix(videoId), cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** The version rows of some videos on every shard (a deleted video's container may be gone, and its placement with it). */
async function versionCount(videoIds: number[]) {
  const counts = await Promise.all(
    shardDbs().map((shard) =>
      shard.$client
        .prepare("SELECT count(*) AS n FROM subtitle_versions WHERE video_id IN (SELECT value FROM json_each(?1))")
        .bind(JSON.stringify(videoIds))
        .first<{ n: number }>(),
    ),
  );
  return counts.reduce((sum, c) => sum + c!.n, 0);
}

async function newTrack(language = "en"): Promise<Track> {
  return { videoId: (await createVideo(containerId)).id, language };
}

/**
 * One round of the walk on the shard of this file's container: the sweep times (a minute apart, from now) whose windows
 * hold its versions' ids. A run looks at window `minute % (reach / window + 1)` of each block of ids, where reach is
 * the widest block's last id from its start (src/db/queries/subtitle-versions.ts); this file's versions are one block
 * (its shard's range), and ids carry on from the other rows the shard's range numbered, so the windows of this file's
 * rows are not the first ones.
 */
async function round(window = PRUNE_WINDOW_IDS) {
  const { shard, binding } = await shardOf(containerId);
  const { lo, hi } = (await binding
    .prepare("SELECT min(id) AS lo, max(id) AS hi FROM subtitle_versions")
    .first<{ lo: number; hi: number }>())!;
  const base = shard * SHARD_ID_RANGE;
  const windows = Math.floor((hi - base) / window) + 1;
  const wanted = new Set(range(Math.floor((lo - base) / window), Math.floor((hi - base) / window)));
  const first = Math.floor(Date.now() / 60_000);
  return range(first, first + windows - 1)
    .filter((m) => wanted.has(m % windows))
    .map((m) => new Date(m * 60_000));
}

type Run = Awaited<ReturnType<typeof pruneVersions>>;
const total = (runs: Run[]) => ({
  pruned: runs.reduce((n, r) => n + r.pruned, 0),
  objects: runs.reduce((n, r) => n + r.objects, 0),
});

beforeAll(async () => {
  containerId = (await createContainer({ title: "Retention" })).id;
  userId = (await createUser()).user.id;
});

// Every sweep looks at every shard's whole table (and due jobs would be re-sent): each test starts with neither.
beforeEach(async () => {
  await env.DB.prepare("DELETE FROM jobs").run();
  for (const shard of shardDbs()) await shard.$client.prepare("DELETE FROM subtitle_versions").run();
});

describe("version retention (the sweeper)", () => {
  it(`prunes versions older than ${VERSION_RETENTION_DAYS} days beyond the newest ${VERSIONS_KEPT}; the current one always stays`, async () => {
    const old = await newTrack();
    await addVersions(
      old,
      range(1, 60).map((n) => `old-${n}`),
    );
    await backDate(old, VERSION_RETENTION_DAYS + 10);
    // Beyond the newest 50 are 1-10, but only 1-5 are past retention.
    const young = await newTrack();
    await addVersions(
      young,
      range(1, 60).map((n) => `young-${n}`),
    );
    await backDate(young, VERSION_RETENTION_DAYS + 1, 5);
    // Three versions a year old: all among the newest 50, the last one current.
    const small = await newTrack("fr");
    await addVersions(small, ["small-1", "small-2", "small-3"]);
    await backDate(small, 365);

    const runs: Run[] = [];
    for (const at of await round()) {
      const result = await sweepJobs({ db: db(), env }, at);
      expect(result).toMatchObject({ resent: [], failed: [] });
      if (result.versions) runs.push(result.versions);
    }
    expect(total(runs)).toEqual({ pruned: 15, objects: 15 });
    expect(await numbers(old)).toEqual(range(11, 60));
    expect(await numbers(young)).toEqual(range(6, 60));
    expect(await numbers(small)).toEqual([1, 2, 3]);
    for (const n of range(1, 10)) expect(await exists(old, `old-${n}`), `old-${n}`).toBe(false);
    for (const n of [11, 60]) expect(await exists(old, `old-${n}`), `old-${n}`).toBe(true);
    for (const n of range(1, 5)) expect(await exists(young, `young-${n}`), `young-${n}`).toBe(false);
    for (const n of range(6, 10)) expect(await exists(young, `young-${n}`), `young-${n}`).toBe(true);
    expect(await exists(small, "small-1")).toBe(true);

    // Nothing more to do: the next round reports nothing (and the job sweep answers what it did before).
    for (const at of await round()) expect(await sweepJobs({ db: db(), env }, at)).toEqual({ resent: [], failed: [] });
  });

  it("keeps a snapshot while a remaining version refers to it, and deletes it once none does", async () => {
    const t = await newTrack();
    // Odd versions up to 9 share one object; every even version shares another, kept by the even versions above 10.
    await addVersions(
      t,
      range(1, 60).map((n) => (n % 2 === 0 ? "even" : n < 10 ? "odd-early" : `late-${n}`)),
    );
    // A version of another track with the same content has its own object (snapshots are named by track).
    const other = await newTrack();
    await addVersions(other, ["odd-early"]);
    await backDate(t, VERSION_RETENTION_DAYS + 1);
    await backDate(other, VERSION_RETENTION_DAYS + 1);

    const prune = async () => {
      const runs: Run[] = [];
      for (const at of await round()) runs.push(await pruneVersions({ db: db(), env }, at));
      return total(runs);
    };
    expect(await prune()).toEqual({ pruned: 10, objects: 1 });
    expect(await numbers(t)).toEqual(range(11, 60));
    expect(await exists(t, "odd-early")).toBe(false);
    expect(await exists(t, "even")).toBe(true);
    expect(await exists(other, "odd-early")).toBe(true);

    // Restoring known content makes a new version carrying an old hash: its object is kept while that version lives.
    await addVersions(t, ["late-11"]);
    await backDate(t, VERSION_RETENTION_DAYS + 1);
    await addVersions(
      t,
      range(1, 10).map((n) => `later-${n}`),
    );
    await backDate(t, VERSION_RETENTION_DAYS + 1);
    expect(await prune()).toEqual({ pruned: 11, objects: 5 });
    expect(await numbers(t)).toEqual(range(22, 71));
    // late-11 (version 11, pruned) is version 61 again; late-13 ... late-21 went with 13 ... 21.
    expect(await exists(t, "late-11")).toBe(true);
    expect(await exists(t, "late-13")).toBe(false);
    expect(await exists(t, "even")).toBe(true);
  });

  it(`deletes at most ${PRUNE_VERSIONS_BATCH} rows per run, reading a window of ${PRUNE_WINDOW_IDS} ids whatever the table holds`, async () => {
    const big = await newTrack();
    await addManyVersions(big, 1_250, "big");
    // 3,000 tracks of one old version each: kept for ever (each is its track's current version). A scan for prunable
    // rows by age alone would read all of them every minute.
    const kept = await createVideo(containerId);
    await insertVersions(
      { videoId: kept.id, language: "x" },
      range(1, 3000).map((i) => ({ hash: `kept-${i}`, language: `x${i}`, number: 1, cause: "import" })),
    );
    await (
      await shardOf(containerId)
    ).binding
      .prepare("UPDATE subtitle_versions SET created_at = ?1")
      .bind(nowSeconds() - (VERSION_RETENTION_DAYS + 1) * DAY)
      .run();

    const runs: Run[] = [];
    const times = await round();
    for (let r = 0; r < 4 && (await numbers(big)).length > VERSIONS_KEPT; r++) {
      for (const at of times) runs.push(await pruneVersions({ db: db(), env }, at));
    }
    console.log(JSON.stringify({ bench: "version-prune", runs }));
    expect(await numbers(big)).toEqual(range(1_201, 1_250));
    expect(total(runs).pruned).toBe(1_200);
    expect(Math.max(...runs.map((r) => r.pruned))).toBe(PRUNE_VERSIONS_BATCH);
    for (const run of runs) {
      expect(run.rows_read).toBeLessThanOrEqual(RUN_ROWS_READ);
      expect(run.rows_written).toBeLessThanOrEqual(RUN_ROWS_WRITTEN);
    }
    expect(await versionCount([kept.id])).toBe(3_000);
    // A run with nothing to prune reads its window (2,000 old rows kept for ever in one of them) and no more.
    for (const at of times) {
      const idle = await pruneVersions({ db: db(), env }, at);
      expect(idle.pruned).toBe(0);
      expect(idle.rows_read).toBeLessThanOrEqual(IDLE_ROWS_READ);
    }
  });

  it("walks the ids a window per minute: one round of windows prunes everything prunable", async () => {
    const tracks = [await newTrack(), await newTrack(), await newTrack()];
    for (const t of tracks) {
      await addManyVersions(t, 60, `walk-${t.videoId}`);
      await backDate(t, VERSION_RETENTION_DAYS + 1);
    }
    // Windows of 40 ids over 180 rows: each run reads its 40 (and a probe per old row), the round prunes all 30.
    const times = await round(40);
    expect(times.length).toBeGreaterThanOrEqual(5);
    const runs: Run[] = [];
    for (const at of times) runs.push(await pruneVersions({ db: db(), env }, at, { window: 40 }));
    expect(total(runs).pruned).toBe(30);
    expect(runs.filter((r) => r.pruned).length).toBeGreaterThanOrEqual(2);
    for (const run of runs) expect(run.rows_read).toBeLessThanOrEqual(3 * 40 + 2 * 60 + BLOCK_SEEKS);
    for (const t of tracks) expect(await numbers(t)).toEqual(range(11, 60));
  });
});

describe("snapshots go with their video", () => {
  async function importTrack(videoId: number, language: string, cues: number) {
    const job = await importJob(userId, videoId, language, srtOf(makeCues(cues, `${language} line`)));
    await deliver({ type: "srt-import", jobId: job.id });
    expect((await findJob(db(), job.id))!.status).toBe("succeeded");
  }

  it("DELETE /v4/videos/<id>.json deletes the video's snapshot objects after its rows, and no other video's", async () => {
    const staff = await signedInUser({ staff: true });
    const video = await createVideo(containerId);
    const neighbour = await createVideo(containerId);
    await importTrack(video.id, "en", 20);
    await importTrack(video.id, "fr", 20);
    await importTrack(neighbour.id, "en", 20);
    expect(await listed(video.id)).toHaveLength(2);

    const res = await api(`/v4/videos/${video.wireId}.json?token=${staff.token}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await versionCount([video.id])).toBe(0);
    expect(await listed(video.id)).toEqual([]);
    expect(await listed(neighbour.id)).toHaveLength(1);
  });

  it("deletes a video's snapshots a page of keys at a time, every page; again, nothing", async () => {
    const video = await createVideo(containerId);
    await Promise.all(range(1, 25).map((n) => env.SUBTITLES.put(snapshotKey({ videoId: video.id, language: "de" }, `h${n}`), "[]")));
    // A neighbour whose id starts with the same digits is another prefix (`subtitle-versions/<id>/`).
    const prefixed = { videoId: Number(`${video.id}0`), language: "de" };
    await env.SUBTITLES.put(snapshotKey(prefixed, "other"), "[]");
    expect(await deleteVideoSnapshots(env, video.id, 10)).toBe(25);
    expect(await listed(video.id)).toEqual([]);
    expect(await exists(prefixed, "other")).toBe(true);
    expect(await deleteVideoSnapshots(env, video.id, 10)).toBe(0);
  });

  it("the container-delete job deletes the versions of its videos and their objects; a replay does nothing more", async () => {
    const c = await createContainer({ title: "Going" });
    // More videos with versions than one cleanup statement takes (CLEANUP_VIDEOS), two versions each, and one import.
    const videos = await Promise.all(range(1, CLEANUP_VIDEOS + 2).map(() => createVideo(c.id)));
    for (const v of videos) await addVersions({ videoId: v.id, language: "en" }, [`${v.id}-a`, `${v.id}-b`]);
    await importTrack(videos[0].id, "fr", 5);
    const bystander = await newTrack();
    await addVersions(bystander, ["stays"]);

    const job = await insertJob(db(), { type: "container-delete", params: { containerId: c.id } });
    await deliver({ type: "container-delete", jobId: job.id });
    const done = (await findJob(db(), job.id))!;
    expect(done.status, String(done.error)).toBe("succeeded");
    const versions = 2 * videos.length + 1;
    expect(done.result).toMatchObject({
      deleted: { subtitle_versions: versions, videos: videos.length, containers: 1 },
      snapshots: versions,
    });
    for (const v of videos) expect(await listed(v.id), `video ${v.id}`).toEqual([]);
    expect(await versionCount(videos.map((v) => v.id))).toBe(0);
    expect(await exists(bystander, "stays")).toBe(true);

    // A replay (at least once delivery) finds nothing left and succeeds.
    await env.DB.prepare("UPDATE jobs SET status = 'queued' WHERE id = ?1").bind(job.id).run();
    await deliver({ type: "container-delete", jobId: job.id });
    expect((await findJob(db(), job.id))!.result).toMatchObject({ deleted: { subtitle_versions: 0, containers: 0 }, snapshots: 0 });
  });

  it("the container-delete job continues across deliveries when it needs more statements than one may make", async () => {
    const c = await createContainer({ title: "Going slowly" });
    const videos = await Promise.all(range(1, CLEANUP_VIDEOS + 2).map(() => createVideo(c.id)));
    for (const v of videos) await addVersions({ videoId: v.id, language: "en" }, [`${v.id}-a`, `${v.id}-b`]);
    await importTrack(videos[0].id, "fr", 5);
    // Five statements a delivery: the versions (two chunks and their objects) and the rows take several deliveries.
    const job = await insertJob(db(), { type: "container-delete", params: { containerId: c.id, statementsPerDelivery: 5 } });
    await deliver({ type: "container-delete", jobId: job.id });
    await expect.poll(async () => (await findJob(db(), job.id))?.status, { timeout: 20_000 }).toBe("succeeded");
    const done = (await findJob(db(), job.id))!;
    const versions = 2 * videos.length + 1;
    // The tallies are the whole job's, summed over its deliveries.
    expect(done.result).toMatchObject({
      deleted: { subtitle_versions: versions, videos: videos.length, containers: 1 },
      snapshots: versions,
    });
    expect((done.result as { statements: number }).statements).toBeGreaterThan(5);
    for (const v of videos) expect(await listed(v.id), `video ${v.id}`).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM containers WHERE id = ?1").bind(c.id).first()).toEqual({ n: 0 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM shard_cleanups WHERE container_id = ?1").bind(c.id).first()).toEqual({ n: 0 });
  });
});
