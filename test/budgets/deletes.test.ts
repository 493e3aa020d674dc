// Delete budgets (docs/decisions.md, "Large container deletes become a job") on the large catalogue (10,000
// containers, ~126,000 videos) with subtitle history volume (two rows per video): deleting a video reads at most
// 1,000 rows; deleting a container does bounded work per request: a small one in the request (204), a large one
// hidden at once and removed in chunks by a container-delete job (202), no chunk statement reading more than the
// chunk budget.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { CONTAINER_DELETE_SYNC_ROWS } from "../../src/services/container-delete";
import { api, rowsRead, signedInUser } from "../helpers";
import { waitForJob, type JobWire } from "../helpers/jobs";
import { CONTAINER_BASE, seedLargeCatalogue, seedLargeHistories } from "../helpers/large-catalogue";
import { allocateIdsStatement, shardDbs } from "../helpers/shards";
import { usernameOf, videoShard } from "../helpers/localisation";
import { containerRowCounts } from "../../src/db/queries/shard-rows";

const VIDEO_DELETE_BUDGET = 1_000;
const ROWS_PER_OWN_ROW = 10;
/** A small container goes in one statement: about 10 rows read per row it takes with it. */
const SYNC_CONTAINER_BUDGET = 10 * CONTAINER_DELETE_SYNC_ROWS;
/** Weighing a large container and hiding it: the weight stops counting past the threshold. */
const ASYNC_REQUEST_BUDGET = 2 * CONTAINER_DELETE_SYNC_ROWS + 500;
/** The most one statement of the container-delete job may read (what any other request may wait behind). */
const CHUNK_BUDGET = 5_000;

type Staff = Awaited<ReturnType<typeof signedInUser>>;
let staff: Staff;
let historyRows = 0;
const measured: Array<{ what: string; rows: number; budget: number; status: number }> = [];

const one = <T>(sql: string, ...binds: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...binds)
    .first<T>();
const count = async (sql: string, ...binds: unknown[]) => (await one<{ n: number }>(sql, ...binds))!.n;

async function measuredDelete(what: string, path: string, budget: number) {
  const res = await api(`${path}?token=${staff.token}`, { method: "DELETE" });
  const rows = rowsRead(res);
  measured.push({ what, rows, budget, status: res.status });
  return { res, rows };
}

/**
 * Subtitling work on a video, on its container's shard (docs/decisions.md, "Subtitles on the shards"): `segments`
 * segments, an English and a French subtitle on each, a history row per segment and subtitle, timed comments and
 * votes, all by `userId`. Ids from the shard's range: 6 per segment (itself, two subtitles, three histories),
 * allocated first in the batch; `base` is the id before the first of them.
 */
async function subtitle(videoId: number, containerId: number, userId: number, segments: number) {
  const { shard, binding } = await videoShard(videoId);
  const username = await usernameOf(userId);
  const seq = `WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?2)`;
  const ids = 6 * segments;
  const base = `((SELECT next_id FROM shard_ids WHERE shard = ${shard}) - ${ids})`;
  await binding.batch([
    allocateIdsStatement(binding, shard, ids),
    binding
      .prepare(
        `${seq} INSERT INTO segments (id, container_id, video_id, start_ms, end_ms, author_id)
         SELECT ${base} + n, ?4, ?1, n * 2000, n * 2000 + 1500, ?3 FROM k`,
      )
      .bind(videoId, segments, userId, containerId),
    binding
      .prepare(
        `INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text, author_id, author_username)
         SELECT ${base} + ?2 + 2 * (s.id - ${base}) - (l.value = 'en'), s.container_id, s.id, s.video_id, l.value,
           'line ' || s.id, ?3, ?4
         FROM segments s, json_each('["en","fr"]') l WHERE s.video_id = ?1`,
      )
      .bind(videoId, segments, userId, username),
    binding
      .prepare(
        `INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, segment_id, subtitle_id, language, text)
         SELECT ${base} + 3 * ?2 + (id - ${base} - ?2), 'subtitle', ?3, ?4, video_id, container_id, segment_id, id, language, text
         FROM subtitles WHERE video_id = ?1
         UNION ALL SELECT ${base} + 5 * ?2 + (id - ${base}), 'segment', ?3, ?4, video_id, container_id, id, NULL, NULL, NULL
         FROM segments WHERE video_id = ?1`,
      )
      .bind(videoId, segments, userId, username),
    binding
      .prepare(
        `INSERT INTO translation_votes (user_id, subtitle_id, container_id, video_id, value)
         SELECT ?2, id, container_id, video_id, 1 FROM subtitles WHERE video_id = ?1 AND language = 'fr'`,
      )
      .bind(videoId, userId),
    binding
      .prepare(
        `${seq} INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment)
         SELECT ?4 + n, ?5, ?1, 'en', ?3, 'staff', n * 500, 'wow' FROM k`,
      )
      .bind(videoId, Math.ceil(segments / 5), userId, shard * SHARD_ID_RANGE + 2 ** 31 + videoId * 1000, containerId),
  ]);
}

