import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { DB } from "../client";
import { containers, subtitleCompletions, videos } from "../schema";

// A segment counts as done in a language when it has a subtitle with non-blank text in it.
const HAS_TEXT = sql.raw("trim(t.text) <> ''");
const UPSERT =
  sql.raw(`ON CONFLICT (resource_kind, resource_id, language) DO UPDATE SET percent = excluded.percent, updated_at = unixepoch()
  WHERE subtitle_completions.percent <> excluded.percent`);

/**
 * Per video and language: floor(100 × segments with text / segments of the video), for every video in
 * `ids` in one aggregate statement, upserted so that unchanged percentages write nothing (and fire no
 * trigger); then languages without any text left are deleted.
 */
export function videoCompletionStatements(ids: number[]): SQL[] {
  const json = JSON.stringify(ids);
  return [
    sql`WITH ids AS (SELECT value AS id FROM json_each(${json})),
      seg AS (SELECT s.video_id, count(*) AS n FROM segments s JOIN ids ON s.video_id = ids.id GROUP BY s.video_id)
      INSERT INTO subtitle_completions (resource_kind, resource_id, language, percent)
      SELECT 'v', t.video_id, t.language, (100 * count(*)) / seg.n
      FROM ids JOIN subtitles t ON t.video_id = ids.id JOIN seg ON seg.video_id = t.video_id
      WHERE ${HAS_TEXT}
      GROUP BY t.video_id, t.language
      ${UPSERT}`,
    sql`DELETE FROM subtitle_completions
      WHERE resource_kind = 'v' AND resource_id IN (SELECT value FROM json_each(${json}))
      AND NOT EXISTS (SELECT 1 FROM subtitles t WHERE t.video_id = subtitle_completions.resource_id
        AND t.language = subtitle_completions.language AND ${HAS_TEXT})`,
  ];
}

/**
 * Per container and language, weighted by segments over its normal-state videos:
 * floor(100 × Σ segments with text / Σ segments), in one aggregate statement for all of `ids`.
 */
export function containerCompletionStatements(ids: number[]): SQL[] {
  const json = JSON.stringify(ids);
  return [
    sql`WITH ids AS (SELECT value AS id FROM json_each(${json})),
      vids AS (SELECT v.id, v.container_id FROM ids JOIN videos v ON v.container_id = ids.id AND v.state = 'normal'),
      seg AS (SELECT vids.container_id, count(*) AS n FROM vids JOIN segments s ON s.video_id = vids.id GROUP BY vids.container_id)
      INSERT INTO subtitle_completions (resource_kind, resource_id, language, percent)
      SELECT 'c', vids.container_id, t.language, (100 * count(*)) / seg.n
      FROM vids JOIN subtitles t ON t.video_id = vids.id JOIN seg ON seg.container_id = vids.container_id
      WHERE ${HAS_TEXT}
      GROUP BY vids.container_id, t.language
      ${UPSERT}`,
    sql`DELETE FROM subtitle_completions
      WHERE resource_kind = 'c' AND resource_id IN (SELECT value FROM json_each(${json}))
      AND NOT EXISTS (SELECT 1 FROM videos v JOIN subtitles t ON t.video_id = v.id
        WHERE v.container_id = subtitle_completions.resource_id AND v.state = 'normal'
        AND t.language = subtitle_completions.language AND ${HAS_TEXT})`,
  ];
}

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
 * The `doc_version` of some videos and containers, read before a recompute: the completion triggers bump it whenever
 * a percentage is inserted, changed or deleted (migrations/0003), so a version that moved during the recompute's
 * batch says that resource's percentages changed (`completionEventStatements`).
 */
export async function completionDocVersions(db: DB, videoIds: number[], containerIds: number[]) {
  const read = (table: typeof videos | typeof containers, ids: number[]) =>
    db
      .select({ id: table.id, version: table.docVersion })
      .from(table)
      .where(sql`${table.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  // One round trip for both (an empty id list reads nothing).
  const [v, c] = await db.batch([read(videos, videoIds), read(containers, containerIds)]);
  const pairs = (rows: { id: number; version: number }[]) => rows.map((r) => [r.id, r.version] as [number, number]);
  return { videos: pairs(v), containers: pairs(c) };
}
