import { and, eq } from "drizzle-orm";
import type { DB } from "../client";
import { containerManagers, containers, videos } from "../schema";

/** One row: the derived `doc` column carries titles, genres, completions and counts. */
export const findContainer = (db: DB, id: number) => db.select().from(containers).where(eq(containers.id, id)).get();

/**
 * Bulk read by primary key as one D1 batch of single-row lookups: D1 counts one row read per id this way,
 * where `id IN (...)` counts two (the IN list's temporary table, then the row). Order is the caller's business.
 */
export async function findContainersByIds(db: DB, ids: number[]) {
  if (!ids.length) return [];
  const lookups = ids.map((id) => db.select().from(containers).where(eq(containers.id, id)));
  const results = await db.batch(lookups as [(typeof lookups)[number], ...typeof lookups]);
  return results.flat();
}

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
