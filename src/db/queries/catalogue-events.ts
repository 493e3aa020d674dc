import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { DB } from "../client";
import type { ShardDB } from "../shards";
import { descriptions, titles, webhookEvents } from "../schema";
import type { EventInput } from "./webhook-events";

/**
 * The catalogue events (the `official` types of src/domain/webhook-events.ts; docs/decisions.md, "Signed webhooks"), as
 * stored: ids on the wire form and paths the delivery turns into URLs (src/webhooks/event-body.ts). Audience: every
 * official application (no applicationId). Events whose existence depends on the batch itself (on rows the batch may
 * find missing or gone) are INSERT ... SELECT statements, so they are recorded exactly when the change is made, in its
 * transaction; the others go through recordEvent.
 */

/**
 * The paths events carry, as the literal parts around an id (and a language): the same shape for an event built here
 * (`videoPath(12)`) and one built inside a statement over a column (`pathSql`), so the two cannot drift.
 */
const PATHS = {
  video: ["/v4/videos/", "v.json"],
  container: ["/v4/containers/", "c.json"],
  videoCompletions: ["/v4/subtitle_completions.json?video_ids=", "v"],
  containerCompletions: ["/v4/subtitle_completions.json?container_id=", "c"],
} as const;
type PathKind = keyof typeof PATHS;
const SUBTITLES = ["/v4/videos/", "v/subtitles/", ".srt"] as const;

const path = (kind: PathKind, id: number) => `${PATHS[kind][0]}${id}${PATHS[kind][1]}`;
const pathSql = (kind: PathKind, id: SQL) => sql`(${PATHS[kind][0]} || ${id} || ${PATHS[kind][1]})`;

const videoPath = (videoId: number) => path("video", videoId);
const containerPath = (containerId: number) => path("container", containerId);
const subtitlesPath = (videoId: number, language: string) => `${SUBTITLES[0]}${videoId}${SUBTITLES[1]}${language}${SUBTITLES[2]}`;
const subtitlesPathSql = (videoId: SQL, language: SQL) =>
  sql`(${SUBTITLES[0]} || ${videoId} || ${SUBTITLES[1]} || ${language} || ${SUBTITLES[2]})`;

export type SubtitlesCause = "import" | "edit" | "restore" | "deletion";

export const subtitlesUpdatedEvent = (
  scope: { videoId: number; containerId: number; language: string },
  cause: SubtitlesCause,
): EventInput => ({
  type: "subtitles.updated",
  data: {
    video_id: `${scope.videoId}v`,
    container_id: `${scope.containerId}c`,
    language: scope.language,
    cause,
    video_path: videoPath(scope.videoId),
    subtitles_path: subtitlesPath(scope.videoId, scope.language),
  },
});

export const containerUpdatedEvent = (containerId: number): EventInput => ({
  type: "container.updated",
  data: { container_id: `${containerId}c`, path: containerPath(containerId) },
});

/**
 * `INSERT INTO webhook_events SELECT <type>, <data> <rest>`: one catalogue event per row `rest` yields. The column
 * list is drizzle's (every column of the table, in schema order), so the values follow that order by name.
 */
function insertEventsSelect(db: DB, type: string, data: SQL, rest: SQL) {
  const values: Record<string, SQL> = { id: sql`NULL`, type: sql`${type}`, data, createdAt: sql`unixepoch()` };
  const list = sql.join(
    Object.keys(getTableColumns(webhookEvents)).map((key) => values[key] ?? sql`NULL`),
    sql`, `,
  );
  return db.insert(webhookEvents).select(sql`SELECT ${list} ${rest}`);
}

const CONTAINER_DELETED_SQL = `INSERT INTO webhook_events (type, data)
  SELECT 'container.deleted', json_object('container_id', id || 'c') FROM containers WHERE id = ?1`;

/** container.deleted, for the D1 batch that deletes the row after it: none when the container is already gone. */
export const containerDeletedStatement = (d1: D1Database, containerId: number) => d1.prepare(CONTAINER_DELETED_SQL).bind(containerId);

