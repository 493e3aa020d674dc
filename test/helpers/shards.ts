import { env } from "cloudflare:workers";
import { findJob, insertJob } from "../../src/db/queries/jobs";
import { allocateShardIdsStatement, SHARD_ID_RANGE } from "../../src/db/queries/shard-rows";
import { findPlacement } from "../../src/db/queries/shards";
import { insertTimedComment } from "../../src/db/queries/timed-comments";
import { createShardDb, shardBinding } from "../../src/db/shards";
import { eq } from "drizzle-orm";
import { shardDirectory } from "../../src/db/schema";
import { createContainer, createVideo } from "./catalogue";
import { db, signedInUser } from "./index";
import { deliver } from "./subtitles";

/** The shard a container's rows live on (the directory), and that shard's database. */
export async function shardOf(containerId: number) {
  const placement = await findPlacement(db(), containerId);
  if (!placement) throw new Error(`container ${containerId} has no directory entry`);
  return { shard: placement.shard, db: createShardDb(shardBinding(env, placement.shard)), binding: shardBinding(env, placement.shard) };
}

/** Both test shards' databases (test/setup.ts migrates SHARD_1 and SHARD_2). */
export const shardDb = (n: number) => createShardDb(shardBinding(env, n));

/** The other of the two test shards: where a move from `shard` goes. */
export const otherShard = (shard: number) => (shard === 1 ? 2 : 1);

/** The directory as a move leaves it once it has started towards `to` (the mark its copy and fence run under). */
export const markMoving = (containerId: number, to: number) =>
  db().update(shardDirectory).set({ movingTo: to }).where(eq(shardDirectory.containerId, containerId));

/** The callers of the move tests: a user who writes the rows a move carries, and staff who start and read its jobs. */
export async function authorAndStaff() {
  return { author: await signedInUser(), staff: await signedInUser({ staff: true }) };
}

export const shardDbs = () => [1, 2].map((n) => createShardDb(shardBinding(env, n)));

/** A timed comment written where the API would write it (the container's shard, an id from its range). */
export async function addTimedComment(row: { videoId: number; language: string; userId: number; timeMs: number; comment: string }) {
  const video = await env.DB.prepare(
    "SELECT v.container_id AS containerId, u.username FROM videos v, users u WHERE v.id = ?1 AND u.id = ?2",
  )
    .bind(row.videoId, row.userId)
    .first<{ containerId: number; username: string }>();
  if (!video) throw new Error(`no video ${row.videoId} or user ${row.userId}`);
  const { shard, db: shardDb } = await shardOf(video.containerId);
  return insertTimedComment(shardDb, shard, { ...row, containerId: video.containerId, username: video.username });
}

/**
 * Subtitle-family rows written straight to a container's shard, as a writer of the subtitle family does there
 * (docs/decisions.md, "Shards: the subtitle family"): the container's and video's facts first (a writer's own, change
 * 0, insert only), then `cues` segments with a subtitle in each language, ids from the shard's range.
 */
export async function putShardSubtitles(video: { id: number; containerId: number }, languages: string[], cues: number, base: number) {
  const facts = await env.DB.prepare(
    "SELECT c.state AS cs, c.origin_language AS co, v.state AS vs, v.origin_language AS vo, v.number AS n FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = ?",
  )
    .bind(video.id)
    .first<{ cs: string; co: string; vs: string; vo: string; n: number | null }>();
  if (!facts) throw new Error(`no video ${video.id}`);
  const { shard, binding } = await shardOf(video.containerId);
  const first = shard * SHARD_ID_RANGE + base;
  await binding.batch([
    binding
      .prepare("INSERT INTO container_facts (container_id, state, origin_language) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(video.containerId, facts.cs, facts.co),
    binding
      .prepare(
        "INSERT INTO video_facts (video_id, container_id, state, origin_language, number) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      )
      .bind(video.id, video.containerId, facts.vs, facts.vo, facts.n),
    binding
      .prepare(
        `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k + 1 < ?4)
         INSERT INTO segments (id, container_id, video_id, start_ms, end_ms) SELECT ?1 + k, ?2, ?3, k * 1000, k * 1000 + 900 FROM n`,
      )
      .bind(first, video.containerId, video.id, cues),
    ...languages.map((language, i) =>
      binding
        .prepare(
          `INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text)
           SELECT id + ?1, container_id, id, video_id, ?2, ?2 || ' cue ' || start_ms FROM segments WHERE video_id = ?3 AND id >= ?4`,
        )
        .bind((i + 1) * cues, language, video.id, first),
    ),
  ]);
  return { shard, binding, first };
}

/** A `container-move` job (no grace wait) run to its end by the real consumer: the job row after it. */
export async function moveContainer(containerId: number, from: number, to: number) {
  const job = await insertJob(db(), { type: "container-move", params: { containerId, from, to } });
  // A large move continues over several deliveries (docs/decisions.md, "Jobs that continue"): each is delivered here.
  for (let delivery = 0; delivery < 50; delivery++) {
    await deliver({ type: "container-move", jobId: job.id });
    const found = await findJob(db(), job.id);
    if (found?.status !== "queued" && found?.status !== "running") return found;
  }
  return findJob(db(), job.id);
}

/** `allocateShardIdsStatement` as a prepared statement, for a test's raw batch on a shard binding (ids then end at next_id). */
export function allocateIdsStatement(binding: D1Database, shard: number, n: number) {
  const q = allocateShardIdsStatement(createShardDb(binding), shard, n).toSQL();
  return binding.prepare(q.sql).bind(...q.params);
}

/**
 * A container with `perVideo` timed comments on each of its `videos` videos by `author`, written straight into its
 * shard with ids from its range (`idBase` keeps two files' rows apart), for the move and claim tests.
 */
export async function commentedContainer(
  author: { user: { id: number; username: string } },
  { videos = 2, perVideo, idBase = 1_000_000 }: { videos?: number; perVideo: number; idBase?: number },
) {
  const c = await createContainer();
  const vs = [];
  for (let i = 0; i < videos; i++) vs.push(await createVideo(c.id, { number: i + 1 }));
  const { shard, binding } = await shardOf(c.id);
  for (const [i, v] of vs.entries()) {
    await binding
      .prepare(
        `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?4)
         INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment)
         SELECT ?1 + k, ?2, ?3, 'en', ?5, ?6, k * 10, 'comment ' || k FROM n`,
      )
      .bind(shard * SHARD_ID_RANGE + idBase + c.id * 100_000 + i * 10_000, c.id, v.id, perVideo, author.user.id, author.user.username)
      .run();
  }
  return { container: c, videos: vs, shard };
}
