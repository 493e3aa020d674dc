import { indexForm } from "../../domain/search-text";
import { type SQL, and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { DB } from "../client";
import { jobs, users } from "../schema";
import { segments, subtitleHistories, subtitles } from "../shard-schema";
import type { ShardDB } from "../shards";
import { allocateShardIdsStatement, firstAllocatedId } from "./shard-rows";

/**
 * A video's subtitle track on its container's shard (docs/decisions.md, "Subtitles on the shards"): segments,
 * subtitles and their histories, read and written there. The catalogue side of a track writer (its active jobs, its
 * author's name, its event) is at the end.
 */

/** The timing units of a video, by start. */
export const listVideoSegments = (db: ShardDB, videoId: number) =>
  db
    .select({ id: segments.id, startMs: segments.startMs, endMs: segments.endMs })
    .from(segments)
    .where(eq(segments.videoId, videoId))
    .orderBy(asc(segments.startMs))
    .all();

/** The video's subtitles in one language, keyed by their segment's start (the import's matching key), with its end. */
export const listSubtitlesByStart = (db: ShardDB, videoId: number, language: string) =>
  db
    .select({ startMs: segments.startMs, endMs: segments.endMs, text: subtitles.text })
    .from(subtitles)
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language)))
    .all();

/** A track's cues for its downloads: non-blank texts in that language, in time order (a query, for a batch). */
export const subtitleCuesQuery = (db: ShardDB, videoId: number, language: string) =>
  db
    .select({ startMs: segments.startMs, endMs: segments.endMs, text: subtitles.text })
    .from(subtitles)
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language), sql`trim(${subtitles.text}) <> ''`))
    .orderBy(asc(segments.startMs), asc(segments.id));

/** History rows a job already wrote (source keys `<prefix>…`) with their counts, so a replay counts them instead of rewriting. */
export async function historiesWithPrefix(db: ShardDB, prefix: string) {
  // Every key with the prefix sorts between the prefix and the prefix with its last character bumped.
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const rows = await db
    .select({ key: subtitleHistories.sourceKey, count: subtitleHistories.count })
    .from(subtitleHistories)
    .where(and(gte(subtitleHistories.sourceKey, prefix), lt(subtitleHistories.sourceKey, upper)))
    .all();
  return new Map(rows.map((r) => [r.key!, r.count]));
}

/** Who writes which track: the author's id and name go into the rows (a shard has no users table). */
export interface ImportScope {
  videoId: number;
  containerId: number;
  userId: number;
  username: string;
  language: string;
}

