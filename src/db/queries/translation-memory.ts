import { type SQL, sql } from "drizzle-orm";
import { runBatchResults } from "../raw-batch";
import type { ShardDB } from "../shards";

/** A translation unit a shard found: a segment's source-language subtitle with its target-language one. */
export interface UnitRow {
  /** The source subtitle's id. */
  id: number;
  source: string;
  target: string;
  videoId: number;
  containerId: number;
  startMs: number;
  /** The target subtitle's author and time of last change (unix seconds): who translated it, and when. */
  authorId: number | null;
  updatedAt: number;
  /** The source-language texts of the video's previous and next segments (null where there is none); read only when asked. */
  previous: string | null;
  next: string | null;
}

/** Whitespace `trim` removes besides the space (SQLite's trim removes spaces only): tab, line feed, carriage return. */
const BLANK = sql`' ' || char(9, 10, 13)`;

/** The source-language text of the segment next to `g` in its video, before (`<`, newest first) or after. */
const neighbour = (side: "previous" | "next") => {
  const [cmp, order] = side === "previous" ? [sql`<`, sql`DESC`] : [sql`>`, sql`ASC`];
  return sql`(SELECT n.text FROM subtitles n WHERE n.language = s.language AND n.segment_id =
      (SELECT ng.id FROM segments ng WHERE ng.video_id = g.video_id AND ng.start_ms ${cmp} g.start_ms ORDER BY ng.start_ms ${order} LIMIT 1))`;
};

/**
 * The units of one text on a shard (docs/decisions.md, "Translation memory"): the index walked newest first for
 * `match` (an FTS5 expression over `subtitle_search` naming the source language's scope, and a container's when
 * narrowed), stopped after `candidates` lines, as the subtitle search does (src/db/queries/subtitle-search.ts), so the
 * rows read are bounded by the LIMIT whatever the text. Each candidate then reads its subtitle, its segment, the two
 * facts rows (normal videos of normal containers only), one probe of (segment, target language) and one probe of
 * open reports on each of the two subtitles; with `context`, two segments and two subtitles more. A blank target, a
 * subtitle with an open report and the containers of `leftOut` (moving here or draining from here: read on their
 * other shard) are not units. Unordered: the service scores and ranks. A statement, for one batch per shard.
 */
export function unitsStatement(q: {
  match: string;
  candidates: number;
  sourceLanguage: string;
  targetLanguage: string;
  context: boolean;
  leftOut: readonly number[];
}): SQL {
  const neighbours = q.context
    ? sql`${neighbour("previous")} AS previous, ${neighbour("next")} AS next`
    : sql`NULL AS previous, NULL AS next`;
  const leftOut = q.leftOut.length ? sql`AND s.container_id NOT IN (SELECT value FROM json_each(${JSON.stringify(q.leftOut)}))` : sql``;
  return sql`SELECT s.id, s.text AS source, t.text AS target, s.video_id AS videoId, s.container_id AS containerId,
      g.start_ms AS startMs, t.author_id AS authorId, t.updated_at AS updatedAt, ${neighbours}
    FROM (SELECT rowid AS id FROM subtitle_search WHERE subtitle_search MATCH ${q.match} ORDER BY rowid DESC LIMIT ${q.candidates}) m
    CROSS JOIN subtitles s ON s.id = m.id
    CROSS JOIN segments g ON g.id = s.segment_id
    CROSS JOIN video_facts vf ON vf.video_id = s.video_id
    CROSS JOIN container_facts cf ON cf.container_id = s.container_id
    CROSS JOIN subtitles t ON t.segment_id = s.segment_id AND t.language = ${q.targetLanguage}
    WHERE s.language = ${q.sourceLanguage} AND vf.state = 'normal' AND cf.state = 'normal' AND trim(t.text, ${BLANK}) <> ''
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.subtitle_id = s.id AND r.status = 'open')
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.subtitle_id = t.id AND r.status = 'open') ${leftOut}`;
}

/** Every statement of a shard in one D1 batch (one round trip): each statement's units, in the order given. */
export async function runUnitStatements(db: ShardDB, statements: SQL[]): Promise<UnitRow[][]> {
  const results = await runBatchResults(db, statements);
  return results.map((r) => (r.results ?? []) as UnitRow[]);
}
