import { eq, sql } from "drizzle-orm";
import type { ShardDB } from "../shards";
import { captionSuggestions, segments, subtitles } from "../shard-schema";
import { nextShardId, nextShardIdStatement } from "./shard-rows";
import { notLeftOut } from "./translations";

/** Rows examined per window of the random-caption walk. */
export const CAPTION_WINDOW = 50;

export interface CaptionCandidate {
  id: number;
  language: string;
  text: string;
  video_id: number;
  container_id: number;
  start_ms: number;
  end_ms: number;
  /** The language the caption lacks: the one asked for, else the one drawn for it. */
  target: string;
}

/**
 * Without `to`, each window row draws its own target from a list of catalogue languages: the entry at
 * (row id + salt) mod n, or the next one when that is the row's own language (the list holds distinct codes,
 * at least two). One probe per row, as with a fixed `to`.
 */
export interface TargetDraw {
  languages: string[];
  salt: number;
}

const ORIGIN = sql.raw("COALESCE(NULLIF(v.origin_language, ''), c.origin_language)");

/** A block of subtitle ids on a shard: ids issued by one range (docs/decisions.md, "Shards"), or copied from the catalogue. */
export interface IdSpan {
  lo: number;
  hi: number;
}

/**
 * The smallest and largest subtitle id of each 2^32 block this shard holds (the catalogue's copied ids, this shard's
 * range, the ranges of containers moved here): a loose index scan of the primary key, two seeks per block. One span
 * from the smallest to the largest id would be almost all gap between two ranges, and a random start in it would
 * nearly always land on the first id of the higher range.
 */
export const subtitleIdSpans = (db: ShardDB) =>
  db.all<IdSpan>(sql`WITH RECURSIVE blocks(lo) AS (
      SELECT (SELECT min(id) FROM subtitles)
      UNION ALL
      SELECT (SELECT min(id) FROM subtitles WHERE id >= (((blocks.lo >> 32) + 1) << 32)) FROM blocks WHERE blocks.lo IS NOT NULL)
    SELECT lo, (SELECT max(id) FROM subtitles WHERE id < (((blocks.lo >> 32) + 1) << 32)) AS hi FROM blocks WHERE lo IS NOT NULL`);

/**
 * The first caption to work on inside one window of at most CAPTION_WINDOW subtitles of a shard: an original (its
 * video's origin language, which must be `from` when given) of a visible video whose segment has no subtitle in `to`.
 * With `from` the window walks subtitles_language from the video of the first subtitle at or after `startId` (the
 * beginning of the index when it is 0) onwards; without it, the primary key from `startId` onwards. Each window row
 * costs its index or table row and one probe of subtitles_segment_language; only rows that pass the probe read their
 * video's and container's facts. Containers this shard does not answer for in lists (`shardMapQuery`: arriving by a move, or draining after one) are left out.
 */
export async function captionInWindow(
  db: ShardDB,
  startId: number,
  from: string | undefined,
  to: string | TargetDraw,
  leftOut: readonly number[],
): Promise<CaptionCandidate | undefined> {
  const columns = sql`id, segment_id, video_id, language, text`;
  // The video where a window in the language's index starts: that of the first subtitle at or after the start.
  const startVideo = startId ? sql`(SELECT video_id FROM subtitles WHERE id >= ${startId} ORDER BY id LIMIT 1)` : sql`0`;
  // With `from`: the rest of the start video from the start id, then the following videos, in the index's order.
  const window = from
    ? sql`SELECT * FROM (
          SELECT * FROM (SELECT ${columns} FROM subtitles WHERE language = ${from} AND video_id = ${startVideo}
            AND id >= ${startId} ORDER BY id LIMIT ${CAPTION_WINDOW})
          UNION ALL
          SELECT * FROM (SELECT ${columns} FROM subtitles WHERE language = ${from} AND video_id > ${startVideo}
            ORDER BY video_id, id LIMIT ${CAPTION_WINDOW}))
        LIMIT ${CAPTION_WINDOW}`
    : // No language filter: a row in `to` is either a translation or an original that is its own `to` text,
      // and the conditions below drop both, while a filter here would read past the window.
      sql`SELECT ${columns} FROM subtitles WHERE id >= ${startId} ORDER BY id LIMIT ${CAPTION_WINDOW}`;
  const target = typeof to === "string" ? sql`${to}` : drawnTarget(to);
  return db.get<CaptionCandidate | undefined>(sql`SELECT w.id AS id, w.language AS language, w.text AS text,
      w.video_id AS video_id, v.container_id AS container_id, g.start_ms AS start_ms, g.end_ms AS end_ms, w.target AS target
    FROM (SELECT *, ${target} AS target FROM (${window}) w) w
    CROSS JOIN video_facts v ON v.video_id = w.video_id
    CROSS JOIN container_facts c ON c.container_id = v.container_id
    CROSS JOIN segments g ON g.id = w.segment_id
    WHERE NOT EXISTS (SELECT 1 FROM subtitles t WHERE t.segment_id = w.segment_id AND t.language = w.target)
      AND v.state = 'normal' AND c.state = 'normal' AND ${ORIGIN} = w.language${notLeftOut(sql.raw("v.container_id"), leftOut)}
    LIMIT 1`);
}

/** The TargetDraw entry of window row `w` (a JSON array read by position: no rows read). */
function drawnTarget(draw: TargetDraw) {
  const list = JSON.stringify(draw.languages);
  const n = draw.languages.length;
  // printf, since a bound number may arrive as a real and '$[1.0]' is no JSON path.
  const at = (shift: number) => sql`json_extract(${list}, printf('$[%d]', (w.id + ${draw.salt + shift}) % ${n}))`;
  return sql`CASE WHEN ${at(0)} <> w.language THEN ${at(0)} ELSE ${at(1)} END`;
}

/** A suggestion on the origin subtitle's shard, its id from the shard's range (one batch). */
export async function insertCaptionSuggestion(
  db: ShardDB,
  shard: number,
  row: { originSubtitleId: number; containerId: number; videoId: number; language: string; userId: number; content: string },
) {
  const [, inserted] = await db.batch([
    nextShardIdStatement(db, shard),
    db
      .insert(captionSuggestions)
      .values({ ...row, id: nextShardId(shard) })
      .returning(),
  ]);
  return inserted[0];
}

/** A suggestion with where it would go: the origin subtitle's video (and container) and segment start. */
export const suggestionTargetQuery = (db: ShardDB, suggestionId: number) =>
  db
    .select({
      id: captionSuggestions.id,
      language: captionSuggestions.language,
      content: captionSuggestions.content,
      containerId: captionSuggestions.containerId,
      videoId: subtitles.videoId,
      startMs: segments.startMs,
    })
    .from(captionSuggestions)
    .innerJoin(subtitles, eq(subtitles.id, captionSuggestions.originSubtitleId))
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(eq(captionSuggestions.id, suggestionId));
