import { type SQL, and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { segments, subtitles, trackChecks } from "../shard-schema";
import type { ShardDB } from "../shards";

/**
 * The quality checks stored on a shard (docs/decisions.md, "Quality checks"): each cue's mask on `subtitles.checks`,
 * the per-track counts its triggers keep (src/db/shard-triggers/track-checks.sql), and the reads of both.
 */

const withText = sql`trim(${subtitles.text}) <> ''`;
const cueFields = {
  id: subtitles.id,
  segmentId: subtitles.segmentId,
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
 * A video's texts in `languages` (the series' term languages other than the track's), by segment: the sources of a
 * track's glossary checks, read in the batch that reads the track (the same index range of subtitles_video_language
 * for each language).
 */
export const videoTextsQuery = (db: ShardDB, videoId: number, languages: readonly string[]) =>
  db
    .select({ segmentId: subtitles.segmentId, language: subtitles.language, text: subtitles.text })
    .from(subtitles)
    .where(and(eq(subtitles.videoId, videoId), inArray(subtitles.language, [...languages]), withText));

/**
 * Every language's cue of the segment starting at `startMs` (segments_video_start, then subtitles_segment_language):
 * an edit's glossary sources, and the other languages' cues whose glossary findings the edit can change.
 */
export const segmentCuesQuery = (db: ShardDB, videoId: number, startMs: number) =>
  db
    .select({ id: subtitles.id, language: subtitles.language, text: subtitles.text, checks: subtitles.checks, version: subtitles.version })
    .from(segments)
    .innerJoin(subtitles, eq(subtitles.segmentId, segments.id))
    .where(and(eq(segments.videoId, videoId), eq(segments.startMs, startMs)));

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
 * rule (`rules`, the names in bit order) it breaks, with the number of findings of the whole list (`total`, counted
 * before the page is cut) and, for a `small_gap` finding, the next cue's start (its measure: a walk of
 * segments_video_start from the cue to the next with text), and for a glossary rule's the same segment's texts in
 * the other languages (`sources`, a JSON array of [language, text]: subtitles_segment_language). One statement reading the track's index range of
 * subtitles_video_language once, and the segments of the cues with findings only (docs/performance.md, "Quality
 * checks").
 */
export const trackFindingsQuery = (
  db: ShardDB,
  q: {
    videoId: number;
    language: string;
    mask: number;
    rules: readonly string[];
    glossaryRules: readonly string[];
    limit: number;
    offset: number;
  },
) =>
  db.all<{
    startMs: number;
    endMs: number;
    text: string;
    nextStartMs: number | null;
    sources: string | null;
    rule: string;
    total: number;
  }>(sql`
    SELECT seg.start_ms AS startMs, seg.end_ms AS endMs, sub.text AS text, r.value AS rule,
      CASE WHEN r.value = 'small_gap' THEN (SELECT n.start_ms FROM segments n JOIN subtitles nt ON nt.segment_id = n.id AND nt.language = sub.language
        WHERE n.video_id = sub.video_id AND n.start_ms > seg.start_ms AND trim(nt.text) <> '' ORDER BY n.start_ms LIMIT 1) END AS nextStartMs,
      CASE WHEN r.value IN (${sql.join(
        ["", ...q.glossaryRules].map((rule) => sql`${rule}`),
        sql`, `,
      )}) THEN (SELECT json_group_array(json_array(o.language, o.text))
        FROM subtitles o WHERE o.segment_id = sub.segment_id AND o.language <> sub.language) END AS sources,
      count(*) OVER () AS total
    FROM subtitles sub JOIN segments seg ON seg.id = sub.segment_id CROSS JOIN json_each(${JSON.stringify(q.rules)}) r
    WHERE sub.video_id = ${q.videoId} AND sub.language = ${q.language} AND sub.checks & ${q.mask} <> 0
      AND sub.checks & ${q.mask} & (1 << r.key) <> 0
    ORDER BY seg.start_ms, r.key LIMIT ${q.limit} OFFSET ${q.offset}`);

/**
 * Tracks of a shard (of one container with `containerId`) with cues never checked (every track with text, with
 * `all`), after (`afterVideo`, `afterLanguage`) in (video, language) order, with their container: what the checks job
 * walks. A walk of subtitles_video_language.
 */
export const uncheckedTracksQuery = (
  db: ShardDB,
  q: { afterVideo: number; afterLanguage: string; containerId?: number; all?: boolean; limit: number },
) =>
  db.all<{ videoId: number; language: string; containerId: number }>(sql`SELECT DISTINCT video_id AS videoId, language,
      container_id AS containerId FROM subtitles
    WHERE (video_id > ${q.afterVideo} OR (video_id = ${q.afterVideo} AND language > ${q.afterLanguage}))
      AND ${q.all ? sql`true` : sql`checks IS NULL`} AND trim(text) <> '' ${q.containerId === undefined ? sql`` : sql`AND container_id = ${q.containerId}`}
    ORDER BY video_id, language LIMIT ${q.limit}`);
