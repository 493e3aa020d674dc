import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, sqliteView, text } from "drizzle-orm/sqlite-core";
import { containers } from "./catalogue";
import { createdAt } from "./columns";

/**
 * The shard databases (docs/decisions.md, "Shards"): shard n is the binding SHARD_<n>. New containers go to the
 * accepting shard holding the fewest (the placement trigger, src/db/triggers/shards.sql); `containers` is kept by
 * triggers on shard_directory.
 */
export const shards = sqliteTable("shards", {
  id: integer("id").primaryKey(),
  accepting: integer("accepting", { mode: "boolean" }).notNull().default(true),
  containers: integer("containers").notNull().default(0),
  /**
   * The shard database's size in bytes as last seen (D1's `size_after` of the sweeper's statement there, every
   * minute): what placement weighs (docs/decisions.md, "Shards"). 0 until first seen.
   */
  bytes: integer("bytes").notNull().default(0),
  /**
   * The last error a drain of the catalogue's outboxes met on this shard (shard_cleanups, shard_fact_changes), and when
   * (unix seconds): written only when one fails, so a drain that succeeds costs nothing here. What `shards list` shows
   * beside the shard's pending rows (docs/operations.md, "Shards").
   */
  outboxError: text("outbox_error"),
  outboxErrorAt: integer("outbox_error_at"),
});

/**
 * Where a container's localisation and community rows live: written when the container is created, changed only by
 * the move job. While `moving_to` is set, reads go to `shard` and writes wait (503, docs/decisions.md "Shards").
 */
export const shardDirectory = sqliteTable(
  "shard_directory",
  {
    containerId: integer("container_id")
      .primaryKey()
      .references(() => containers.id, { onDelete: "cascade" }),
    shard: integer("shard")
      .notNull()
      .references(() => shards.id),
    movingTo: integer("moving_to").references(() => shards.id),
    moveStartedAt: integer("move_started_at"),
  },
  (t) => [index("shard_directory_shard").on(t.shard), index("shard_directory_moving_to").on(t.movingTo)],
);

/**
 * Every shard that may hold a container's rows: the one the directory names, and the target while a move is under way.
 * The one home of that rule for everything that must reach all of a container's rows wherever they are (the cleanup
 * triggers, the container-delete job, the facts sync).
 */
export const shardHomes = sqliteView("shard_homes", {
  containerId: integer("container_id").notNull(),
  shard: integer("shard").notNull(),
}).as(
  sql`SELECT container_id, shard FROM shard_directory UNION ALL SELECT container_id, moving_to FROM shard_directory WHERE moving_to IS NOT NULL`,
);

/**
 * The outbox of the catalogue's deletes that shard rows must follow: a video or a container deleted here leaves a row
 * (the triggers, in the same statement), and the rows of that video or container go from the shard before it is
 * deleted (src/services/shards.ts: by the deleting request, else by the sweeper).
 */
export const shardCleanups = sqliteTable(
  "shard_cleanups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    shard: integer("shard").notNull(),
    containerId: integer("container_id").notNull(),
    /** Null: the whole container. */
    videoId: integer("video_id"),
    createdAt: createdAt(),
  },
  // By shard: the shard map's draining containers (shardMapQuery) read only the pending cleanups of each shard, none
  // when the outbox is empty, as it usually is.
  (t) => [index("shard_cleanups_container").on(t.containerId, t.videoId), index("shard_cleanups_shard").on(t.shard, t.videoId)],
);

/**
 * The outbox of catalogue changes the shards keep a copy of (their container_facts and video_facts): a container's
 * state or origin language, a video's state, origin language or number, changed here, leaves a row (the triggers, in
 * the same statement); the sync brings each named container's or video's current facts to its shards, then deletes
 * the row (src/services/shard-facts.ts: by the changing request, else by the sweeper). Its id orders the changes.
 */
export const shardFactChanges = sqliteTable("shard_fact_changes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  containerId: integer("container_id").notNull(),
  /** Null: the container's own facts. */
  videoId: integer("video_id"),
});
