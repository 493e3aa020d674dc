import { type SQL, and, desc, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "../client";
import { subtitleVersions, type VERSION_CAUSES } from "../schema";

export type VersionRow = typeof subtitleVersions.$inferSelect;
export type VersionCause = (typeof VERSION_CAUSES)[number];

export interface NewVersion {
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
 * last, its completion is the cues over the video's segments (as the completion job counts them), and nothing is
 * written when the track's last version has the same hash (re-importing identical content makes no version).
 * Returns the row written, if any.
 */
export function insertVersionStatement(v: NewVersion): SQL {
  return sql`INSERT INTO subtitle_versions
      (video_id, language, number, author_id, application_id, cause, cues, completion, hash, bytes, restored_from)
    SELECT ${v.videoId}, ${v.language},
      coalesce((SELECT max(number) FROM subtitle_versions WHERE video_id = ${v.videoId} AND language = ${v.language}), 0) + 1,
      ${v.authorId}, ${v.applicationId}, ${v.cause}, ${v.cues},
      coalesce((SELECT (100 * ${v.cues}) / nullif(count(*), 0) FROM segments WHERE video_id = ${v.videoId}), 0),
      ${v.hash}, ${v.bytes}, ${v.restoredFrom ?? null}
    WHERE coalesce((SELECT hash FROM subtitle_versions WHERE video_id = ${v.videoId} AND language = ${v.language}
      ORDER BY number DESC LIMIT 1), '') <> ${v.hash}
    RETURNING *`;
}

/** The track's last version (one probe of subtitle_versions_track_number). */
export const latestVersionQuery = (db: DB, videoId: number, language: string) =>
  db
    .select()
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language)))
    .orderBy(desc(subtitleVersions.number))
    .limit(1);

/** A page of the track's versions, newest first (`limit` is per_page + 1, the extra row only says `more`). */
export const versionPageQuery = (db: DB, videoId: number, language: string, offset: number, limit: number) =>
  db
    .select()
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language)))
    .orderBy(desc(subtitleVersions.number))
    .limit(limit)
    .offset(offset);

export const countVersionsQuery = (db: DB, videoId: number, language: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language)));

/** Some versions of a track by number. */
export const versionsByNumberQuery = (db: DB, videoId: number, language: string, numbers: number[]) =>
  db
    .select()
    .from(subtitleVersions)
    .where(and(eq(subtitleVersions.videoId, videoId), eq(subtitleVersions.language, language), inArray(subtitleVersions.number, numbers)));

// ---- retention and cleanup (src/services/subtitle-retention.ts) ----

/** A version row deleted by pruning or cleanup: enough to name its snapshot object. */
export interface GoneVersion {
  videoId: number;
  language: string;
  hash: string;
}

/** What a pruning statement did, from D1's meta: the bound `test/jobs/sweeper-versions.test.ts` checks. */
export interface PruneCost {
  pruned: GoneVersion[];
  rowsRead: number;
  rowsWritten: number;
}

export interface PruneBounds {
  /** Versions created before this (unix seconds) may go... */
  beforeSeconds: number;
  /** ...unless they are among the newest `keep` of their track (the track's last version always is). */
  keep: number;
  /** Which window of ids this run looks at: the minute since the epoch, modulo the number of windows up to max(id). */
  turn: number;
  /** Ids per window: the rows this statement reads, whatever the table holds. */
  window: number;
  /** Rows deleted at most. */
  limit: number;
}

/**
 * One pruning step in one statement. The candidates are read by id range: the ids up to max(id) cut in windows of
 * `window`, window `turn` modulo their number this run, the next one the next minute. Never by a scan of every old
 * row: the old versions a track keeps (its newest `keep`) stay old for ever, and a scan for the prunable ones would
 * read all of them every minute to find a few. Each old candidate costs a probe of subtitle_versions_track_number for
 * its track's last number. Numbers only grow, so the rows a track loses are always its lowest.
 */
export async function pruneVersionRows(db: DB, b: PruneBounds): Promise<PruneCost> {
  const res = await db.$client
    .prepare(
      `WITH w(lo) AS (SELECT (?3 % (coalesce(max(id), 0) / ?4 + 1)) * ?4 FROM subtitle_versions)
       DELETE FROM subtitle_versions WHERE id IN (
         SELECT sv.id FROM subtitle_versions sv
         WHERE sv.id >= (SELECT lo FROM w) AND sv.id < (SELECT lo FROM w) + ?4
           AND sv.created_at < ?1
           AND sv.number <= (SELECT max(m.number) FROM subtitle_versions m
                             WHERE m.video_id = sv.video_id AND m.language = sv.language) - ?2
         ORDER BY sv.id
         LIMIT ?5)
       RETURNING video_id, language, hash`,
    )
    .bind(b.beforeSeconds, b.keep, b.turn, b.window, b.limit)
    .all<{ video_id: number; language: string; hash: string }>();
  return {
    pruned: res.results.map((r) => ({ videoId: r.video_id, language: r.language, hash: r.hash })),
    rowsRead: res.meta.rows_read ?? 0,
    rowsWritten: res.meta.rows_written ?? 0,
  };
}

/**
 * The hashes the remaining versions of some tracks still carry, in one query: the snapshot objects not to delete. It
 * reads the rows left in those tracks (through subtitle_versions_track_number), json_each first (CROSS JOIN).
 */
export async function referencedHashes(db: DB, tracks: Array<{ videoId: number; language: string }>) {
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
 * Deletes every version of up to `limit` videos of a container that have any, in one statement; returns the ids of
 * those videos (their snapshots can go now) and the rows D1 read. A replay finds only the videos with versions left.
 */
export async function deleteContainerVideoVersions(db: DB, containerId: number, limit: number) {
  const res = await db.$client
    .prepare(
      `DELETE FROM subtitle_versions WHERE video_id IN (
         SELECT v.id FROM videos v
         WHERE v.container_id = ?1 AND EXISTS (SELECT 1 FROM subtitle_versions sv WHERE sv.video_id = v.id)
         LIMIT ?2)
       RETURNING video_id`,
    )
    .bind(containerId, limit)
    .all<{ video_id: number }>();
  return { videoIds: [...new Set(res.results.map((r) => r.video_id))], rows: res.results.length, rowsRead: res.meta.rows_read ?? 0 };
}
