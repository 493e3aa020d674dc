import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Counts the shard's triggers keep (src/db/shard-triggers/), never written by hand: each follows the rows it counts in
 * the statement that changes them, as the catalogue's did. The move job does not copy them: the target's triggers
 * build them from the rows it copies (docs/decisions.md, "Shards: the subtitle family").
 */

/** Contributions per (container, user), from the `count` of its subtitle_histories rows of each kind. */
export const contributions = sqliteTable(
  "contributions",
  {
    containerId: integer("container_id").notNull(),
    userId: integer("user_id").notNull(),
    username: text("username").notNull(),
    segments: integer("segments").notNull().default(0),
    subtitles: integer("subtitles").notNull().default(0),
    total: integer("total").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.containerId, t.userId] }),
    index("contributions_container_total").on(t.containerId, t.total, t.userId),
    index("contributions_user_total").on(t.userId, t.total, t.containerId),
  ],
);

/** Subtitles per container and language over its normal videos, split into originals and translations. */
export const containerLanguageCounts = sqliteTable(
  "container_language_counts",
  {
    containerId: integer("container_id").notNull(),
    language: text("language").notNull(),
    originals: integer("originals").notNull().default(0),
    translations: integer("translations").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.containerId, t.language] })],
);

/**
 * The same per language over this shard's visible videos (normal video in a normal container). The whole catalogue's
 * figure is the sum over the shards: one row per language from each, read in parallel.
 */
export const languageCounts = sqliteTable("language_counts", {
  language: text("language").primaryKey(),
  originals: integer("originals").notNull().default(0),
  translations: integer("translations").notNull().default(0),
});

/**
 * Per track (video and language), its cues that have been checked and those of them with no finding
 * (src/db/shard-triggers/track-checks.sql), for `checks_passing` (docs/decisions.md, "Quality checks").
 */
export const trackChecks = sqliteTable(
  "track_checks",
  {
    videoId: integer("video_id").notNull(),
    language: text("language").notNull(),
    containerId: integer("container_id").notNull(),
    checked: integer("checked").notNull().default(0),
    passing: integer("passing").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.language] }), index("track_checks_container").on(t.containerId)],
);
