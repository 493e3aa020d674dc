import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../schema/columns";

/**
 * The tables of a shard database (docs/decisions.md, "Shards"): localisation and per-video community data, each row
 * carrying the `container_id` that places it (the catalogue's shard_directory) and the `video_id` it hangs off. No
 * foreign key reaches the catalogue (another database): the catalogue's deletes reach these rows through its
 * shard_cleanups outbox, and a row's id comes from its shard's range (`shard_ids`), so ids stay unique across shards
 * and a row keeps its id when its container moves.
 */

/** Next id of each shard range a writer of this database allocates from (one row per shard that wrote here). */
export const shardIds = sqliteTable("shard_ids", {
  shard: integer("shard").primaryKey(),
  nextId: integer("next_id").notNull(),
});

export const timedComments = sqliteTable(
  "timed_comments",
  {
    id: integer("id").primaryKey(),
    containerId: integer("container_id").notNull(),
    videoId: integer("video_id").notNull(),
    language: text("language").notNull(),
    userId: integer("user_id").notNull(),
    /** The author's name when the comment was written: usernames never change and users are never deleted. */
    username: text("username").notNull(),
    timeMs: integer("time_ms").notNull(),
    comment: text("comment").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("timed_comments_video_language_time").on(t.videoId, t.language, t.timeMs),
    index("timed_comments_container").on(t.containerId, t.id),
    index("timed_comments_user").on(t.userId),
  ],
);

export * from "./counts";
export * from "./facts";
export * from "./moves";
export * from "./subtitles";

/** The subtitle family's tables (docs/decisions.md, "Shards: the subtitle family"), a row after the rows it refers to. */
export const SUBTITLE_FAMILY_TABLES = [
  "segments",
  "subtitles",
  "subtitle_histories",
  "subtitle_versions",
  "translation_votes",
  "reports",
  "caption_suggestions",
] as const;

/**
 * The tables that hold a container's rows, in the order the move job copies them (a row after the rows it refers
 * to: facts, then segments before subtitles before what hangs off a subtitle); deletes go in the reverse order. Each
 * has `container_id` at the start of an index; `video` says whether it has `video_id` (a deleted video's cleanup).
 * Paging is by rowid (the `id` where the table has one).
 */
export const SHARD_TABLES = ["container_facts", "video_facts", "timed_comments", ...SUBTITLE_FAMILY_TABLES] as const;
export type ShardTable = (typeof SHARD_TABLES)[number];

/**
 * The tables whose changes a move logs and fences (docs/decisions.md, "Online moves"): the rows people write. The
 * facts are the catalogue's, sent again to the target at the switch, and the counts are derived there.
 */
export const MOVED_TABLES = ["timed_comments", ...SUBTITLE_FAMILY_TABLES] as const;
export type MovedTable = (typeof MOVED_TABLES)[number];

/** Each shard table's key (its primary key), in the order a row's key is written in `move_changes.row_key`. */
export const ROW_KEYS: Record<ShardTable, readonly string[]> = {
  container_facts: ["container_id"],
  video_facts: ["video_id"],
  timed_comments: ["id"],
  segments: ["id"],
  subtitles: ["id"],
  subtitle_histories: ["id"],
  subtitle_versions: ["id"],
  translation_votes: ["user_id", "subtitle_id"],
  reports: ["id"],
  caption_suggestions: ["id"],
};

/** The row a shard table's row refers to (its foreign key inside the shard), for a copy that must not run ahead of it. */
export const PARENTS: Partial<Record<ShardTable, { column: string; table: ShardTable }>> = {
  subtitles: { column: "segment_id", table: "segments" },
  translation_votes: { column: "subtitle_id", table: "subtitles" },
  reports: { column: "subtitle_id", table: "subtitles" },
  caption_suggestions: { column: "origin_subtitle_id", table: "subtitles" },
};

/** Tables with no `video_id`: a video's cleanup passes them by. */
export const CONTAINER_ONLY_TABLES: readonly ShardTable[] = ["container_facts"];

/**
 * The counts the shard's triggers derive from those rows: never copied (the target's triggers rebuild them as the
 * rows arrive) and cleared by container once its rows are gone (a count at zero stays behind otherwise).
 */
export const DERIVED_TABLES = ["contributions", "container_language_counts", "track_checks"] as const;
