import { sql, type SQL } from "drizzle-orm";
import type { DB } from "../client";
import { SUBTITLE_FAMILY_TABLES, type SubtitleFamilyTable } from "../shard-schema";
import type { ShardRow } from "./shard-rows";

/**
 * The catalogue's subtitle family read in the shape of a shard's tables (docs/decisions.md, "Shards: the subtitle
 * family"), for the job that copies a container's family to its shard (src/jobs/subtitle-family-copy.ts): each row
 * gains its container, and the author's name where a shard row carries it. Rows keep their catalogue ids, which lie
 * below every shard's id range (shard n starts at n·2^32), so they collide with no id a shard hands out.
 * A table is read one video at a time, in rowid order, through the video's index.
 */

/** Per table: the catalogue rows of one video (`t` is the table, `v` its video), as the shard's columns. */
const SOURCES: Record<SubtitleFamilyTable, { columns: SQL; from: (videoId: number) => SQL }> = {
  segments: {
    columns: sql`t.id, v.container_id, t.video_id, t.start_ms, t.end_ms, t.author_id, t.created_at`,
    from: (id) => sql`segments t CROSS JOIN videos v ON v.id = t.video_id WHERE t.video_id = ${id}`,
  },
  subtitles: {
    columns: sql`t.id, v.container_id, t.segment_id, t.video_id, t.language, t.text, t.author_id,
      u.username AS author_username, t.version, t.is_translation, t.created_at, t.updated_at`,
    from: (id) =>
      sql`subtitles t CROSS JOIN videos v ON v.id = t.video_id LEFT JOIN users u ON u.id = t.author_id WHERE t.video_id = ${id}`,
  },
  subtitle_histories: {
    columns: sql`t.id, t.kind, t.user_id, u.username, t.video_id, t.container_id, t.segment_id, t.subtitle_id, t.language,
      t.text, t.version, t.count, t.source_key, t.created_at`,
    from: (id) => sql`subtitle_histories t CROSS JOIN users u ON u.id = t.user_id WHERE t.video_id = ${id}`,
  },
  subtitle_versions: {
    columns: sql`t.id, v.container_id, t.video_id, t.language, t.number, t.author_id, t.application_id, t.cause, t.cues,
      t.completion, t.hash, t.bytes, t.restored_from, t.created_at`,
    from: (id) => sql`subtitle_versions t CROSS JOIN videos v ON v.id = t.video_id WHERE t.video_id = ${id}`,
  },
  translation_votes: {
    columns: sql`t.user_id, t.subtitle_id, v.container_id, s.video_id, t.value, t.created_at`,
    from: (id) =>
      sql`subtitles s CROSS JOIN translation_votes t ON t.subtitle_id = s.id CROSS JOIN videos v ON v.id = s.video_id
        WHERE s.video_id = ${id}`,
  },
  reports: {
    columns: sql`t.id, t.subtitle_id, t.user_id, u.username, t.reason, s.video_id, v.container_id, t.language, t.text,
      t.version, t.status, t.resolution, t.resolved_by, t.resolved_at, t.created_at`,
    from: (id) =>
      sql`subtitles s CROSS JOIN reports t ON t.subtitle_id = s.id CROSS JOIN videos v ON v.id = s.video_id
        CROSS JOIN users u ON u.id = t.user_id WHERE s.video_id = ${id}`,
  },
  caption_suggestions: {
    columns: sql`t.id, t.origin_subtitle_id, v.container_id, s.video_id, t.language, t.user_id, t.content, t.created_at`,
    from: (id) =>
      sql`subtitles s CROSS JOIN caption_suggestions t ON t.origin_subtitle_id = s.id CROSS JOIN videos v ON v.id = s.video_id
        WHERE s.video_id = ${id}`,
  },
};

/** The next rows of one video's family in `table` after rowid `after`, as a shard's rows. */
export const familyRowsAfter = (db: DB, table: SubtitleFamilyTable, videoId: number, after: number, limit: number) =>
  db.all<ShardRow>(
    sql`SELECT t.rowid AS _rowid, ${SOURCES[table].columns} FROM ${SOURCES[table].from(videoId)} AND t.rowid > ${after}
      ORDER BY t.rowid LIMIT ${limit}`,
  );

/** A container's videos, with the facts a shard keeps of them. */
export const containerVideoFacts = (db: DB, containerId: number) =>
  db.all<{ video_id: number; state: string; origin_language: string; number: number | null }>(
    sql`SELECT id AS video_id, state, origin_language, number FROM videos WHERE container_id = ${containerId} ORDER BY id`,
  );

/** What the catalogue holds of a container's family: rows per table, and the two counts the triggers derive. */
export async function catalogueFamilyCounts(db: DB, containerId: number) {
  const videos = sql`(SELECT id FROM videos WHERE container_id = ${containerId})`;
  const bySubtitle = (table: string, column: string) =>
    sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} IN (SELECT id FROM subtitles WHERE video_id IN ${videos})`;
  const counts: Record<SubtitleFamilyTable, SQL> = {
    segments: sql`SELECT count(*) AS n FROM segments WHERE video_id IN ${videos}`,
    subtitles: sql`SELECT count(*) AS n FROM subtitles WHERE video_id IN ${videos}`,
    subtitle_histories: sql`SELECT count(*) AS n FROM subtitle_histories WHERE video_id IN ${videos}`,
    subtitle_versions: sql`SELECT count(*) AS n FROM subtitle_versions WHERE video_id IN ${videos}`,
    translation_votes: bySubtitle("translation_votes", "subtitle_id"),
    reports: bySubtitle("reports", "subtitle_id"),
    caption_suggestions: bySubtitle("caption_suggestions", "origin_subtitle_id"),
  };
  const rows = {} as Record<SubtitleFamilyTable, number>;
  for (const table of SUBTITLE_FAMILY_TABLES) rows[table] = (await db.get<{ n: number }>(counts[table]))?.n ?? 0;
  return {
    rows,
    derived: await derivedCounts(db, containerId),
  };
}

/** The derived counts of a container as text, rows at zero left out: equal on two databases when their triggers agree. */
export async function derivedCounts(db: Pick<DB, "get">, containerId: number) {
  const row = await db.get<{ contributions: string | null; languages: string | null }>(
    sql`SELECT
      (SELECT group_concat(user_id || ':' || segments || ':' || subtitles || ':' || total, ',')
        FROM (SELECT * FROM contributions WHERE container_id = ${containerId} AND total <> 0 ORDER BY user_id)) AS contributions,
      (SELECT group_concat(language || ':' || originals || ':' || translations, ',')
        FROM (SELECT * FROM container_language_counts WHERE container_id = ${containerId} AND (originals <> 0 OR translations <> 0)
          ORDER BY language)) AS languages`,
  );
  return { contributions: row?.contributions ?? "", languages: row?.languages ?? "" };
}
