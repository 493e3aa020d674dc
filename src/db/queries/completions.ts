import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { DB } from "../client";
import { containers, shardDirectory, subtitleCompletions, videos } from "../schema";
import type { ShardDB } from "../shards";

/**
 * Completions: floor(100 × segments with text / segments) per video and language, and per container weighted by
 * segments over its normal videos. The segments and subtitles are on the container's shard; the percentages are the
 * catalogue's `subtitle_completions` (documents and listings sort and filter by them), so the completion job reads
 * them on the shards and writes them here (docs/decisions.md, "Subtitles on the shards").
 */

/** A percentage computed on a shard: a video's or a container's, in one language. */
export interface Percent {
  id: number;
  language: string;
  percent: number;
}

// A segment counts as done in a language when it has a subtitle with non-blank text in it.
const HAS_TEXT = sql.raw("trim(t.text) <> ''");

/**
 * Per video of `ids` on this shard and language: the percentage, in one aggregate statement (languages with text only).
 * The statement alone is exported too: the demo seed runs it on the local shards (scripts/demo/completions.mjs).
 */
export const videoPercentsSql = (ids: number[]) =>
  sql`WITH ids AS (SELECT value AS id FROM json_each(${JSON.stringify(ids)})),
      seg AS (SELECT s.video_id, count(*) AS n FROM ids JOIN segments s ON s.video_id = ids.id GROUP BY s.video_id)
    SELECT t.video_id AS id, t.language AS language, (100 * count(*)) / seg.n AS percent
    FROM ids JOIN subtitles t ON t.video_id = ids.id JOIN seg ON seg.video_id = t.video_id
    WHERE ${HAS_TEXT}
    GROUP BY t.video_id, t.language`;
export const videoPercents = (db: ShardDB, ids: number[]) => db.all<Percent>(videoPercentsSql(ids));

/**
 * Per container and language, weighted by segments over the videos given as `[container, video]` pairs (its normal
 * videos, as the catalogue has them): floor(100 × Σ segments with text / Σ segments), in one aggregate statement.
 */
export const containerPercentsSql = (videos: Array<[number, number]>) =>
  sql`WITH vids AS (SELECT json_extract(value, '$[0]') AS container_id, json_extract(value, '$[1]') AS id
        FROM json_each(${JSON.stringify(videos)})),
      seg AS (SELECT vids.container_id, count(*) AS n FROM vids JOIN segments s ON s.video_id = vids.id GROUP BY vids.container_id)
    SELECT vids.container_id AS id, t.language AS language, (100 * count(*)) / seg.n AS percent
    FROM vids JOIN subtitles t ON t.video_id = vids.id JOIN seg ON seg.container_id = vids.container_id
    WHERE ${HAS_TEXT}
    GROUP BY vids.container_id, t.language`;
export const containerPercents = (db: ShardDB, videos: Array<[number, number]>) => db.all<Percent>(containerPercentsSql(videos));

/** Resources one pair of write statements covers: their percentages travel as one JSON parameter (2 MB at most). */
const IDS_PER_STATEMENT = 200;

/**
 * The catalogue's statements that make `subtitle_completions` of these videos or containers what the shards computed:
 * an upsert that writes only changed percentages (so unchanged ones fire no trigger), then a delete of the languages
 * left without any text. A pair per IDS_PER_STATEMENT resources.
 */
export function completionWriteStatements(kind: "c" | "v", ids: number[], percents: Percent[]): SQL[] {
  const statements: SQL[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
    const inChunk = new Set(chunk);
    const rows = percents.filter((p) => inChunk.has(p.id));
    if (rows.length) {
      statements.push(sql`INSERT INTO subtitle_completions (resource_kind, resource_id, language, percent)
        SELECT ${kind}, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
        FROM json_each(${JSON.stringify(rows.map((r) => [r.id, r.language, r.percent]))}) WHERE true
        ON CONFLICT (resource_kind, resource_id, language) DO UPDATE SET percent = excluded.percent, updated_at = unixepoch()
        WHERE subtitle_completions.percent <> excluded.percent`);
    }
    statements.push(sql`DELETE FROM subtitle_completions
      WHERE resource_kind = ${kind} AND resource_id IN (SELECT value FROM json_each(${JSON.stringify(chunk)}))
      AND resource_id || ':' || language NOT IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => `${r.id}:${r.language}`))}))`);
  }
  return statements;
}

