import { type SQL, and, desc, eq, inArray, sql } from "drizzle-orm";
import type { VERSION_CAUSES } from "../schema";
import { subtitleVersions } from "../shard-schema";
import type { ShardDB } from "../shards";
import { nextShardId, nextShardIdStatement } from "./shard-rows";

/**
 * A track's versions, on its container's shard with the rest of its family (docs/decisions.md, "Subtitle versions" and
 * "Subtitles on the shards"); their cues are R2 objects (src/services/subtitle-versions.ts).
 */

export type VersionRow = typeof subtitleVersions.$inferSelect;
type VersionCause = (typeof VERSION_CAUSES)[number];

export interface NewVersion {
  containerId: number;
  videoId: number;
  language: string;
  cause: VersionCause;
  authorId: number | null;
  applicationId: number | null;
  cues: number;
  hash: string;
  bytes: number;
  restoredFrom?: number | null;
}

/**
 * The next version of a track in one statement, so two writers never take one number: its number follows the track's
 * last, its completion is the cues over the video's segments, floored (as the completion job counts them; D1 binds a
 * JavaScript number as REAL, so the cast keeps the division whole), and nothing is
 * written when the track's last version has the same hash (re-importing identical content makes no version). Its id
 * comes from the shard's range: the counter's statement goes first in the batch (a version not written wastes the id).
 * The insert returns the row written, if any.
 */
export function insertVersionStatements(db: ShardDB, shard: number, v: NewVersion): SQL[] {
  return [
    nextShardIdStatement(db, shard).getSQL(),
    sql`INSERT INTO subtitle_versions
      (id, container_id, video_id, language, number, author_id, application_id, cause, cues, completion, hash, bytes, restored_from)
    SELECT ${nextShardId(shard)}, ${v.containerId}, ${v.videoId}, ${v.language},
      coalesce((SELECT max(number) FROM subtitle_versions WHERE video_id = ${v.videoId} AND language = ${v.language}), 0) + 1,
      ${v.authorId}, ${v.applicationId}, ${v.cause}, ${v.cues},
      coalesce((SELECT (100 * CAST(${v.cues} AS INTEGER)) / nullif(count(*), 0) FROM segments WHERE video_id = ${v.videoId}), 0),
      ${v.hash}, ${v.bytes}, ${v.restoredFrom ?? null}
    WHERE coalesce((SELECT hash FROM subtitle_versions WHERE video_id = ${v.videoId} AND language = ${v.language}
      ORDER BY number DESC LIMIT 1), '') <> ${v.hash}
    RETURNING *`,
  ];
}

/** The track's last version (one probe of subtitle_versions_track_number). */
export const latestVersionQuery = (db: ShardDB, videoId: number, language: string) =>
  db
    .select()
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language)))
    .orderBy(desc(subtitleVersions.number))
    .limit(1);

/** A page of the track's versions, newest first (`limit` is per_page + 1, the extra row only says `more`). */
export const versionPageQuery = (db: ShardDB, videoId: number, language: string, offset: number, limit: number) =>
  db
    .select()
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language)))
    .orderBy(desc(subtitleVersions.number))
    .limit(limit)
    .offset(offset);

export const countVersionsQuery = (db: ShardDB, videoId: number, language: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language)));

/** Some versions of a track by number. */
export const versionsByNumberQuery = (db: ShardDB, videoId: number, language: string, numbers: number[]) =>
  db
    .select()
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language), inArray(subtitleVersions.number, numbers)));

// ---- retention and cleanup (src/services/subtitle-retention.ts), each on one shard ----

/** A version row deleted by pruning or cleanup: enough to name its snapshot object. */
export interface GoneVersion {
  videoId: number;
  language: string;
  hash: string;
}

/** What a pruning statement did, from D1's meta: the bound `test/jobs/sweeper-versions.test.ts` checks. */
interface PruneCost {
  pruned: GoneVersion[];
  rowsRead: number;
  rowsWritten: number;
  /** The shard database's size after the statement (D1's `size_after`), 0 where the runtime does not say. */
  bytes: number;
}

interface PruneBounds {
  /** Versions created before this (unix seconds) may go... */
  beforeSeconds: number;
  /** ...unless they are among the newest `keep` of their track (the track's last version always is). */
  keep: number;
  /** Which window of ids this run looks at: the minute since the epoch, modulo the number of windows. */
  turn: number;
  /** Ids per window (in each block of ids): the rows this statement reads, whatever the table holds. */
  window: number;
  /** Rows deleted at most. */
  limit: number;
  /** Containers this shard does not answer for (`shardMapQuery`): their versions are pruned on their other shard. */
  leftOut: readonly number[];
}

