import { eq, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import { notLeftOutCondition } from "./shard-rows";
import type { ShardDB } from "../shards";
import { translationVotes } from "../shard-schema";

/**
 * Translations: subtitles whose language differs from their video's origin language (the video's own,
 * else its container's), on a container's shard (docs/decisions.md, "Subtitles on the shards"). Every list walks an
 * index in a fixed order and reads the page's rows plus a few rows per video it passes; none reads the subtitles table
 * from end to end. The walks are joins written with CROSS JOIN, which fixes SQLite's loop order, so rows come out in
 * the walk's order. Origins and states are the shard's copy of the catalogue's (video_facts, container_facts).
 */

/** The origin language of a video facts row `v` whose container facts row is `c`. */
const ORIGIN = sql.raw("COALESCE(NULLIF(v.origin_language, ''), c.origin_language)");

/**
 * One entry of a page: the subtitle, its video and creation time (the orders across shards) and its video's origin
 * (to find the original).
 */
export interface PageEntry {
  /** Null for an empty position: a video a language walk passed without a translation to list. */
  id: number | null;
  video_id: number;
  created_at: number;
  origin: string;
}

/** A walk over translations in a fixed order: a SELECT of `id`, `video_id`, `created_at` and `origin` without LIMIT. */
export type TranslationWalk = SQL;

/**
 * Containers a read across shards leaves out on this shard: those moving to it, whose rows are complete on the shard
 * they leave (docs/decisions.md, "Subtitles on the shards"). `column` names the container id of the walk's rows.
 */
export const notLeftOut = (column: SQL, leftOut: readonly number[]) => {
  const condition = notLeftOutCondition(column, leftOut);
  return condition ? sql` AND ${condition}` : sql``;
};

/** One page of a walk: LIMIT/OFFSET appended to the walk itself, so its plan (and order) is kept. */
export const walkPage = (db: ShardDB, walk: TranslationWalk, offset: number, limit: number) =>
  db.all<PageEntry>(sql`${walk} LIMIT ${limit} OFFSET ${offset}`);

/**
 * Only for `with_paging=true`: reads the walk up to the paging ceiling's `COUNT_LIMIT` positions, never all of it, and
 * counts the translations among them (not the empty positions).
 */
export async function walkCount(db: ShardDB, walk: TranslationWalk) {
  const row = await db.get<{ n: number }>(sql`SELECT count(id) AS n FROM (${walk} LIMIT ${COUNT_LIMIT})`);
  return Number(row?.n ?? 0);
}

/**
 * One video's translations, by language then id (subtitles_video_language). Without `to`, a loose index
 * scan visits the video's languages with one seek each and skips the origin language without reading it.
 */
export const videoTranslations = (video: { id: number; origin: string }, to: string | undefined): TranslationWalk =>
  to
    ? sql`SELECT id, video_id, created_at, ${video.origin} AS origin FROM subtitles WHERE video_id = ${video.id} AND language = ${to} ORDER BY id`
    : sql`WITH RECURSIVE langs(lang) AS (
          SELECT (SELECT min(language) FROM subtitles WHERE video_id = ${video.id})
          UNION ALL
          SELECT (SELECT min(language) FROM subtitles WHERE video_id = ${video.id} AND language > langs.lang)
          FROM langs WHERE langs.lang IS NOT NULL)
        SELECT s.id AS id, s.video_id AS video_id, s.created_at AS created_at, ${video.origin} AS origin FROM langs
        CROSS JOIN subtitles s ON s.video_id = ${video.id} AND s.language = langs.lang
        WHERE langs.lang <> ${video.origin}`;

/**
 * A container's translations into `to`: its normal videos in episode order (video_facts_container_state_number),
 * each video's subtitles in `to` (subtitles_video_language). Reads one row per video passed plus the page. The
 * container's origin is the catalogue's (read with its visibility).
 */
export function containerTranslations(container: { id: number; origin: string }, to: string, from: string | undefined): TranslationWalk {
  const origin = sql`COALESCE(NULLIF(v.origin_language, ''), ${container.origin})`;
  return sql`SELECT s.id AS id, s.video_id AS video_id, s.created_at AS created_at, ${origin} AS origin
    FROM video_facts v
    CROSS JOIN subtitles s ON s.video_id = v.video_id AND s.language = ${to}
    WHERE v.container_id = ${container.id} AND v.state = 'normal' AND ${origin} <> ${to}
      ${from ? sql`AND ${origin} = ${from}` : sql``}
    ORDER BY v.number, v.video_id, s.id`;
}

/**
 * A position in a walk across shards, for keyset paging (docs/decisions.md, "Keyset paging across shards"): the walk
 * answers only the positions strictly after it in its order.
 */
export type WalkAfter = readonly [number, number];

/**
 * This shard's translations into `to`, by video id then subtitle id. A loose index scan over subtitles_language
 * visits each video that has subtitles in `to` with one seek. Every video it visits is a position of the walk: a video
 * whose origin is `to` (or not `from`), that is not visible, or that a move leaves out yields one row with a null `id`
 * (read no further: the subtitles seek gets a null key), so a page of n positions reads about 4n rows however many
 * videos hold `to` but no translation to list (docs/decisions.md, "Translations and captions"). The LEFT JOINs keep
 * those rows and, as CROSS JOIN did, the loop order. `after` (video, subtitle id; 0 for a video's empty position,
 * which sorts first) starts the scan at that video with one seek and its subtitles after that id (a range on the
 * index's rowid); that video's empty position, or the one its remaining rows would make, is not after it.
 */
export const languageTranslations = (
  to: string,
  from: string | undefined,
  leftOut: readonly number[],
  after?: WalkAfter,
): TranslationWalk =>
  sql`WITH RECURSIVE vids(vid) AS (
      SELECT (SELECT min(video_id) FROM subtitles WHERE language = ${to}${after ? sql` AND video_id >= ${after[0]}` : sql``})
      UNION ALL
      SELECT (SELECT min(video_id) FROM subtitles WHERE language = ${to} AND video_id > vids.vid)
      FROM vids WHERE vids.vid IS NOT NULL)
    SELECT s.id AS id, vids.vid AS video_id, COALESCE(s.created_at, 0) AS created_at, ${ORIGIN} AS origin FROM vids
    LEFT JOIN video_facts v ON v.video_id = vids.vid
    LEFT JOIN container_facts c ON c.container_id = v.container_id
    LEFT JOIN subtitles s ON s.video_id = CASE WHEN v.state = 'normal' AND c.state = 'normal' AND ${ORIGIN} <> ${to}
        ${from ? sql`AND ${ORIGIN} = ${from}` : sql``}${notLeftOut(sql.raw("v.container_id"), leftOut)} THEN vids.vid END
      AND s.language = ${to}${after ? sql` AND s.id > CASE WHEN vids.vid = ${after[0]} THEN ${after[1]} ELSE 0 END` : sql``}
    WHERE vids.vid IS NOT NULL${after ? sql` AND (vids.vid <> ${after[0]} OR s.id IS NOT NULL)` : sql``}`;

/**
 * This shard's translations, newest first (creation time, then id): the partial index subtitles_translations
 * backwards, so originals cost nothing; each entry costs its index row plus its video's and container's facts
 * (visibility, and the container a move leaves out). `after` (creation time, id) starts the backwards range below it.
 */
export const allTranslations = (leftOut: readonly number[], after?: WalkAfter): TranslationWalk =>
  sql`SELECT s.id AS id, s.video_id AS video_id, s.created_at AS created_at, ${ORIGIN} AS origin
    FROM subtitles s INDEXED BY subtitles_translations
    CROSS JOIN video_facts v ON v.video_id = s.video_id
    CROSS JOIN container_facts c ON c.container_id = v.container_id
    WHERE s.is_translation = 1 AND v.state = 'normal' AND c.state = 'normal'${notLeftOut(sql.raw("v.container_id"), leftOut)}
      ${after ? sql`AND (s.created_at, s.id) < (${after[0]}, ${after[1]})` : sql``}
    ORDER BY s.created_at DESC, s.id DESC`;

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
  likes: number;
  dislikes: number;
}

