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

/**
 * Every table a shard holds, in the order a container's rows are copied and deleted (the move job, the cleanup
 * outbox): each has an integer `id`, `container_id` and `video_id`, and an index on (container_id, id).
 */
export const SHARD_TABLES = ["timed_comments"] as const;
export type ShardTable = (typeof SHARD_TABLES)[number];
