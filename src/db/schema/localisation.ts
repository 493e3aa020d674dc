import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { containers, videos } from "./catalogue";
import { createdAt, updatedAt } from "./columns";
import { applications, users } from "./users";

/** The timing units of a video: every subtitle hangs off one segment. */
export const segments = sqliteTable(
  "segments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    videoId: integer("video_id")
      .notNull()
      .references(() => videos.id, { onDelete: "cascade" }),
    startMs: integer("start_ms").notNull(),
    endMs: integer("end_ms").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("segments_video_start").on(t.videoId, t.startMs), index("segments_author").on(t.authorId)],
);

export const subtitles = sqliteTable(
  "subtitles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    segmentId: integer("segment_id")
      .notNull()
      .references(() => segments.id, { onDelete: "cascade" }),
    // Denormalised from the segment so per-video, per-language reads and counts use one index.
    videoId: integer("video_id")
      .notNull()
      .references(() => videos.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    text: text("text").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    // Kept by triggers (src/db/triggers/translation-flag.sql): 1 when the language is not the video's origin language
    // (else its container's).
    isTranslation: integer("is_translation").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("subtitles_segment_language").on(t.segmentId, t.language),
    index("subtitles_video_language").on(t.videoId, t.language),
    index("subtitles_language").on(t.language, t.videoId),
    // Every translation newest first without walking past originals (migration 0015).
    index("subtitles_translations")
      .on(t.id, t.videoId)
      .where(sql`is_translation = 1`),
    index("subtitles_author").on(t.authorId),
  ],
);

export const HISTORY_KINDS = ["segment", "subtitle"] as const;

/** Every change to timing or text, with its author: the source of contributions. */
export const subtitleHistories = sqliteTable(
  "subtitle_histories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: HISTORY_KINDS }).notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    videoId: integer("video_id")
      .notNull()
      .references(() => videos.id, { onDelete: "cascade" }),
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    segmentId: integer("segment_id"),
    subtitleId: integer("subtitle_id"),
    language: text("language"),
    text: text("text"),
    version: integer("version").notNull().default(1),
    // How many changes of `kind` the row stands for (migration 0019): an SRT import writes one row per kind and
    // chunk of cues, not one per cue; every other row is one change.
    count: integer("count").notNull().default(1),
    // Idempotency key of the job or request that wrote it, so a replay writes nothing twice.
    sourceKey: text("source_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("subtitle_histories_user").on(t.userId, t.id),
    index("subtitle_histories_user_video_language").on(t.userId, t.videoId, t.language, t.id),
    // Histories filtered by video alone or by language alone, newest first (POST .../subtitle_histories.json).
    // Video first (migration 0017): the same equality pair for the listing, and the index the cascade of a video
    // delete needs (without it, deleting one video read the whole table).
    index("subtitle_histories_video_user").on(t.videoId, t.userId, t.id),
    index("subtitle_histories_user_language").on(t.userId, t.language, t.id),
    index("subtitle_histories_container_user").on(t.containerId, t.kind, t.userId),
    uniqueIndex("subtitle_histories_source").on(t.sourceKey),
  ],
);

/**
 * Contributions per (container, user), derived from `subtitle_histories` by triggers
 * (src/db/triggers/community-counts.sql): the `count` of history rows of kind segment and of kind subtitle, and their
 * sum. Never written by hand.
 * Lists read it in `total` order, so a page costs about a page of rows however many histories lie behind it.
 */
