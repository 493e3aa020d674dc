import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { PLAYBACK_DRMS, PLAYBACK_KINDS } from "../../domain/playback";
import { videos } from "./catalogue";
import { createdAt, updatedAt } from "./columns";

export { PLAYBACK_DRMS, PLAYBACK_KINDS };

/**
 * A video's playback streams (docs/api.md, "Playback streams"): a manifest the service keeps (`manifest_key`, an R2 key
 * named by the manifest's SHA-256, shared by every stream with the same bytes) or an external `https:` one
 * (`manifest_url`), exactly one of the two. `resolutions` (heights) and `audio_languages` are JSON arrays.
 */
export const playbackStreams = sqliteTable(
  "playback_streams",
  {
    id: integer("id").primaryKey(),
    videoId: integer("video_id")
      .notNull()
      .references(() => videos.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PLAYBACK_KINDS }).notNull(),
    manifestUrl: text("manifest_url"),
    manifestKey: text("manifest_key"),
    resolutions: text("resolutions", { mode: "json" })
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'`),
    audioLanguages: text("audio_languages", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    // NULL: no DRM.
    drm: text("drm", { enum: PLAYBACK_DRMS }),
    // The user who registered it; no foreign key, so deleting a user keeps the stream.
    createdBy: integer("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The streams answer: a video's streams, DASH before HLS, then by id, in index order.
    index("playback_streams_video_kind").on(t.videoId, t.kind, t.id),
    // A kept manifest's other users, asked when a stream stops using it (its R2 object goes when none is left).
    index("playback_streams_manifest_key").on(t.manifestKey),
    check("playback_streams_kind", sql`${t.kind} IN ('dash', 'hls')`),
    check("playback_streams_drm", sql`${t.drm} IS NULL OR ${t.drm} IN ('widevine', 'playready', 'fairplay')`),
    check("playback_streams_one_manifest", sql`(${t.manifestUrl} IS NULL) <> (${t.manifestKey} IS NULL)`),
  ],
);

export type PlaybackStreamRow = typeof playbackStreams.$inferSelect;