/** The same for a drizzle batch (a container deleted in its request). */
export const containerDeletedEvent = (db: DB, containerId: number) =>
  insertEventsSelect(db, "container.deleted", sql`json_object('container_id', id || 'c')`, sql`FROM containers WHERE id = ${containerId}`);

/**
 * container.updated for the batch that deletes a container's title or description, placed before the delete: none
 * when there is no such text (the request is then a 404 and nothing changed).
 */
export function containerTextRemovedEvent(db: DB, kind: "title" | "description", containerId: number, language: string) {
  const table = kind === "title" ? titles : descriptions;
  const event = containerUpdatedEvent(containerId);
  return insertEventsSelect(
    db,
    event.type,
    sql`${JSON.stringify(event.data)}`,
    sql`WHERE EXISTS (SELECT 1 FROM ${table} WHERE ${table.resourceKind} = 'c' AND ${table.resourceId} = ${containerId}
      AND ${table.language} = ${language})`,
  );
}

/**
 * The languages in which a video has text, on its container's shard: what a deleted video's subtitles.updated events
 * name (`videoSubtitlesDeletedEvents`). One range of subtitles_video_language.
 */
export const videoTextLanguages = async (db: ShardDB, videoId: number) =>
  (
    await db.all<{ language: string }>(
      sql`SELECT DISTINCT language FROM subtitles WHERE video_id = ${videoId} AND trim(text) <> '' ORDER BY language`,
    )
  ).map((r) => r.language);

/**
 * subtitles.updated (cause `deletion`) for each of `languages` (those the video has text in, read on its shard first),
 * for the catalogue batch that deletes the video, placed before the delete: an application that cached a `.srt` learns
 * that it is gone. None when the video is already gone (a replay, or a delete that lost a race).
 */
export const videoSubtitlesDeletedEvents = (db: DB, videoId: number, languages: string[]) =>
  insertEventsSelect(
    db,
    "subtitles.updated",
    sql`json_object('video_id', v.id || 'v', 'container_id', v.container_id || 'c', 'language', l.value, 'cause', 'deletion',
      'video_path', ${pathSql("video", sql`v.id`)}, 'subtitles_path', ${subtitlesPathSql(sql`v.id`, sql`l.value`)})`,
    sql`FROM videos v CROSS JOIN json_each(${JSON.stringify(languages)}) l WHERE v.id = ${videoId}`,
  );

/**
 * completion.updated for each video and container whose `doc_version` moved past the one read before the batch
 * (`completionDocVersions` in ./completions.ts); put last in the recompute's batch, so an event is recorded with the
 * percentages it announces. Something else bumping a version between the read and the batch (a title edit in that
 * instant) costs an extra event, never a lost one: a change the batch makes always moves the version. Each statement
 * yields one row per event recorded.
 */
export function completionEventStatements(db: DB, before: { videos: Array<[number, number]>; containers: Array<[number, number]> }): SQL[] {
  const kinds = [
    { pairs: before.videos, type: "video", table: sql`videos`, suffix: "v", kind: "video", completions: "videoCompletions" },
    {
      pairs: before.containers,
      type: "container",
      table: sql`containers`,
      suffix: "c",
      kind: "container",
      completions: "containerCompletions",
    },
  ] as const;
  return kinds
    .filter((k) => k.pairs.length)
    .map((k) =>
      insertEventsSelect(
        db,
        "completion.updated",
        sql`json_object('resource_type', ${k.type}, 'id', r.id || ${k.suffix}, 'path', ${pathSql(k.kind, sql`r.id`)},
          'completions_path', ${pathSql(k.completions, sql`r.id`)})`,
        sql`FROM json_each(${JSON.stringify(k.pairs)}) j CROSS JOIN ${k.table} r ON r.id = json_extract(j.value, '$[0]')
          WHERE r.doc_version <> json_extract(j.value, '$[1]')`,
      )
        .returning({ id: webhookEvents.id })
        .getSQL(),
    );
}