/** A row of an import chunk: the segment start it belongs to, its end and its text (and its checks' mask, for a text). */
export interface ImportRow {
  s: number;
  e: number;
  t: string;
  c?: number | null;
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

/** The translation flag of a subtitle in `language` of the video, from the shard's facts (its trigger then has nothing to fix). */
const isTranslation = (videoId: number, language: string) =>
  sql`coalesce(${language} <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
    FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = ${videoId}), 0)`;

/**
 * The statements of one import chunk on the video's shard, for one batch (one transaction); the writer puts the
 * video's facts first (ensureFactsStatements). Rows travel as one JSON parameter read with json_each, so a statement
 * binds a handful of parameters whatever the chunk size (D1 allows 100); CROSS JOIN keeps json_each the outer loop,
 * so each row is one index lookup (the planner would otherwise scan the JSON once per segment of the video). Each
 * insert takes its ids from the shard's range, one counter update before it for all its rows (row k: the first id +
 * k; a row that meets ON CONFLICT wastes its id). Segments are keyed by (video, start) and subtitles by (segment,
 * language), updated only when the text differs. The chunk's history is one row per kind standing for `count`
 * changes (D1 bills every index entry: two rows per cue cost 20 rows written), keyed by source_key, so a replay
 * writes nothing twice. `is_translation` is computed from the shard's facts here, so the flag's trigger has nothing
 * to fix. Each text carries its checks' mask (`c`), computed by its writer over the track the whole write leaves
 * (docs/decisions.md, "Quality checks"); null when absent.
 */
export function importChunkStatements(db: ShardDB, shard: number, scope: ImportScope, chunk: ImportChunk) {
  const { videoId, containerId, userId, username, language } = scope;
  const statements: SQL[] = [];
  const ids = (n: number) => allocateShardIdsStatement(db, shard, n).getSQL();
  if (chunk.segments.length) {
    const n = chunk.segments.length;
    statements.push(
      ids(n),
      sql`INSERT INTO segments (id, container_id, video_id, start_ms, end_ms, author_id)
      SELECT ${firstAllocatedId(shard, n)} + j.key, ${containerId}, ${videoId}, json_extract(j.value, '$.s'), json_extract(j.value, '$.e'), ${userId}
      FROM json_each(${JSON.stringify(chunk.segments)}) j WHERE true
      ON CONFLICT (video_id, start_ms) DO NOTHING`,
    );
  }
  if (chunk.texts.length) {
    const n = chunk.texts.length;
    // `x`: the index form of each text (null for most spaced-script text), written with it.
    const rows = chunk.texts.map((r) => ({ ...r, x: indexForm(r.t) }));
    statements.push(
      ids(n),
      sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text, search_text, checks, author_id, author_username, is_translation)
      SELECT ${firstAllocatedId(shard, n)} + j.key, ${containerId}, seg.id, ${videoId}, ${language}, json_extract(j.value, '$.t'),
        json_extract(j.value, '$.x'), json_extract(j.value, '$.c'), ${userId}, ${username}, ${isTranslation(videoId, language)}
      FROM json_each(${JSON.stringify(rows)}) j CROSS JOIN segments seg ON seg.video_id = ${videoId} AND seg.start_ms = json_extract(j.value, '$.s')
      WHERE true
      ON CONFLICT (segment_id, language) DO UPDATE SET text = excluded.text, search_text = excluded.search_text, checks = excluded.checks,
        author_id = excluded.author_id, author_username = excluded.author_username, version = subtitles.version + 1, updated_at = unixepoch()
      WHERE subtitles.text <> excluded.text`,
    );
  }
  // version 1: texts (or segments) created; 2: texts that replaced a stored one.
  const histories = [
    { kind: "segment", language: null, version: 1, count: chunk.segments.length, what: "segment" },
    { kind: "subtitle", language, version: 1, count: chunk.created, what: "created" },
    { kind: "subtitle", language, version: 2, count: chunk.texts.length - chunk.created, what: "updated" },
  ].filter((h) => h.count > 0);
  if (histories.length) {
    const rows = histories.map((h) => [h.kind, h.language, h.version, h.count, `${chunk.key}:${h.what}`]);
    statements.push(
      ids(rows.length),
      sql`INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, version, count, source_key)
      SELECT ${firstAllocatedId(shard, rows.length)} + j.key, json_extract(j.value, '$[0]'), ${userId}, ${username}, ${videoId}, ${containerId},
        json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]')
      FROM json_each(${JSON.stringify(rows)}) j WHERE true ON CONFLICT (source_key) DO NOTHING`,
    );
  }
  return statements;
}

/** Per language, the video's subtitles with text (one index range of subtitles_video_language). */
export const countSubtitlesByLanguage = (db: ShardDB, videoId: number) =>
  db
    .select({ language: subtitles.language, cues: sql<number>`count(*)` })
    .from(subtitles)
    .where(and(eq(subtitles.videoId, videoId), sql`trim(${subtitles.text}) <> ''`))
    .groupBy(subtitles.language)
    .orderBy(asc(subtitles.language));

/** Removes a track's subtitles whose segment start is not in `keep` (a restore); every one when `keep` is empty. */
export const deleteSubtitlesExceptStatement = (videoId: number, language: string, keep: readonly number[]) =>
  sql`DELETE FROM subtitles WHERE video_id = ${videoId} AND language = ${language}
    AND segment_id NOT IN (SELECT s.id FROM json_each(${JSON.stringify(keep)}) j CROSS JOIN segments s
      ON s.video_id = ${videoId} AND s.start_ms = j.value)`;

/**
 * One cue's text at an existing segment (an edit), created or replaced with its quality checks' mask (`checks`), with
 * its history row keyed by `sourceKey`;
 * nothing is written when the text is the same. Two ids from the shard's range first (the subtitle's, used only when
 * it is created, and the history's): the history's insert asks `changes()` of the subtitle's, so nothing may come
 * between them.
 */
export const editCueStatements = (
  db: ShardDB,
  shard: number,
  scope: ImportScope,
  cue: { startMs: number; text: string; checks: number | null },
  sourceKey: string,
) => [
  allocateShardIdsStatement(db, shard, 2).getSQL(),
  sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text, search_text, checks, author_id, author_username, is_translation)
    SELECT ${firstAllocatedId(shard, 2)}, ${scope.containerId}, seg.id, ${scope.videoId}, ${scope.language}, ${cue.text}, ${indexForm(cue.text)},
      ${cue.checks}, ${scope.userId}, ${scope.username}, ${isTranslation(scope.videoId, scope.language)}
    FROM segments seg WHERE seg.video_id = ${scope.videoId} AND seg.start_ms = ${cue.startMs}
    ON CONFLICT (segment_id, language) DO UPDATE SET text = excluded.text, search_text = excluded.search_text, checks = excluded.checks,
      author_id = excluded.author_id, author_username = excluded.author_username, version = subtitles.version + 1, updated_at = unixepoch()
    WHERE subtitles.text <> excluded.text`,
  sql`INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, version, count, source_key)
    SELECT ${firstAllocatedId(shard, 2)} + 1, 'subtitle', ${scope.userId}, ${scope.username}, ${scope.videoId}, ${scope.containerId}, ${scope.language},
      (SELECT t.version FROM subtitles t JOIN segments seg ON seg.id = t.segment_id
        WHERE seg.video_id = ${scope.videoId} AND seg.start_ms = ${cue.startMs} AND t.language = ${scope.language}), 1, ${sourceKey}
    WHERE changes() > 0
    ON CONFLICT (source_key) DO NOTHING`,
];