/** Rows of videos in a shard table, on whichever shard holds them. */
async function shardRowsOf(table: string, videoIds: number[]) {
  const counts = await Promise.all(
    shardDbs().map((d) =>
      d.$client.prepare(`SELECT count(*) AS n FROM ${table} WHERE video_id IN (${videoIds.join(",")})`).first<{ n: number }>(),
    ),
  );
  return counts.reduce((sum, r) => sum + (r?.n ?? 0), 0);
}

const SHARD_VIDEO_TABLES = ["segments", "subtitles", "subtitle_histories", "translation_votes", "timed_comments"];

/** The rows a video's delete takes with it: its catalogue row and its shard rows. */
async function ownRows(videoId: number) {
  const shard = await Promise.all([...SHARD_VIDEO_TABLES, "video_facts"].map((t) => shardRowsOf(t, [videoId])));
  return 1 + shard.reduce((a, b) => a + b, 0);
}

/** Every row a container has on the shards (what its cleanup deletes), also once its directory entry is gone. */
async function containerShardRows(containerId: number) {
  const counts = await Promise.all(shardDbs().map(async (d) => Object.values(await containerRowCounts(d, containerId))));
  return counts.flat().reduce((a, b) => a + b, 0);
}

/** A normal-state container of the large catalogue with about `videos` videos. */
async function containerWithVideos(videos: number) {
  const row = await one<{ id: number; n: number }>(
    `SELECT container_id AS id, count(*) AS n FROM videos WHERE container_id > ?1
       AND container_id IN (SELECT id FROM containers WHERE state = 'normal')
     GROUP BY container_id HAVING n >= ?2 ORDER BY n, container_id LIMIT 1`,
    CONTAINER_BASE,
    videos,
  );
  return row!;
}

beforeAll(async () => {
  const seeded = await seedLargeCatalogue(10_000);
  const histories = await seedLargeHistories(2);
  historyRows = histories.rows;
  console.log(
    `large catalogue seeded in ${seeded.seconds.toFixed(1)} s (${seeded.counts.videos} videos), ` +
      `${histories.rows} subtitle histories in ${histories.seconds.toFixed(1)} s`,
  );
  staff = await signedInUser({ staff: true });
}, 600_000);

afterAll(() => {
  const lines = measured.map((m) => `| ${m.what} | ${m.status} | ${m.rows} | ${m.budget} |`);
  console.log(["| delete | status | rows read | budget |", "|---|---|---|---|", ...lines].join("\n"));
});

describe("the seeded catalogue", () => {
  it("has subtitle history volume that a scan would show", () => {
    expect(historyRows).toBeGreaterThanOrEqual(200_000);
  });
});

describe("DELETE /v4/videos/<id>.json", () => {
  it(`an untouched video reads at most ${VIDEO_DELETE_BUDGET} rows`, async () => {
    const video = (await one<{ id: number }>(
      "SELECT id FROM videos WHERE container_id > ?1 ORDER BY id LIMIT 1 OFFSET 5000",
      CONTAINER_BASE,
    ))!;
    const { res, rows } = await measuredDelete("video (2 histories)", `/v4/videos/${video.id}v.json`, VIDEO_DELETE_BUDGET);
    expect(res.status).toBe(204);
    expect(rows).toBeLessThanOrEqual(VIDEO_DELETE_BUDGET);
    expect(await shardRowsOf("subtitle_histories", [video.id])).toBe(0);
  });

  // Its own rows cost a few reads each (the row, its cascades' index lookups, the contributions it updates);
  // nothing grows with the size of the tables.
  it(`a subtitled video reads at most ${ROWS_PER_OWN_ROW} rows per row it takes with it`, async () => {
    const video = (await one<{ id: number; container_id: number }>(
      "SELECT id, container_id FROM videos WHERE container_id > ?1 ORDER BY id LIMIT 1 OFFSET 7000",
      CONTAINER_BASE,
    ))!;
    await subtitle(video.id, video.container_id, staff.user.id, 40);
    const own = await ownRows(video.id);
    const budget = ROWS_PER_OWN_ROW * own;
    const { res, rows } = await measuredDelete(`video (subtitled: ${own} rows of its own)`, `/v4/videos/${video.id}v.json`, budget);
    expect(res.status).toBe(204);
    expect(rows).toBeLessThanOrEqual(budget);
    for (const table of SHARD_VIDEO_TABLES) expect(await shardRowsOf(table, [video.id]), table).toBe(0);
  });
});

