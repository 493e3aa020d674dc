import { type SQL, and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { segments, subtitles, trackChecks } from "../shard-schema";
import type { ShardDB } from "../shards";

/**
 * The quality checks stored on a shard (docs/decisions.md, "Quality checks"): each cue's mask on `subtitles.checks`,
 * the per-track counts its triggers keep (src/db/shard-triggers/track-checks.sql), and the reads of both.
 */

const withText = sql`trim(${subtitles.text}) <> ''`;
const cueFields = {
  id: subtitles.id,
  startMs: segments.startMs,
  endMs: segments.endMs,
  text: subtitles.text,
  checks: subtitles.checks,
  version: subtitles.version,
};

/** A track's cues with text, in time order, with their stored checks: what a whole-track check reads (one index range). */
export const trackCuesQuery = (db: ShardDB, videoId: number, language: string) =>
  db
    .select(cueFields)
    .from(subtitles)
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language), withText))
    .orderBy(asc(segments.startMs));

/**
 * The cues with text next to the segment starting at `startMs`, before it (`side` "before") or after it: the
 * neighbours an edit checks again. Each a walk of segments_video_start from that start, stopping at the first with text.
 */
export const neighbourCueQuery = (db: ShardDB, videoId: number, language: string, startMs: number, side: "before" | "after") =>
  db
    .select(cueFields)
    .from(segments)
    .innerJoin(subtitles, and(eq(subtitles.segmentId, segments.id), eq(subtitles.language, language)))
    .where(and(eq(segments.videoId, videoId), side === "before" ? lt(segments.startMs, startMs) : gt(segments.startMs, startMs), withText))
    .orderBy(side === "before" ? desc(segments.startMs) : asc(segments.startMs))
    .limit(1);

/**
 * Stores masks (`c`, null for unchecked) on cues by id, each only while the cue is at the version it was checked at
 * (`v`): a cue written again since keeps what its own writer stored. One statement; the rows travel as one JSON
 * parameter.
 */
export const setChecksStatement = (rows: ReadonlyArray<{ id: number; v: number; c: number | null }>): SQL =>
  sql`UPDATE subtitles SET checks = json_extract(j.value, '$.c')
    FROM json_each(${JSON.stringify(rows)}) j WHERE subtitles.id = json_extract(j.value, '$.id') AND subtitles.version = json_extract(j.value, '$.v')`;

/** Per language, a video's checked cues and those with no finding (one primary-key range of track_checks). */
export const trackChecksQuery = (db: ShardDB, videoId: number) =>
  db
    .select({ language: trackChecks.language, checked: trackChecks.checked, passing: trackChecks.passing })
    .from(trackChecks)
    .where(eq(trackChecks.videoId, videoId));

/**
 * One page of a track's findings, by cue start then rule: each cue with a stored finding among `mask`, once for every
 * rule (`rules`, the names in bit order) it breaks, with the next cue's start (the gap rule's measure) and the number
 * of findings of the whole list (`total`, counted before the page is cut). One statement:
 * the track's cues with text are read once in time order (a window over one index range), so its cost follows the
 * track's size, not the page's depth (docs/performance.md, "Quality checks").
 */
export const trackFindingsQuery = (
  db: ShardDB,
  q: { videoId: number; language: string; mask: number; rules: readonly string[]; limit: number; offset: number },
) =>
  db.all<{ startMs: number; endMs: number; text: string; nextStartMs: number | null; rule: string; total: number }>(sql`
    WITH track AS (
      SELECT seg.start_ms AS s, seg.end_ms AS e, sub.text AS t, sub.checks AS c, lead(seg.start_ms) OVER (ORDER BY seg.start_ms) AS n
      FROM subtitles sub JOIN segments seg ON seg.id = sub.segment_id
      WHERE sub.video_id = ${q.videoId} AND sub.language = ${q.language} AND trim(sub.text) <> ''
    ), found AS (
      SELECT track.s, track.e, track.t, track.n, r.key AS k, r.value AS rule
      FROM track CROSS JOIN json_each(${JSON.stringify(q.rules)}) r
      WHERE track.c & ${q.mask} & (1 << r.key) <> 0
    )
    SELECT s AS startMs, e AS endMs, t AS text, n AS nextStartMs, rule, count(*) OVER () AS total
    FROM found ORDER BY s, k LIMIT ${q.limit} OFFSET ${q.offset}`);

/**
 * Tracks of a shard (of one container with `containerId`) with cues never checked, after (`afterVideo`,
 * `afterLanguage`) in (video, language) order: what the checks job walks. A walk of subtitles_video_language.
 */
export const uncheckedTracksQuery = (db: ShardDB, q: { afterVideo: number; afterLanguage: string; containerId?: number; limit: number }) =>
  db.all<{ videoId: number; language: string }>(sql`SELECT DISTINCT video_id AS videoId, language FROM subtitles
    WHERE (video_id > ${q.afterVideo} OR (video_id = ${q.afterVideo} AND language > ${q.afterLanguage}))
      AND checks IS NULL AND trim(text) <> '' ${q.containerId === undefined ? sql`` : sql`AND container_id = ${q.containerId}`}
    ORDER BY video_id, language LIMIT ${q.limit}`);
