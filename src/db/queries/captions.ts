import { eq, sql } from "drizzle-orm";
import type { DB } from "../client";
import { captionSuggestions, segments, subtitles } from "../schema";

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

/** The smallest and largest subtitle ids (two reads of the primary key's ends). */
export const subtitleIdRange = (db: DB) =>
  db.get<{ lo: number | null; hi: number | null }>(
    sql`SELECT (SELECT min(id) FROM subtitles) AS lo, (SELECT max(id) FROM subtitles) AS hi`,
  );

/** The video of the first subtitle at or after `id`: where a window in a language's index starts. */
export const videoAtSubtitle = async (db: DB, id: number) =>
  (await db.get<{ video_id: number } | undefined>(sql`SELECT video_id FROM subtitles WHERE id >= ${id} ORDER BY id LIMIT 1`))?.video_id;

/**
 * The first caption to work on inside one window of at most CAPTION_WINDOW subtitles: an original (its
 * video's origin language, which must be `from` when given) of a visible video whose segment has no
 * subtitle in `to`. With `from` the window walks subtitles_language from (video, id) onwards; without
 * it, the primary key from `id` onwards. Each window row costs its index or table row and one probe of
 * subtitles_segment_language; only rows that pass the probe read their video and container.
 */
export async function captionInWindow(
  db: DB,
  start: { videoId: number; id: number },
  from: string | undefined,
  to: string | TargetDraw,
): Promise<CaptionCandidate | undefined> {
  const columns = sql`id, segment_id, video_id, language, text`;
  // With `from`: the rest of the start video from `id`, then the following videos, in the index's order.
  const window = from
    ? sql`SELECT * FROM (
          SELECT * FROM (SELECT ${columns} FROM subtitles WHERE language = ${from} AND video_id = ${start.videoId}
            AND id >= ${start.id} ORDER BY id LIMIT ${CAPTION_WINDOW})
          UNION ALL
          SELECT * FROM (SELECT ${columns} FROM subtitles WHERE language = ${from} AND video_id > ${start.videoId}
            ORDER BY video_id, id LIMIT ${CAPTION_WINDOW}))
        LIMIT ${CAPTION_WINDOW}`
    : // No language filter: a row in `to` is either a translation or an original that is its own `to` text,
      // and the conditions below drop both, while a filter here would read past the window.
      sql`SELECT ${columns} FROM subtitles WHERE id >= ${start.id} ORDER BY id LIMIT ${CAPTION_WINDOW}`;
  const target = typeof to === "string" ? sql`${to}` : drawnTarget(to);
  return db.get<CaptionCandidate | undefined>(sql`SELECT w.id AS id, w.language AS language, w.text AS text,
      w.video_id AS video_id, v.container_id AS container_id, g.start_ms AS start_ms, g.end_ms AS end_ms, w.target AS target
    FROM (SELECT *, ${target} AS target FROM (${window}) w) w
    CROSS JOIN videos v ON v.id = w.video_id
    CROSS JOIN containers c ON c.id = v.container_id
    CROSS JOIN segments g ON g.id = w.segment_id
    WHERE NOT EXISTS (SELECT 1 FROM subtitles t WHERE t.segment_id = w.segment_id AND t.language = w.target)
      AND v.state = 'normal' AND c.state = 'normal' AND ${ORIGIN} = w.language
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

export const insertCaptionSuggestion = async (
  db: DB,
  row: { originSubtitleId: number; language: string; userId: number; content: string },
) => (await db.insert(captionSuggestions).values(row).returning())[0];

/** A suggestion with where it would go: the origin subtitle's video and segment start. */
export const suggestionTargetQuery = (db: DB, suggestionId: number) =>
  db
    .select({
      id: captionSuggestions.id,
      language: captionSuggestions.language,
      content: captionSuggestions.content,
      videoId: subtitles.videoId,
      startMs: segments.startMs,
    })
    .from(captionSuggestions)
    .innerJoin(subtitles, eq(subtitles.id, captionSuggestions.originSubtitleId))
    .innerJoin(segments, eq(segments.id, subtitles.segmentId))
    .where(eq(captionSuggestions.id, suggestionId));
