import { type SQL, sql } from "drizzle-orm";
import type { DB } from "../client";

/**
 * The catalogue's facts the shards keep a copy of (docs/decisions.md, "Shards: the subtitle family"): read here from
 * the shard_fact_changes outbox and the catalogue in one statement (one snapshot), written to the shards' container_facts
 * and video_facts.
 */

export interface PendingFacts {
  container_id: number;
  /** Null: the container's own facts. */
  video_id: number | null;
  /** The newest change of this container or video among those read: the version its facts are written with. */
  change_id: number;
  /** Null when the container is gone (its cleanup removes its rows from the shards). */
  container_state: string | null;
  container_origin: string | null;
  /** Null when the video is gone, or for a container's own change. */
  video_state: string | null;
  video_origin: string | null;
  number: number | null;
  /** Every shard that may hold the container's rows (shard_homes), comma-separated; null when it has none. */
  shards: string | null;
  /** Every change this row stands for, comma-separated: what a sync that carried it deletes. */
  change_ids: string;
}

/**
 * The oldest `limit` changes, one row per container or video they name, with its current facts and shards. The shards
 * are gathered for the pending containers first (homes): a subquery correlated with each change would keep SQLite
 * from pushing the container into shard_homes' two branches, and it would scan the whole directory. `skip`: shards
 * that failed earlier in this sync; the changes of their containers are left where they are (read past: the directory's
 * entries of those shards, and their changes ahead of the others').
 */
export const pendingFacts = (db: DB, limit: number, skip: number[] = []) =>
  db.all<PendingFacts>(sql`WITH pending AS (SELECT id, container_id, video_id FROM shard_fact_changes
      ${skip.length ? sql`WHERE container_id NOT IN (SELECT container_id FROM shard_homes WHERE shard IN (SELECT value FROM json_each(${JSON.stringify(skip)})))` : sql``}
      ORDER BY id LIMIT ${limit}),
    homes AS (SELECT container_id, group_concat(shard) AS shards FROM shard_homes
      WHERE container_id IN (SELECT container_id FROM pending) GROUP BY container_id)
    SELECT p.container_id AS container_id, p.video_id AS video_id, max(p.id) AS change_id, group_concat(p.id) AS change_ids,
      c.state AS container_state, c.origin_language AS container_origin,
      v.state AS video_state, v.origin_language AS video_origin, v.number AS number, h.shards AS shards
    FROM pending p
    LEFT JOIN containers c ON c.id = p.container_id
    LEFT JOIN videos v ON v.id = p.video_id AND v.container_id = p.container_id
    LEFT JOIN homes h ON h.container_id = p.container_id
    GROUP BY p.container_id, p.video_id
    ORDER BY change_id`);

/** These changes have been carried to every shard they name (one JSON parameter, whatever their number). */
export const deleteFactChanges = (db: DB, ids: number[]) =>
  db.run(sql`DELETE FROM shard_fact_changes WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);

interface ContainerFactsRow {
  containerId: number;
  state: string;
  originLanguage: string;
  changeId: number;
}
interface VideoFactsRow extends ContainerFactsRow {
  videoId: number;
  number: number | null;
}

/**
 * A container's facts on a shard: written over an older version only (`changeId` 0, a writer's own, only inserts), so
 * overlapping syncs leave the newest. The shard's triggers recount and reflag what the change touches.
 */
export const containerFactsStatement = (f: ContainerFactsRow) =>
  sql`INSERT INTO container_facts (container_id, state, origin_language, change_id)
    VALUES (${f.containerId}, ${f.state}, ${f.originLanguage}, ${f.changeId})
    ON CONFLICT (container_id) DO UPDATE SET state = excluded.state, origin_language = excluded.origin_language,
      change_id = excluded.change_id
    WHERE excluded.change_id > container_facts.change_id`;

/** The same for a video. */
export const videoFactsStatement = (f: VideoFactsRow) =>
  sql`INSERT INTO video_facts (video_id, container_id, state, origin_language, number, change_id)
    VALUES (${f.videoId}, ${f.containerId}, ${f.state}, ${f.originLanguage}, ${f.number}, ${f.changeId})
    ON CONFLICT (video_id) DO UPDATE SET state = excluded.state, origin_language = excluded.origin_language,
      number = excluded.number, change_id = excluded.change_id
    WHERE excluded.change_id > video_facts.change_id`;

/** Rows of video facts one statement writes (they travel as one JSON parameter). */
const FACTS_PER_STATEMENT = 500;

/**
 * A container's videos' facts where the shard has none (a writer's own, change 0: an insert only), a statement per
 * FACTS_PER_STATEMENT videos, so a container of thousands of videos is a few statements.
 */
export function videoFactsRowsStatements(
  containerId: number,
  videos: Array<{ video_id: number; state: string; origin_language: string; number: number | null }>,
) {
  const statements: SQL[] = [];
  for (let i = 0; i < videos.length; i += FACTS_PER_STATEMENT) {
    const json = JSON.stringify(videos.slice(i, i + FACTS_PER_STATEMENT));
    statements.push(sql`INSERT INTO video_facts (video_id, container_id, state, origin_language, number, change_id)
      SELECT json_extract(value, '$.video_id'), ${containerId}, json_extract(value, '$.state'),
        json_extract(value, '$.origin_language'), json_extract(value, '$.number'), 0
      FROM json_each(${json}) WHERE true ON CONFLICT (video_id) DO NOTHING`);
  }
  return statements;
}

/**
 * The facts of the video a subtitle writer is about to write, inserted where the shard has none yet (`changeId` 0 never
 * overwrites a sync's), so the shard's triggers find its origin and states. The writer read them in its catalogue batch.
 */
export const ensureFactsStatements = (
  video: { id: number; containerId: number; state: string; originLanguage: string | null; number: number | null },
  container: { id: number; state: string; originLanguage: string },
) => [
  containerFactsStatement({ containerId: container.id, state: container.state, originLanguage: container.originLanguage, changeId: 0 }),
  videoFactsStatement({
    videoId: video.id,
    containerId: video.containerId,
    state: video.state,
    originLanguage: video.originLanguage ?? "",
    number: video.number,
    changeId: 0,
  }),
];
