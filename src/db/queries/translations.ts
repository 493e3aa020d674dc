import { inArray, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import type { DB } from "../client";
import { translationVotes } from "../schema";

/**
 * Translations: subtitles whose language differs from their video's origin language (the video's own,
 * else its container's). Every list walks an index in a fixed order and reads the page's rows plus a
 * few rows per video it passes; none reads the subtitles table from end to end. The walks are joins
 * written with CROSS JOIN, which fixes SQLite's loop order, so rows come out in the walk's order.
 */

/** The origin language of a video row `v` whose container is `c`. */
const ORIGIN = sql.raw("COALESCE(NULLIF(v.origin_language, ''), c.origin_language)");

/** One entry of a page: the subtitle and the origin language of its video (to find the original). */
export interface PageEntry {
  id: number;
  origin: string;
}

/** A walk over translations in a fixed order: a SELECT of `id` and `origin` without LIMIT. */
export type TranslationWalk = SQL;

/** One page of a walk: LIMIT/OFFSET appended to the walk itself, so its plan (and order) is kept. */
export const walkPage = (db: DB, walk: TranslationWalk, offset: number, limit: number) =>
  db.all<PageEntry>(sql`${walk} LIMIT ${limit} OFFSET ${offset}`);

/** Only for `with_paging=true`: reads the walk up to the paging ceiling's `COUNT_LIMIT` rows, never all of it. */
export async function walkCount(db: DB, walk: TranslationWalk) {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (${walk} LIMIT ${COUNT_LIMIT})`);
  return Number(row?.n ?? 0);
}

/**
 * One video's translations, by language then id (subtitles_video_language). Without `to`, a loose index
 * scan visits the video's languages with one seek each and skips the origin language without reading it.
 */
export const videoTranslations = (video: { id: number; origin: string }, to: string | undefined): TranslationWalk =>
  to
    ? sql`SELECT id, ${video.origin} AS origin FROM subtitles WHERE video_id = ${video.id} AND language = ${to} ORDER BY id`
    : sql`WITH RECURSIVE langs(lang) AS (
          SELECT (SELECT min(language) FROM subtitles WHERE video_id = ${video.id})
          UNION ALL
          SELECT (SELECT min(language) FROM subtitles WHERE video_id = ${video.id} AND language > langs.lang)
          FROM langs WHERE langs.lang IS NOT NULL)
        SELECT s.id AS id, ${video.origin} AS origin FROM langs
        CROSS JOIN subtitles s ON s.video_id = ${video.id} AND s.language = langs.lang
        WHERE langs.lang <> ${video.origin}`;

/**
 * A container's translations into `to`: its normal videos in episode order (videos_container_state_number),
 * each video's subtitles in `to` (subtitles_video_language). Reads one row per video passed plus the page.
 */
export function containerTranslations(container: { id: number; origin: string }, to: string, from: string | undefined): TranslationWalk {
  const origin = sql`COALESCE(NULLIF(v.origin_language, ''), ${container.origin})`;
  return sql`SELECT s.id AS id, ${origin} AS origin
    FROM videos v
    CROSS JOIN subtitles s ON s.video_id = v.id AND s.language = ${to}
    WHERE v.container_id = ${container.id} AND v.state = 'normal' AND ${origin} <> ${to}
      ${from ? sql`AND ${origin} = ${from}` : sql``}
    ORDER BY v.number, v.id, s.id`;
}

/**
 * Every translation into `to`, by video id then subtitle id. A loose index scan over subtitles_language
 * visits each video that has subtitles in `to` with one seek; a video whose origin is `to` (or not `from`),
 * or that is not visible, costs that seek and two primary-key reads, never its subtitles.
 */
export const languageTranslations = (to: string, from: string | undefined): TranslationWalk =>
  sql`WITH RECURSIVE vids(vid) AS (
      SELECT (SELECT min(video_id) FROM subtitles WHERE language = ${to})
      UNION ALL
      SELECT (SELECT min(video_id) FROM subtitles WHERE language = ${to} AND video_id > vids.vid)
      FROM vids WHERE vids.vid IS NOT NULL)
    SELECT s.id AS id, ${ORIGIN} AS origin FROM vids
    CROSS JOIN videos v ON v.id = vids.vid
    CROSS JOIN containers c ON c.id = v.container_id
    CROSS JOIN subtitles s ON s.video_id = v.id AND s.language = ${to}
    WHERE v.state = 'normal' AND c.state = 'normal' AND ${ORIGIN} <> ${to}
      ${from ? sql`AND ${ORIGIN} = ${from}` : sql``}`;

/**
 * Every translation, newest (highest id) first: the partial index subtitles_translations backwards (migration
 * 0015), so originals cost nothing; each entry costs its index row plus its video and container (visibility).
 */
export const allTranslations = (): TranslationWalk =>
  sql`SELECT s.id AS id, ${ORIGIN} AS origin
    FROM subtitles s INDEXED BY subtitles_translations
    CROSS JOIN videos v ON v.id = s.video_id
    CROSS JOIN containers c ON c.id = v.container_id
    WHERE s.is_translation = 1 AND v.state = 'normal' AND c.state = 'normal'
    ORDER BY s.id DESC`;

export interface TranslationRow {
  id: number;
  video_id: number;
  language: string;
  text: string;
  created_at: number;
  updated_at: number;
  start_ms: number;
  end_ms: number;
  author_id: number | null;
  author_username: string | null;
  original_id: number | null;
  original_language: string | null;
  original_text: string | null;
}

/** The page's subtitles with timing, author and original: about four primary-key or unique reads each. */
export async function hydrateTranslations(db: DB, page: PageEntry[]): Promise<TranslationRow[]> {
  if (!page.length) return [];
  const json = JSON.stringify(page.map((p) => [p.id, p.origin]));
  return db.all<TranslationRow>(sql`SELECT s.id AS id, s.video_id AS video_id, s.language AS language, s.text AS text,
      s.created_at AS created_at, s.updated_at AS updated_at, g.start_ms AS start_ms, g.end_ms AS end_ms,
      u.id AS author_id, u.username AS author_username,
      o.id AS original_id, o.language AS original_language, o.text AS original_text
    FROM json_each(${json}) p
    CROSS JOIN subtitles s ON s.id = json_extract(p.value, '$[0]')
    CROSS JOIN segments g ON g.id = s.segment_id
    LEFT JOIN users u ON u.id = s.author_id
    LEFT JOIN subtitles o ON o.segment_id = s.segment_id AND o.language = json_extract(p.value, '$[1]')`);
}

export interface VoteCounts {
  likes: number;
  dislikes: number;
}

const voteCountsQuery = (db: DB, subtitleIds: number[]) =>
  db
    .select({
      subtitleId: translationVotes.subtitleId,
      likes: sql<number>`COALESCE(SUM(${translationVotes.value} > 0), 0)`,
      dislikes: sql<number>`COALESCE(SUM(${translationVotes.value} < 0), 0)`,
    })
    .from(translationVotes)
    .where(inArray(translationVotes.subtitleId, subtitleIds))
    .groupBy(translationVotes.subtitleId);

/** D1 binds at most 100 parameters per statement. */
const MAX_BOUND_PARAMETERS = 100;

/**
 * Likes and dislikes of the given subtitles: one grouped read of translation_votes_subtitle per 100 ids, in one batch.
 * A full page of 100 carries 101 ids (the extra row tells `more`), which in one `IN (...)` was a 500
 * (docs/decisions.md, "Paging ceiling and repeated parameters"); a JSON parameter instead costs a row read per id.
 */
export async function voteCounts(db: DB, subtitleIds: number[]): Promise<Map<number, VoteCounts>> {
  if (!subtitleIds.length) return new Map();
  const [first, ...rest] = Array.from({ length: Math.ceil(subtitleIds.length / MAX_BOUND_PARAMETERS) }, (_, i) =>
    voteCountsQuery(db, subtitleIds.slice(i * MAX_BOUND_PARAMETERS, (i + 1) * MAX_BOUND_PARAMETERS)),
  );
  const rows = (rest.length ? await db.batch([first, ...rest]) : [await first.all()]).flat();
  return new Map(rows.map((r) => [r.subtitleId, { likes: Number(r.likes), dislikes: Number(r.dislikes) }]));
}

/** A subtitle with what the translation routes need to judge it: its video's origin language and states. */
export interface SubtitleContext {
  id: number;
  segment_id: number;
  video_id: number;
  container_id: number;
  language: string;
  text: string;
  origin: string;
  video_state: string;
  container_state: string;
}

export const findSubtitleContext = (db: DB, id: number) =>
  db.get<SubtitleContext | undefined>(sql`SELECT s.id AS id, s.segment_id AS segment_id, s.video_id AS video_id,
      v.container_id AS container_id, s.language AS language, s.text AS text, ${ORIGIN} AS origin,
      v.state AS video_state, c.state AS container_state
    FROM subtitles s CROSS JOIN videos v ON v.id = s.video_id CROSS JOIN containers c ON c.id = v.container_id
    WHERE s.id = ${id}`);

/** One vote per user and subtitle: a new vote replaces the old (upsert on the primary key), then the counts. */
export async function castVote(db: DB, userId: number, subtitleId: number, value: 1 | -1): Promise<VoteCounts> {
  const [, counts] = await db.batch([
    db
      .insert(translationVotes)
      .values({ userId, subtitleId, value })
      .onConflictDoUpdate({
        target: [translationVotes.userId, translationVotes.subtitleId],
        set: { value, createdAt: sql`(unixepoch())` },
      }),
    voteCountsQuery(db, [subtitleId]),
  ]);
  const row = counts[0];
  return { likes: Number(row?.likes ?? 0), dislikes: Number(row?.dislikes ?? 0) };
}

export interface LanguageTotals {
  language: string;
  originals: number;
  translations: number;
}

/**
 * Subtitles per language over visible videos, split into originals (the video's origin language) and
 * translations: the trigger-kept `language_counts` (migration 0019), one row per language ever used.
 */
export const languageTotals = (db: DB) =>
  db.all<LanguageTotals>(sql`SELECT language, originals, translations FROM language_counts WHERE originals > 0 OR translations > 0`);