/**
 * The characters of a track's texts, for the size it would have after an edit: one index range of
 * subtitles_video_language, summed in the database so the texts themselves never travel.
 */
export const trackCharsQuery = (db: ShardDB, videoId: number, language: string) =>
  db
    .select({ chars: sql<number>`coalesce(sum(length(${subtitles.text})), 0)` })
    .from(subtitles)
    .where(and(eq(subtitles.videoId, videoId), eq(subtitles.language, language)));

/** The segment of a video starting at `startMs` (with its end), with its text in `language` (null: none yet). */
export const cueAtStartQuery = (db: ShardDB, videoId: number, language: string, startMs: number) =>
  db
    .select({ segmentId: segments.id, endMs: segments.endMs, text: subtitles.text })
    .from(segments)
    .leftJoin(subtitles, and(eq(subtitles.segmentId, segments.id), eq(subtitles.language, language)))
    .where(and(eq(segments.videoId, videoId), eq(segments.startMs, startMs)));

// ---- the catalogue side of a track writer ----

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

/** The user a job acts for: the name its shard rows carry, and whether staff (batchable; one primary-key read). */
export const jobCreatorQuery = (db: DB, userId: number) =>
  db.select({ id: users.id, username: users.username, staff: users.staff }).from(users).where(eq(users.id, userId));

/**
 * A job's event, recorded once whatever its deliveries (docs/decisions.md, "Subtitles on the shards"): it follows the
 * job's shard writes as a catalogue write, so a delivery may die between the two, and the next one, finding every
 * chunk written, records it then. The insert happens only while the job's params lack `announced`, and the same batch
 * sets it: the job row is the key, as it is for the job's other state. Two statements for one batch.
 */
export const announceOnceStatements = (jobId: number, event: { type: string; data: Record<string, unknown> }) => [
  sql`INSERT INTO webhook_events (type, data)
    SELECT ${event.type}, ${JSON.stringify(event.data)} FROM jobs WHERE id = ${jobId} AND json_extract(params, '$.announced') IS NULL`,
  sql`UPDATE jobs SET params = json_set(coalesce(params, '{}'), '$.announced', json('true')) WHERE id = ${jobId}`,
];
