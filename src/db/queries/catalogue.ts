import { and, eq, inArray } from "drizzle-orm";
import type { DB } from "../client";
import { inChunks } from "./chunks";
import { containerManagers, containers, videos } from "../schema";

/** One row: the derived `doc` column carries titles, genres, completions and counts. */
export const findContainer = (db: DB, id: number) => db.select().from(containers).where(eq(containers.id, id)).get();

/**
 * Bulk read by primary key, one `IN` statement per 100 ids (2 rows read per id: the IN list, then the row).
 * Listing pages avoid even that by joining their facet walk (catalogue-listing.ts). Order is the caller's.
 */
export const findContainersByIds = (db: DB, ids: number[]) =>
  inChunks(ids, (chunk) => db.select().from(containers).where(inArray(containers.id, chunk)).all());

/** A video and its container, by two primary-key lookups in one round trip. */
export async function findVideoWithContainer(db: DB, id: number) {
  const video = await db.select().from(videos).where(eq(videos.id, id)).get();
  if (!video) return undefined;
  const container = await findContainer(db, video.containerId);
  return container ? { video, container } : undefined;
}

export async function isContainerManager(db: DB, containerId: number, userId: number) {
  const row = await db
    .select({ one: containerManagers.userId })
    .from(containerManagers)
    .where(and(eq(containerManagers.containerId, containerId), eq(containerManagers.userId, userId)))
    .get();
  return Boolean(row);
}
