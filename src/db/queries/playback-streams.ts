import { and, asc, count, eq, sql } from "drizzle-orm";
import type { DB } from "../client";
import { licenses, playbackStreams, videos } from "../schema";
import type { PLATFORMS } from "../schema";

export type NewPlaybackStream = Omit<typeof playbackStreams.$inferInsert, "id" | "createdAt" | "updatedAt">;

/** A video's streams, DASH before HLS, then by id: one range of `playback_streams_video_kind` (batchable). */
export const videoStreamsQuery = (db: DB, videoId: number) =>
  db.select().from(playbackStreams).where(eq(playbackStreams.videoId, videoId)).orderBy(asc(playbackStreams.kind), asc(playbackStreams.id));

/** One stream of one video (a stream of another video is not found). */
export const findStream = (db: DB, videoId: number, id: number) =>
  db
    .select()
    .from(playbackStreams)
    .where(and(eq(playbackStreams.id, id), eq(playbackStreams.videoId, videoId)))
    .get();

export const insertStream = (db: DB, row: NewPlaybackStream) => db.insert(playbackStreams).values(row).returning().get();

/** Replaces every field of a stream but its id and creation time (batchable). */
export const replaceStreamQuery = (db: DB, videoId: number, id: number, row: NewPlaybackStream) =>
  db
    .update(playbackStreams)
    .set({ ...row, updatedAt: sql`(unixepoch())` })
    .where(and(eq(playbackStreams.id, id), eq(playbackStreams.videoId, videoId)))
    .returning();

const deleteStreamQuery = (db: DB, videoId: number, id: number) =>
  db
    .delete(playbackStreams)
    .where(and(eq(playbackStreams.id, id), eq(playbackStreams.videoId, videoId)))
    .returning({ id: playbackStreams.id });

/** How many streams use a kept manifest (one range of `playback_streams_manifest_key`; batchable). */
export const manifestUsersQuery = (db: DB, key: string) =>
  db.select({ n: count() }).from(playbackStreams).where(eq(playbackStreams.manifestKey, key));

/**
 * Whether a stream of this video uses the kept manifest `key` (one range of `playback_streams_video_kind`: a video's
 * few streams). A deleted video's streams went with it (foreign-key cascade), so its manifests are not found.
 */
export const videoUsesManifest = async (db: DB, videoId: number, key: string) =>
  (
    await db
      .select({ id: playbackStreams.id })
      .from(playbackStreams)
      .where(and(eq(playbackStreams.videoId, videoId), eq(playbackStreams.manifestKey, key)))
      .limit(1)
      .all()
  ).length > 0;

export const deleteStream = (db: DB, videoId: number, id: number) => deleteStreamQuery(db, videoId, id).all();

/**
 * For a video's container: whether it has a licence for `platform` in `region` (any region when the region is unknown).
 * Primary-key probes of `licenses` (container, region, platform) through the video's row (batchable).
 */
export const platformLicenceQuery = (db: DB, videoId: number, platform: (typeof PLATFORMS)[number], region: string | undefined) =>
  db
    .select({
      licensed: sql<number>`EXISTS (SELECT 1 FROM ${licenses} WHERE ${licenses.containerId} = ${videos.containerId} AND ${licenses.platform} = ${platform}${
        region ? sql` AND ${licenses.region} = ${region}` : sql``
      })`,
    })
    .from(videos)
    .where(eq(videos.id, videoId));