/**
 * One pruning step on one shard, in one statement. The candidates are read by id range, never by a scan of every old
 * row: the old versions a track keeps (its newest `keep`) stay old for ever, and a scan for the prunable ones would
 * read all of them every minute to find a few. A shard's ids come in blocks of 2^32 (the ids copied from the
 * catalogue, its own range, the ranges of containers moved to it: docs/decisions.md, "Shards"), found by a loose
 * index scan of the primary key (two seeks a block). Each block is cut in windows of `window` ids from its start, as
 * many as the widest block needs; this run reads window `turn` modulo their number in every block, the next minute the
 * next. Each old candidate costs a probe of subtitle_versions_track_number for its track's last number. Candidates
 * come in the scan's order (block by block, ids ascending): no sort, which D1 would bill as rows read again. Numbers
 * only grow, so a row past its track's newest `keep` stays prunable, whichever run takes it.
 */
export async function pruneVersionRows(db: ShardDB, b: PruneBounds): Promise<PruneCost> {
  // Usually no container is left out: the test is left out then, as D1 bills its lookup as a row read per candidate.
  const leftOut = b.leftOut.length ? "AND sv.container_id NOT IN (SELECT value FROM json_each(?6))" : "";
  const res = await db.$client
    .prepare(
      `WITH RECURSIVE blocks(lo) AS (
         SELECT (SELECT min(id) FROM subtitle_versions)
         UNION ALL
         SELECT (SELECT min(id) FROM subtitle_versions WHERE id >= (((blocks.lo >> 32) + 1) << 32)) FROM blocks WHERE blocks.lo IS NOT NULL),
       spans(base, reach) AS (
         SELECT (lo >> 32) << 32, (SELECT max(id) FROM subtitle_versions WHERE id < (((lo >> 32) + 1) << 32)) - ((lo >> 32) << 32)
         FROM blocks WHERE lo IS NOT NULL),
       w(lo) AS (SELECT (?3 % (coalesce(max(reach), 0) / ?4 + 1)) * ?4 FROM spans)
       DELETE FROM subtitle_versions WHERE id IN (
         SELECT sv.id FROM spans CROSS JOIN subtitle_versions sv
         WHERE sv.id >= spans.base + (SELECT lo FROM w) AND sv.id < spans.base + (SELECT lo FROM w) + ?4
           AND sv.created_at < ?1
           AND sv.number <= (SELECT max(m.number) FROM subtitle_versions m
                             WHERE m.video_id = sv.video_id AND m.language = sv.language) - ?2
           ${leftOut}
         LIMIT ?5)
       RETURNING video_id, language, hash`,
    )
    .bind(b.beforeSeconds, b.keep, b.turn, b.window, b.limit, ...(b.leftOut.length ? [JSON.stringify(b.leftOut)] : []))
    .all<{ video_id: number; language: string; hash: string }>();
  return {
    pruned: res.results.map((r) => ({ videoId: r.video_id, language: r.language, hash: r.hash })),
    rowsRead: res.meta.rows_read ?? 0,
    rowsWritten: res.meta.rows_written ?? 0,
    bytes: res.meta.size_after ?? 0,
  };
}

/**
 * The hashes the remaining versions of some tracks still carry, in one query: the snapshot objects not to delete. It
 * reads the rows left in those tracks (through subtitle_versions_track_number), json_each first (CROSS JOIN). A
 * track's versions are all on its container's shard, the one its pruned rows came from.
 */
export async function referencedHashes(db: ShardDB, tracks: Array<{ videoId: number; language: string }>) {
  if (!tracks.length) return { rows: [] as GoneVersion[], rowsRead: 0 };
  const res = await db.$client
    .prepare(
      `SELECT DISTINCT sv.video_id, sv.language, sv.hash
       FROM json_each(?1) t CROSS JOIN subtitle_versions sv
       WHERE sv.video_id = json_extract(t.value, '$[0]') AND sv.language = json_extract(t.value, '$[1]')`,
    )
    .bind(JSON.stringify(tracks.map((t) => [t.videoId, t.language])))
    .all<{ video_id: number; language: string; hash: string }>();
  return {
    rows: res.results.map((r) => ({ videoId: r.video_id, language: r.language, hash: r.hash })),
    rowsRead: res.meta.rows_read ?? 0,
  };
}

/**
 * Deletes every version of up to `limit` videos of a container that have any, on its shard, in one statement; returns
 * the ids of those videos (their snapshots can go now) and the rows D1 read. The videos are the container's facts
 * (every video a writer of its subtitles wrote for has a row). A replay finds only the videos with versions left.
 */
export async function deleteContainerVideoVersions(db: ShardDB, containerId: number, limit: number) {
  const res = await db.$client
    .prepare(
      `DELETE FROM subtitle_versions WHERE video_id IN (
         SELECT v.video_id FROM video_facts v
         WHERE v.container_id = ?1 AND EXISTS (SELECT 1 FROM subtitle_versions sv WHERE sv.video_id = v.video_id)
         LIMIT ?2)
       RETURNING video_id`,
    )
    .bind(containerId, limit)
    .all<{ video_id: number }>();
  return { videoIds: [...new Set(res.results.map((r) => r.video_id))], rows: res.results.length, rowsRead: res.meta.rows_read ?? 0 };
}
