import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { ContainerType, VideoType } from "../../domain/catalogue-types";
import type { DB } from "../client";
import { containers, videos } from "../schema";
import type { ShardDB } from "../shards";
import { prefixed } from "./prefixed";
import { publicContainer } from "./search";

/** A line the index matched on a shard, with its times and, when asked, the same segment's line in another language. */
export interface SubtitleMatch {
  id: number;
  containerId: number;
  videoId: number;
  language: string;
  text: string;
  startMs: number;
  endMs: number;
  /** bm25 over the line's text (lower is better). */
  rank: number;
  viewerText: string | null;
}

/**
 * The newest `candidates` lines of a shard the index matches (`match`, an FTS5 expression over `subtitle_search`,
 * src/db/shard-triggers/subtitle-search.sql), in videos and containers the shard's facts call normal. The LIMIT is
 * inside, on the index walk in rowid order, so no more index entries are read whatever the query matches (bm25 is
 * computed for those only); each candidate then reads its subtitle, its segment, the two facts rows and, with
 * `viewerLanguage`, one probe of (segment, language). Unordered: the service ranks. Lines of `leftOut` containers
 * (moving here or draining from here) are left to their other shard.
 */
export function subtitleMatchesQuery(
  db: ShardDB,
  q: { match: string; candidates: number; viewerLanguage?: string; leftOut: readonly number[] },
) {
  const viewer = q.viewerLanguage
    ? sql`(SELECT v.text FROM subtitles v WHERE v.segment_id = s.segment_id AND v.language = ${q.viewerLanguage})`
    : sql`NULL`;
  const leftOut = q.leftOut.length ? sql`AND s.container_id NOT IN (SELECT value FROM json_each(${JSON.stringify(q.leftOut)}))` : sql``;
  return db.all<SubtitleMatch>(sql`SELECT s.id, s.container_id AS containerId, s.video_id AS videoId, s.language, s.text,
      g.start_ms AS startMs, g.end_ms AS endMs, m.rank, ${viewer} AS viewerText
    FROM (SELECT rowid AS id, bm25(subtitle_search, 1.0, 0.0) AS rank FROM subtitle_search
          WHERE subtitle_search MATCH ${q.match} ORDER BY rowid DESC LIMIT ${q.candidates}) m
    CROSS JOIN subtitles s ON s.id = m.id
    CROSS JOIN segments g ON g.id = s.segment_id
    CROSS JOIN video_facts vf ON vf.video_id = s.video_id
    CROSS JOIN container_facts cf ON cf.container_id = s.container_id
    WHERE vf.state = 'normal' AND cf.state = 'normal' ${leftOut}`);
}

const containerFields = prefixed(containers, "c_");

/**
 * The videos of `ids` a public read may show, with their containers: normal videos of public containers
 * (`publicContainer`, the rule of `/v4/search.json`), not adult with `familyFriendly`; with `types`, those whose video type or
 * container type is named. The ids travel as one JSON parameter (D1 binds at most 100). Two primary-key reads per
 * video. Batchable.
 */
export const searchableVideosQuery = (db: DB, ids: readonly number[], f: { types?: readonly string[]; familyFriendly: boolean }) =>
  db
    .select({ video: videos, container: containerFields })
    .from(videos)
    .innerJoin(containers, eq(containers.id, videos.containerId))
    .where(
      and(
        sql`${videos.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        eq(videos.state, "normal"),
        publicContainer,
        f.types ? or(inArray(videos.type, f.types as VideoType[]), inArray(containers.type, f.types as ContainerType[])) : undefined,
        f.familyFriendly ? eq(containers.adult, false) : undefined,
      ),
    );

/** A shard's subtitle lines after `afterId` in id order (of one container with `containerId`): what the index is built from. */
export const subtitleTextsAfter = (db: ShardDB, q: { afterId: number; containerId?: number; limit: number }) =>
  db.all<{ id: number; text: string; searchText: string | null }>(sql`SELECT id, text, search_text AS searchText FROM subtitles
    WHERE id > ${q.afterId} ${q.containerId === undefined ? sql`` : sql`AND container_id = ${q.containerId}`}
    ORDER BY ${q.containerId === undefined ? sql`id` : sql`container_id, id`} LIMIT ${q.limit}`);

/**
 * Writes each line's index form (`x`) and so, through the update trigger, its index entry again (src/db/shard-triggers/
 * subtitle-search.sql): `search_text` is in the SET list of every row given, changed or not. A line whose text changed
 * since it was read (`t`) keeps the form its writer gave it. One statement; the rows travel as one JSON parameter.
 */
export const writeIndexFormsStatement = (db: ShardDB, rows: ReadonlyArray<{ id: number; t: string; x: string | null }>) =>
  db.run(sql`UPDATE subtitles SET search_text = CASE WHEN subtitles.text = json_extract(j.value, '$.t')
      THEN json_extract(j.value, '$.x') ELSE subtitles.search_text END
    FROM json_each(${JSON.stringify(rows)}) j WHERE subtitles.id = json_extract(j.value, '$.id')`);