const PLACEMENT = {
  containerId: shardDirectory.containerId,
  shard: shardDirectory.shard,
  movingTo: shardDirectory.movingTo,
};

/** Each of these videos with its container's placement (a video that is gone has no row). Batchable. */
export const videoPlacementsQuery = (db: DB, ids: number[]) =>
  db
    .select({ videoId: videos.id, ...PLACEMENT })
    .from(videos)
    .innerJoin(shardDirectory, eq(shardDirectory.containerId, videos.containerId))
    .where(sql`${videos.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);

/** Each of these containers' placement and its normal videos (a JSON array, from videos_container_state_number). Batchable. */
export const containerScopeQuery = (db: DB, ids: number[]) =>
  db
    .select({
      ...PLACEMENT,
      // Qualified by hand: drizzle writes a one-table select's columns bare, which the subquery would take as its own.
      videos: sql<string>`(SELECT json_group_array(v.id) FROM videos v WHERE v.container_id = shard_directory.container_id AND v.state = 'normal')`,
    })
    .from(shardDirectory)
    .where(sql`${shardDirectory.containerId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);

/** Materialised completions of some videos or containers: `[{id, language, percent}]`. */
export const readCompletions = (db: DB, kind: "c" | "v", ids: number[]) =>
  ids.length
    ? db
        .select({ id: subtitleCompletions.resourceId, language: subtitleCompletions.language, percent: subtitleCompletions.percent })
        .from(subtitleCompletions)
        .where(
          and(
            eq(subtitleCompletions.resourceKind, kind),
            sql`${subtitleCompletions.resourceId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
          ),
        )
        .orderBy(asc(subtitleCompletions.resourceId), asc(subtitleCompletions.language))
        .all()
    : Promise.resolve([]);

/** One video's materialised completions (a query, for a batch). */
export const videoCompletionsQuery = (db: DB, videoId: number) =>
  db
    .select({ language: subtitleCompletions.language, percent: subtitleCompletions.percent })
    .from(subtitleCompletions)
    .where(and(eq(subtitleCompletions.resourceKind, "v"), eq(subtitleCompletions.resourceId, videoId)));

/** The normal-state videos of a container, by number. */
export const normalVideoIds = (db: DB, containerId: number) =>
  db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.containerId, containerId), eq(videos.state, "normal")))
    .orderBy(asc(videos.number), asc(videos.id))
    .all();

/** State and container (with its state) of some videos, for visibility checks. */
export const videoVisibility = (db: DB, ids: number[]) =>
  ids.length
    ? db
        .select({
          id: videos.id,
          state: videos.state,
          containerId: videos.containerId,
          containerState: sql<string>`${containers.state}`.as("container_state"),
        })
        .from(videos)
        .innerJoin(containers, eq(containers.id, videos.containerId))
        .where(sql`${videos.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
        .all()
    : Promise.resolve([]);

/**
 * The `doc_version` of some videos or containers, read before a recompute: the completion triggers bump it whenever a
 * percentage is inserted, changed or deleted (migrations/0003), so a version that moved during the recompute's batch
 * says that resource's percentages changed (`completionEventStatements`). Batchable.
 */
export const docVersionsQuery = (db: DB, kind: "c" | "v", ids: number[]) => {
  const table = kind === "v" ? videos : containers;
  return db
    .select({ id: table.id, version: table.docVersion })
    .from(table)
    .where(sql`${table.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
};
