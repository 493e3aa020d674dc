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
