import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { DB } from "../client";
import { containers, contributions, users } from "../schema";

/** `segments` or `subtitles`: keep only rows with at least one contribution of that kind. */
export type ContributionType = "segments" | "subtitles";

const ofType = (type?: ContributionType) =>
  type === "segments" ? gt(contributions.segments, 0) : type === "subtitles" ? gt(contributions.subtitles, 0) : undefined;

/**
 * The containers a user contributed to, most contributions first (ties: higher container id first), from the
 * trigger-kept `contributions` table: one backwards read of `contributions_user_total` (user, total,
 * container) plus each row and its container. Containers not in the normal state are left out.
 */
export const listUserContributions = (db: DB, userId: number, type: ContributionType | undefined, offset: number, limit: number) =>
  db
    .select({
      containerId: contributions.containerId,
      segments: contributions.segments,
      subtitles: contributions.subtitles,
      type: containers.type,
      doc: containers.doc,
    })
    .from(contributions)
    .innerJoin(containers, eq(containers.id, contributions.containerId))
    .where(and(eq(contributions.userId, userId), eq(containers.state, "normal"), ofType(type)))
    .orderBy(desc(contributions.total), desc(contributions.containerId))
    .limit(limit)
    .offset(offset);

/**
 * The contributors of a container, most contributions first (ties: higher user id first): one backwards read
 * of `contributions_container_total` (container, total, user) plus each row and its user.
 */
export const listContainerContributors = (db: DB, containerId: number, type: ContributionType | undefined, offset: number, limit: number) =>
  db
    .select({
      userId: contributions.userId,
      username: users.username,
      segments: contributions.segments,
      subtitles: contributions.subtitles,
    })
    .from(contributions)
    .innerJoin(users, eq(users.id, contributions.userId))
    .where(and(eq(contributions.containerId, containerId), ofType(type)))
    .orderBy(desc(contributions.total), desc(contributions.userId))
    .limit(limit)
    .offset(offset);

/**
 * A user's contributions: history rows of kind segment and subtitle (or only one kind), over every container.
 * Reads one `contributions` row per container the user worked on (the sum of totals is covered by the index).
 */
export function countUserContributionsQuery(db: DB, userId: number, type?: ContributionType) {
  const column = type === "segments" ? contributions.segments : type === "subtitles" ? contributions.subtitles : contributions.total;
  return db
    .select({ n: sql<number>`coalesce(sum(${column}), 0)` })
    .from(contributions)
    .where(eq(contributions.userId, userId));
}

/** Whether a user exists (one primary-key probe), to batch with a read about them. */
export const userExistsQuery = (db: DB, userId: number) => db.select({ id: users.id }).from(users).where(eq(users.id, userId));