/**
 * The page's subtitles with timing, author (the name the row carries), original and votes, in one statement: about
 * four primary-key or unique reads each, and one read of translation_votes_subtitle per vote (a subquery per row
 * that reads nothing when a subtitle has no votes, where a grouped join would read the page's ids again).
 */
export async function hydrateTranslations(db: ShardDB, page: Array<PageEntry & { id: number }>): Promise<TranslationRow[]> {
  if (!page.length) return [];
  const json = JSON.stringify(page.map((p) => [p.id, p.origin]));
  const rows = await db.all<Omit<TranslationRow, "likes" | "dislikes"> & { votes: string }>(sql`SELECT s.id AS id,
      s.video_id AS video_id, s.language AS language, s.text AS text,
      s.created_at AS created_at, s.updated_at AS updated_at, g.start_ms AS start_ms, g.end_ms AS end_ms,
      CASE WHEN s.author_username IS NULL THEN NULL ELSE s.author_id END AS author_id, s.author_username AS author_username,
      o.id AS original_id, o.language AS original_language, o.text AS original_text,
      (SELECT COALESCE(SUM(value > 0), 0) || ',' || COALESCE(SUM(value < 0), 0) FROM translation_votes WHERE subtitle_id = s.id) AS votes
    FROM json_each(${json}) p
    CROSS JOIN subtitles s ON s.id = json_extract(p.value, '$[0]')
    CROSS JOIN segments g ON g.id = s.segment_id
    LEFT JOIN subtitles o ON o.segment_id = s.segment_id AND o.language = json_extract(p.value, '$[1]')`);
  return rows.map(({ votes, ...row }) => {
    const [likes, dislikes] = votes.split(",").map(Number);
    return { ...row, likes, dislikes };
  });
}

