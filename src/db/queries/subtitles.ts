import { type SQL, and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { DB } from "../client";
import { jobs, segments, subtitleHistories, subtitles } from "../schema";

/** The timing units of a video, by start. */
export const listVideoSegments = (db: DB, videoId: number) =>
  db
    .select({ id: segments.id, startMs: segments.startMs, endMs: segments.endMs })
    .from(segments)
    .where(eq(segments.videoId, videoId))
    .orderBy(asc(segments.startMs))
    .all();

/** The video's subtitles in one language, keyed by their segment's start (the import's matching key). */
export const listSubtitlesByStart = (db: DB, videoId: number, language: string) =>
  db
    .select({ startMs: segments.startMs, text: subtitles.text })
    .from(subtitles)
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language)))
    .all();

/** A track's cues for its downloads: non-blank texts in that language, in time order (a query, for a batch). */
export const subtitleCuesQuery = (db: DB, videoId: number, language: string) =>
  db
    .select({ startMs: segments.startMs, endMs: segments.endMs, text: subtitles.text })
    .from(subtitles)
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language), sql`trim(${subtitles.text}) <> ''`))
    .orderBy(asc(segments.startMs), asc(segments.id));

/** History rows a job already wrote (source keys `<prefix>…`) with their counts, so a replay counts them instead of rewriting. */
export async function historiesWithPrefix(db: DB, prefix: string) {
  // Every key with the prefix sorts between the prefix and the prefix with its last character bumped.
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const rows = await db
    .select({ key: subtitleHistories.sourceKey, count: subtitleHistories.count })
    .from(subtitleHistories)
    .where(and(gte(subtitleHistories.sourceKey, prefix), lt(subtitleHistories.sourceKey, upper)))
    .all();
  return new Map(rows.map((r) => [r.key!, r.count]));
}

export interface ImportScope {
  videoId: number;
  containerId: number;
  userId: number;
  language: string;
}

/** A row of an import chunk: the segment start it belongs to, its end and its text. */
export interface ImportRow {
  s: number;
  e: number;
  t: string;
}

/**
 * One chunk of an import: the segments to create, the texts to write (`created` of them new, the rest
 * replacing a stored text), and the history key prefix naming the chunk's cues (`import:<job>:<first>-<last>`).
 */
export interface ImportChunk {
  key: string;
  segments: ImportRow[];
  texts: ImportRow[];
  created: number;
}

/**
 * The statements of one import chunk, for one `db.batch` (one transaction). Rows travel as one JSON
 * parameter read with json_each, so a statement binds a handful of parameters whatever the chunk size
 * (D1 allows 100); CROSS JOIN keeps json_each the outer loop, so each row is one index lookup (the planner
 * would otherwise scan the JSON once per segment of the video). Segments are keyed by (video, start) and
 * subtitles by (segment, language), updated only when the text differs. The chunk's history is one row per
 * kind standing for `count` changes (D1 bills every index entry: two rows per cue cost 20 rows written),
 * keyed by source_key, so a replay writes nothing twice. `is_translation` is set here, so the flag's trigger
 * (migration 0019) has nothing to fix.
 */
export function importChunkStatements(scope: ImportScope, chunk: ImportChunk) {
  const { videoId, containerId, userId, language } = scope;
  const statements: SQL[] = [];
  if (chunk.segments.length) {
    statements.push(sql`INSERT INTO segments (video_id, start_ms, end_ms, author_id)
      SELECT ${videoId}, json_extract(j.value, '$.s'), json_extract(j.value, '$.e'), ${userId} FROM json_each(${JSON.stringify(chunk.segments)}) j WHERE true
      ON CONFLICT (video_id, start_ms) DO NOTHING`);
  }
  if (chunk.texts.length) {
    statements.push(sql`INSERT INTO subtitles (segment_id, video_id, language, text, author_id, is_translation)
      SELECT seg.id, ${videoId}, ${language}, json_extract(j.value, '$.t'), ${userId},
        coalesce(${language} <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
          FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = ${videoId}), 0)
      FROM json_each(${JSON.stringify(chunk.texts)}) j CROSS JOIN segments seg ON seg.video_id = ${videoId} AND seg.start_ms = json_extract(j.value, '$.s')
      WHERE true
      ON CONFLICT (segment_id, language) DO UPDATE SET text = excluded.text, author_id = excluded.author_id,
        version = subtitles.version + 1, updated_at = unixepoch()
      WHERE subtitles.text <> excluded.text`);
  }
  // version 1: texts (or segments) created; 2: texts that replaced a stored one.
  const histories = [
    { kind: "segment", language: null, version: 1, count: chunk.segments.length, what: "segment" },
    { kind: "subtitle", language, version: 1, count: chunk.created, what: "created" },
    { kind: "subtitle", language, version: 2, count: chunk.texts.length - chunk.created, what: "updated" },
  ].filter((h) => h.count > 0);
  if (histories.length) {
    const rows = histories.map((h) => [h.kind, h.language, h.version, h.count, `${chunk.key}:${h.what}`]);
    statements.push(sql`INSERT INTO subtitle_histories (kind, user_id, video_id, container_id, language, version, count, source_key)
      SELECT json_extract(j.value, '$[0]'), ${userId}, ${videoId}, ${containerId}, json_extract(j.value, '$[1]'),
        json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]')
      FROM json_each(${JSON.stringify(rows)}) j WHERE true ON CONFLICT (source_key) DO NOTHING`);
  }
  return statements;
}