describe("DELETE /v4/containers/<id>.json", () => {
  it(`a container of about 40 videos is deleted in the request (204), reading at most ${SYNC_CONTAINER_BUDGET} rows`, async () => {
    const c = await containerWithVideos(40);
    const { res, rows } = await measuredDelete(`container (${c.n} videos)`, `/v4/containers/${c.id}c.json`, SYNC_CONTAINER_BUDGET);
    expect(res.status).toBe(204);
    expect(rows).toBeLessThanOrEqual(SYNC_CONTAINER_BUDGET);
    expect(await count("SELECT count(*) AS n FROM videos WHERE container_id = ?1", c.id)).toBe(0);
    expect(await containerShardRows(c.id)).toBe(0);
  });

  it(`a container taking more than ${CONTAINER_DELETE_SYNC_ROWS} rows is hidden at once and removed by a job in bounded chunks`, async () => {
    const c = await containerWithVideos(60);
    const videos = (
      await env.DB.prepare("SELECT id FROM videos WHERE container_id = ?1 ORDER BY id LIMIT 3").bind(c.id).all<{ id: number }>()
    ).results;
    for (const v of videos) await subtitle(v.id, c.id, staff.user.id, 200);
    expect((await api(`/v4/containers/${c.id}c.json`)).status).toBe(200);
    // Its shard rows make it large: the catalogue's alone (60 videos) would not.
    const shardRows = await containerShardRows(c.id);

    const { res, rows } = await measuredDelete(
      `container (${c.n} videos, 600 segments), request`,
      `/v4/containers/${c.id}c.json`,
      ASYNC_REQUEST_BUDGET,
    );
    expect(res.status).toBe(202);
    expect(rows).toBeLessThanOrEqual(ASYNC_REQUEST_BUDGET);
    const { job } = (await res.json()) as { job: JobWire };
    expect(job.type).toBe("container-delete");
    // Hidden before the job has run: the public no longer sees it.
    expect((await api(`/v4/containers/${c.id}c.json`)).status).toBe(404);

    const done = await waitForJob(job.id, staff.token, 60_000);
    expect(done.status, done.error ?? "").toBe("succeeded");
    const result = done.result as { deleted: Record<string, number>; statements: number; max_rows_read: number };
    measured.push({
      what: `container-delete job, largest chunk (${result.statements} statements)`,
      rows: result.max_rows_read,
      budget: CHUNK_BUDGET,
      status: 200,
    });
    expect(result.max_rows_read).toBeLessThanOrEqual(CHUNK_BUDGET);
    expect(result.deleted).toMatchObject({ videos: c.n, containers: 1 });
    // Its subtitle family and timed comments were on the container's shard: the job drained its cleanup (600
    // segments, 1,200 subtitles, 1,800 histories, 600 votes, 120 comments, the seeded histories and the facts rows).
    expect(shardRows).toBeGreaterThan(600 + 1200 + 1800 + 600 + 120);
    expect(done.result).toMatchObject({ shard_rows: shardRows });
    expect(await containerShardRows(c.id)).toBe(0);
    for (const [table, column] of [
      ["containers", "id"],
      ["videos", "container_id"],
      ["container_facets", "container_id"],
    ]) {
      expect(await count(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?1`, c.id), table).toBe(0);
    }
    for (const table of SHARD_VIDEO_TABLES)
      expect(
        await shardRowsOf(
          table,
          videos.map((v) => v.id),
        ),
        table,
      ).toBe(0);
  });

  it("deleting it again while a job removes it queues another: both succeed (a replay finds what is left)", async () => {
    const c = await containerWithVideos(60);
    const videos = (
      await env.DB.prepare("SELECT id FROM videos WHERE container_id = ?1 ORDER BY id LIMIT 2").bind(c.id).all<{ id: number }>()
    ).results;
    for (const v of videos) await subtitle(v.id, c.id, staff.user.id, 200);
    const first = await measuredDelete("container, again", `/v4/containers/${c.id}c.json`, ASYNC_REQUEST_BUDGET);
    expect(first.res.status).toBe(202);
    const second = await api(`/v4/containers/${c.id}c.json?token=${staff.token}`, { method: "DELETE" });
    expect([202, 204, 404]).toContain(second.status);
    const jobs = [((await first.res.json()) as { job: JobWire }).job];
    if (second.status === 202) jobs.push(((await second.json()) as { job: JobWire }).job);
    let containersDeleted = 0;
    for (const j of jobs) {
      const done = await waitForJob(j.id, staff.token, 60_000);
      expect(done.status).toBe("succeeded");
      containersDeleted += (done.result as { deleted: { containers: number } }).deleted.containers;
    }
    expect(containersDeleted).toBe(1);
    expect(await count("SELECT count(*) AS n FROM containers WHERE id = ?1", c.id)).toBe(0);
  });
});