export interface VoteCounts {
  likes: number;
  dislikes: number;
}

/** A subtitle with what the translation routes need to find it again in the catalogue: its video and container. */
interface SubtitleContext {
  id: number;
  segment_id: number;
  video_id: number;
  container_id: number;
  language: string;
  text: string;
}

/** A subtitle by id on one shard (its primary key). */
export const findSubtitleContext = (db: ShardDB, id: number) =>
  db.get<SubtitleContext | undefined>(sql`SELECT id, segment_id, video_id, container_id, language, text FROM subtitles WHERE id = ${id}`);

/**
 * One vote per user and subtitle: a new vote replaces the old (upsert on the primary key), then the counts, in one
 * batch on the subtitle's shard.
 */
export async function castVote(
  db: ShardDB,
  vote: { userId: number; subtitleId: number; containerId: number; videoId: number; value: 1 | -1 },
): Promise<VoteCounts> {
  const [, counts] = await db.batch([
    db
      .insert(translationVotes)
      .values(vote)
      .onConflictDoUpdate({
        target: [translationVotes.userId, translationVotes.subtitleId],
        set: { value: vote.value, createdAt: sql`(unixepoch())` },
      }),
    db
      .select({
        likes: sql<number>`COALESCE(SUM(${translationVotes.value} > 0), 0)`,
        dislikes: sql<number>`COALESCE(SUM(${translationVotes.value} < 0), 0)`,
      })
      .from(translationVotes)
      .where(eq(translationVotes.subtitleId, vote.subtitleId)),
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
 * This shard's subtitles per language over visible videos, split into originals (the video's origin language) and
 * translations: the trigger-kept `language_counts`, one row per language ever used. The containers left out here (`shardMapQuery`: arriving by
 * a move, or draining after one) are counted on their other shard, so their share (their container_language_counts while they are normal:
 * exactly what language_counts holds of them) is taken off.
 */
export const languageTotals = (db: ShardDB, leftOut: readonly number[]) =>
  leftOut.length
    ? db.all<LanguageTotals>(sql`SELECT l.language AS language, l.originals - COALESCE(a.originals, 0) AS originals,
          l.translations - COALESCE(a.translations, 0) AS translations
        FROM language_counts l LEFT JOIN (
          SELECT k.language AS language, sum(k.originals) AS originals, sum(k.translations) AS translations
          FROM container_language_counts k CROSS JOIN container_facts c ON c.container_id = k.container_id
          WHERE k.container_id IN (SELECT value FROM json_each(${JSON.stringify(leftOut)})) AND c.state = 'normal'
          GROUP BY k.language) a ON a.language = l.language`)
    : db.all<LanguageTotals>(sql`SELECT language, originals, translations FROM language_counts WHERE originals > 0 OR translations > 0`);