/** Per language, the video's subtitles with text (one index range of subtitles_video_language). */
export const countSubtitlesByLanguage = (db: DB, videoId: number) =>
  db
    .select({ language: subtitles.language, cues: sql<number>`count(*)` })
    .from(subtitles)
    .where(and(eq(subtitles.videoId, videoId), sql`trim(${subtitles.text}) <> ''`))
    .groupBy(subtitles.language)
    .orderBy(asc(subtitles.language));

/** Queued or running jobs of `types` on one track (few: the active jobs of those types, walked by jobs_status_type_created). */
export const activeTrackJobsQuery = (db: DB, videoId: number, language: string, types: readonly string[]) =>
  db
    .select({ id: jobs.id, type: jobs.type })
    .from(jobs)
    .where(
      and(
        sql`${jobs.status} IN ('queued', 'running')`,
        sql`${jobs.type} IN (SELECT value FROM json_each(${JSON.stringify(types)}))`,
        sql`json_extract(${jobs.params}, '$.videoId') = ${videoId}`,
        sql`json_extract(${jobs.params}, '$.language') = ${language}`,
      ),
    )
    .limit(1);

/** Removes a track's subtitles whose segment start is not in `keep` (a restore); every one when `keep` is empty. */
export const deleteSubtitlesExceptStatement = (videoId: number, language: string, keep: readonly number[]) =>
  sql`DELETE FROM subtitles WHERE video_id = ${videoId} AND language = ${language}
    AND segment_id NOT IN (SELECT s.id FROM json_each(${JSON.stringify(keep)}) j CROSS JOIN segments s
      ON s.video_id = ${videoId} AND s.start_ms = j.value)`;

/**
 * One cue's text at an existing segment (an edit), created or replaced, with its history row keyed by `sourceKey`;
 * nothing is written when the text is the same. RETURNING says whether a row changed.
 */
export const editCueStatements = (scope: ImportScope, startMs: number, text: string, sourceKey: string) => [
  sql`INSERT INTO subtitles (segment_id, video_id, language, text, author_id, is_translation)
    SELECT seg.id, ${scope.videoId}, ${scope.language}, ${text}, ${scope.userId},
      coalesce(${scope.language} <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
        FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = ${scope.videoId}), 0)
    FROM segments seg WHERE seg.video_id = ${scope.videoId} AND seg.start_ms = ${startMs}
    ON CONFLICT (segment_id, language) DO UPDATE SET text = excluded.text, author_id = excluded.author_id,
      version = subtitles.version + 1, updated_at = unixepoch()
    WHERE subtitles.text <> excluded.text
    RETURNING id, version`,
  sql`INSERT INTO subtitle_histories (kind, user_id, video_id, container_id, language, version, count, source_key)
    SELECT 'subtitle', ${scope.userId}, ${scope.videoId}, ${scope.containerId}, ${scope.language},
      (SELECT t.version FROM subtitles t JOIN segments seg ON seg.id = t.segment_id
        WHERE seg.video_id = ${scope.videoId} AND seg.start_ms = ${startMs} AND t.language = ${scope.language}), 1, ${sourceKey}
    WHERE changes() > 0
    ON CONFLICT (source_key) DO NOTHING`,
];

/** The segment of a video starting at `startMs`, with its text in `language` (null: none yet). */
export const cueAtStartQuery = (db: DB, videoId: number, language: string, startMs: number) =>
  db
    .select({ segmentId: segments.id, text: subtitles.text })
    .from(segments)
    .leftJoin(subtitles, and(eq(subtitles.segmentId, segments.id), eq(subtitles.language, language)))
    .where(and(eq(segments.videoId, videoId), eq(segments.startMs, startMs)));
