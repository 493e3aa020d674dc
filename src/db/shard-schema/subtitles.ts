import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { HISTORY_KINDS, REPORT_ACTIONS, REPORT_STATUSES, VERSION_CAUSES } from "../schema/localisation";
import { createdAt, updatedAt } from "../schema/columns";

/**
 * The subtitle family on a shard (docs/decisions.md, "Shards: the subtitle family"): the tables the catalogue held
 * under the same names until its migration 0039, with what a shard needs in addition.
 * - Every row carries `container_id` (its placement) and `video_id`, with an index that starts with `container_id`
 *   (the move job and the cleanup outbox walk it).
 * - Ids come from the shard's range (`shard_ids`), so a row keeps its id when its container moves.
 * - Foreign keys stay inside the shard (a subtitle's segment, a vote's subtitle). Users and videos are in the
 *   catalogue, so where a read shows an author, the row carries the author's name (usernames never change).
 */

export const segments = sqliteTable(
  "segments",
  {
    id: integer("id").primaryKey(),
    containerId: integer("container_id").notNull(),
    videoId: integer("video_id").notNull(),
    startMs: integer("start_ms").notNull(),
    endMs: integer("end_ms").notNull(),
    authorId: integer("author_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("segments_video_start").on(t.videoId, t.startMs),
    index("segments_container").on(t.containerId, t.id),
    index("segments_author").on(t.authorId),
  ],
);

export const subtitles = sqliteTable(
  "subtitles",
  {
    id: integer("id").primaryKey(),
    containerId: integer("container_id").notNull(),
    segmentId: integer("segment_id")
      .notNull()
      .references(() => segments.id, { onDelete: "cascade" }),
    videoId: integer("video_id").notNull(),
    language: text("language").notNull(),
    text: text("text").notNull(),
    /**
     * The text as the subtitle search index reads it (`indexForm`, src/domain/search-text.ts): null when that is the
     * text itself, as for most text in spaced scripts. Written with the text by its one writer
     * (src/db/queries/subtitles.ts); src/db/shard-triggers/subtitle-search.sql indexes it and refuses a write that
     * forgets it (docs/decisions.md, "Subtitle search").
     */
    searchText: text("search_text"),
    /**
     * The quality checks the text breaks, a bit a rule (`CUE_RULES`, src/domain/subtitles/checks.ts; 0: none), written
     * with the text by its writers; null for a blank text and until checked (docs/decisions.md, "Quality checks").
     */
    checks: integer("checks"),
    authorId: integer("author_id"),
    authorUsername: text("author_username"),
    version: integer("version").notNull().default(1),
    // Kept by the shard's triggers from video_facts and container_facts (src/db/shard-triggers/translation-flag.sql).
    isTranslation: integer("is_translation").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("subtitles_segment_language").on(t.segmentId, t.language),
    index("subtitles_video_language").on(t.videoId, t.language),
    index("subtitles_language").on(t.language, t.videoId),
    // Newest first across shards is by creation time, then id: ids are issued in ranges per shard, so the highest id
    // is not the newest (docs/decisions.md, "Subtitles on the shards").
    index("subtitles_translations")
      .on(t.createdAt, t.id, t.videoId)
      .where(sql`is_translation = 1`),
    index("subtitles_container").on(t.containerId, t.id),
    index("subtitles_author").on(t.authorId),
  ],
);

export const subtitleHistories = sqliteTable(
  "subtitle_histories",
  {
    id: integer("id").primaryKey(),
    kind: text("kind", { enum: HISTORY_KINDS }).notNull(),
    userId: integer("user_id").notNull(),
    /** The author's name, which the contributions the triggers derive from this row show. */
    username: text("username").notNull(),
    videoId: integer("video_id").notNull(),
    containerId: integer("container_id").notNull(),
    segmentId: integer("segment_id"),
    subtitleId: integer("subtitle_id"),
    language: text("language"),
    text: text("text"),
    version: integer("version").notNull().default(1),
    count: integer("count").notNull().default(1),
    sourceKey: text("source_key"),
    createdAt: createdAt(),
  },
  (t) => [
    // A user's history, newest first, by creation time then id (the same reason as subtitles_translations).
    index("subtitle_histories_user").on(t.userId, t.createdAt, t.id),
    index("subtitle_histories_user_video_language").on(t.userId, t.videoId, t.language, t.createdAt, t.id),
    index("subtitle_histories_video_user").on(t.videoId, t.userId, t.createdAt, t.id),
    index("subtitle_histories_user_language").on(t.userId, t.language, t.createdAt, t.id),
    index("subtitle_histories_container_user").on(t.containerId, t.kind, t.userId),
    index("subtitle_histories_container").on(t.containerId, t.id),
    uniqueIndex("subtitle_histories_source").on(t.sourceKey),
  ],
);

export const subtitleVersions = sqliteTable(
  "subtitle_versions",
  {
    id: integer("id").primaryKey(),
    containerId: integer("container_id").notNull(),
    videoId: integer("video_id").notNull(),
    language: text("language").notNull(),
    number: integer("number").notNull(),
    authorId: integer("author_id"),
    applicationId: integer("application_id"),
    cause: text("cause", { enum: VERSION_CAUSES }).notNull(),
    cues: integer("cues").notNull(),
    completion: integer("completion").notNull(),
    hash: text("hash").notNull(),
    bytes: integer("bytes").notNull(),
    restoredFrom: integer("restored_from"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subtitle_versions_track_number").on(t.videoId, t.language, t.number),
    index("subtitle_versions_container").on(t.containerId, t.id),
    index("subtitle_versions_created").on(t.createdAt),
    index("subtitle_versions_author").on(t.authorId),
  ],
);

export const translationVotes = sqliteTable(
  "translation_votes",
  {
    userId: integer("user_id").notNull(),
    subtitleId: integer("subtitle_id")
      .notNull()
      .references(() => subtitles.id, { onDelete: "cascade" }),
    containerId: integer("container_id").notNull(),
    videoId: integer("video_id").notNull(),
    value: integer("value").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.subtitleId] }),
    index("translation_votes_subtitle").on(t.subtitleId),
    index("translation_votes_container").on(t.containerId),
  ],
);

export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey(),
    subtitleId: integer("subtitle_id")
      .notNull()
      .references(() => subtitles.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    /** The reporter's name, shown to moderators. */
    username: text("username").notNull(),
    reason: text("reason").notNull().default(""),
    videoId: integer("video_id").notNull(),
    containerId: integer("container_id").notNull(),
    language: text("language"),
    text: text("text"),
    version: integer("version"),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    resolution: text("resolution", { enum: REPORT_ACTIONS }),
    resolvedBy: integer("resolved_by"),
    resolvedAt: integer("resolved_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("reports_subtitle_user").on(t.subtitleId, t.userId),
    index("reports_user").on(t.userId),
    index("reports_container_status").on(t.containerId, t.status, t.id),
    index("reports_video").on(t.videoId),
  ],
);

export const captionSuggestions = sqliteTable(
  "caption_suggestions",
  {
    id: integer("id").primaryKey(),
    originSubtitleId: integer("origin_subtitle_id")
      .notNull()
      .references(() => subtitles.id, { onDelete: "cascade" }),
    containerId: integer("container_id").notNull(),
    videoId: integer("video_id").notNull(),
    language: text("language").notNull(),
    userId: integer("user_id").notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("caption_suggestions_origin").on(t.originSubtitleId, t.language),
    index("caption_suggestions_container").on(t.containerId, t.id),
    index("caption_suggestions_user").on(t.userId),
  ],
);