export const contributions = sqliteTable(
  "contributions",
  {
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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

/**
 * Subtitles per language over visible videos, split into originals and translations: kept by the triggers of
 * src/db/triggers/language-counts.sql (subtitle, video and container writes), read whole by the two language lists.
 * Never written by hand.
 */
export const languageCounts = sqliteTable("language_counts", {
  language: text("language").primaryKey(),
  originals: integer("originals").notNull().default(0),
  translations: integer("translations").notNull().default(0),
});

/** The same per container over its normal videos, whatever the container's state (same triggers). */
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

/** Materialised completion percentages, kept by the completion consumer. Kind: v(ideo) or c(ontainer). */
export const subtitleCompletions = sqliteTable(
  "subtitle_completions",
  {
    resourceKind: text("resource_kind", { enum: ["c", "v"] }).notNull(),
    resourceId: integer("resource_id").notNull(),
    language: text("language").notNull(),
    percent: integer("percent").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.resourceKind, t.resourceId, t.language] }),
    index("subtitle_completions_language_percent").on(t.resourceKind, t.language, t.percent, t.resourceId),
    // Covering lookup for the derived-document triggers: without planner statistics SQLite otherwise picks
    // the language index above and scans every completion of the kind on each rebuild.
    index("subtitle_completions_resource").on(t.resourceKind, t.resourceId, t.language, t.percent),
  ],
);

export const translationVotes = sqliteTable(
  "translation_votes",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subtitleId: integer("subtitle_id")
      .notNull()
      .references(() => subtitles.id, { onDelete: "cascade" }),
    value: integer("value").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subtitleId] }), index("translation_votes_subtitle").on(t.subtitleId)],
);

export const REPORT_STATUSES = ["open", "resolved"] as const;
export const REPORT_ACTIONS = ["dismiss", "restore"] as const;

export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subtitleId: integer("subtitle_id")
      .notNull()
      .references(() => subtitles.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull().default(""),
    // Where the reported subtitle sits, copied at report time so moderators list a container's reports from one index.
    videoId: integer("video_id").references(() => videos.id, { onDelete: "cascade" }),
    containerId: integer("container_id").references(() => containers.id, { onDelete: "cascade" }),
    language: text("language"),
    /** The reported text as it was when reported. */
    text: text("text"),
    /** The track's version number when reported (null: no version kept yet). */
    version: integer("version"),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    resolution: text("resolution", { enum: REPORT_ACTIONS }),
    resolvedBy: integer("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolvedAt: integer("resolved_at"),
    createdAt: createdAt(),
  },
  // One report per user and subtitle: a repeated report stores nothing.
  (t) => [
    uniqueIndex("reports_subtitle_user").on(t.subtitleId, t.userId),
    index("reports_user").on(t.userId),
    index("reports_container_status").on(t.containerId, t.status, t.id),
    index("reports_video").on(t.videoId),
    index("reports_resolved_by").on(t.resolvedBy),
  ],
);

export const VERSION_CAUSES = ["import", "edit", "restore", "deletion"] as const;

/**
 * One row per version of a track (a video's subtitles in one language); the cues themselves are an immutable R2 object
 * named by the content hash (docs/decisions.md, "Subtitle versions").
 */
export const subtitleVersions = sqliteTable(
  "subtitle_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    videoId: integer("video_id")
      .notNull()
      .references(() => videos.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    /** 1, 2, 3… per track. */
    number: integer("number").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    applicationId: integer("application_id").references(() => applications.id, { onDelete: "set null" }),
    cause: text("cause", { enum: VERSION_CAUSES }).notNull(),
    /** Cues with text in this version. */
    cues: integer("cues").notNull(),
    /** The track's completion percent (cues with text over the video's segments) after the change. */
    completion: integer("completion").notNull(),
    /** The content hash of the cues, as the track's ETag carries it. */
    hash: text("hash").notNull(),
    /** Size of the snapshot object in R2. */
    bytes: integer("bytes").notNull(),
    /** For a restore: the number of the version it brought back. */
    restoredFrom: integer("restored_from"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subtitle_versions_track_number").on(t.videoId, t.language, t.number),
    index("subtitle_versions_created").on(t.createdAt),
    index("subtitle_versions_author").on(t.authorId),
    index("subtitle_versions_application").on(t.applicationId),
  ],
);

export const captionSuggestions = sqliteTable(
  "caption_suggestions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    originSubtitleId: integer("origin_subtitle_id")
      .notNull()
      .references(() => subtitles.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("caption_suggestions_origin").on(t.originSubtitleId, t.language), index("caption_suggestions_user").on(t.userId)],
);
