import { and, eq, inArray } from "drizzle-orm";
import type { DB } from "../client";
import { inChunks } from "./chunks";
import { containerManagers, containers, videos, type ContainerRow, type VideoRow } from "../schema";
import { prefixed } from "./prefixed";

/** One row: the derived `doc` column carries titles, genres, completions and counts. Batchable. */
export const containerQuery = (db: DB, id: number) => db.select().from(containers).where(eq(containers.id, id));

export const findContainer = (db: DB, id: number) => containerQuery(db, id).get();

/**
 * Bulk read by primary key, one `IN` statement per 100 ids (2 rows read per id: the IN list, then the row).
 * Listing pages avoid even that by joining their facet walk (catalogue-listing.ts). Order is the caller's.
 */
export const findContainersByIds = (db: DB, ids: number[]) => inChunks(ids, (chunk) => containersByIdsQuery(db, chunk).all());

/** One `IN` statement (batchable) for at most 100 ids. */
export const containersByIdsQuery = (db: DB, ids: number[]) => db.select().from(containers).where(inArray(containers.id, ids));

const containerFields = prefixed(containers, "c_");

/**
 * A video and its container: one statement, two primary-key reads (batchable). Its row list feeds `videoWithContainer`.
 */
export const videoWithContainerQuery = (db: DB, id: number) =>
  db
    .select({ video: videos, container: containerFields })
    .from(videos)
    .innerJoin(containers, eq(containers.id, videos.containerId))
    .where(eq(videos.id, id));

type VideoWithContainerRow = Awaited<ReturnType<ReturnType<typeof videoWithContainerQuery>["all"]>>[number];

/** The first row of `videoWithContainerQuery` as `{video, container}`, or undefined. */
export function videoWithContainer(rows: VideoWithContainerRow[]): { video: VideoRow; container: ContainerRow } | undefined {
  const row = rows[0];
  return row && { video: row.video, container: row.container as ContainerRow };
}

export async function findVideoWithContainer(db: DB, id: number) {
  return videoWithContainer(await videoWithContainerQuery(db, id).all());
}

/** A row when the user is one of the container's managers (batchable). */
export const containerManagerQuery = (db: DB, containerId: number, userId: number) =>
  db
    .select({ one: containerManagers.userId })
    .from(containerManagers)
    .where(and(eq(containerManagers.containerId, containerId), eq(containerManagers.userId, userId)));

/** A row when the user is one of the managers of the video's container (batchable). */
export const videoManagerQuery = (db: DB, videoId: number, userId: number) =>
  db
    .select({ one: containerManagers.userId })
    .from(containerManagers)
    .innerJoin(videos, eq(videos.containerId, containerManagers.containerId))
    .where(and(eq(videos.id, videoId), eq(containerManagers.userId, userId)));

export async function isContainerManager(db: DB, containerId: number, userId: number) {
  return Boolean(await containerManagerQuery(db, containerId, userId).get());
}
