import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { DB } from "../client";
import { containers, users } from "../schema";
import type { ShardDB } from "../shards";
import { containerFacts, contributions } from "../shard-schema";
import { notLeftOutCondition } from "./shard-rows";

/**
 * Contributions, kept per (container, user) by the shard's triggers from the subtitle histories (docs/decisions.md,
 * "Notifications and contributions" and "Subtitles on the shards"): a container's contributors are read on its shard,
 * a user's contributions on every shard (src/services/contributions.ts).
 */

/** `segments` or `subtitles`: keep only rows with at least one contribution of that kind. */
export type ContributionType = "segments" | "subtitles";

const ofType = (type?: ContributionType) =>
  type === "segments" ? gt(contributions.segments, 0) : type === "subtitles" ? gt(contributions.subtitles, 0) : undefined;

/**
 * The containers a user contributed to on this shard, most contributions first (ties: higher container id first):
 * one backwards read of `contributions_user_total` (user, total, container) plus each row and its container's facts.
 * Containers not in the normal state are left out (the shard's copy of the state; the catalogue's read of the page's
 * containers checks again), and so are the containers this shard does not answer for (`shardMapQuery`).
 */
export const listUserContributions = (
  db: ShardDB,
  userId: number,
  type: ContributionType | undefined,
  limit: number,
  leftOut: readonly number[] = [],
) =>
  db
    .select({
      containerId: contributions.containerId,
      segments: contributions.segments,
      subtitles: contributions.subtitles,
      total: contributions.total,
    })
    .from(contributions)
    .innerJoin(containerFacts, eq(containerFacts.containerId, contributions.containerId))
    .where(
      and(
        eq(contributions.userId, userId),
        eq(containerFacts.state, "normal"),
        ofType(type),
        notLeftOutCondition(contributions.containerId, leftOut),
      ),
    )
    .orderBy(desc(contributions.total), desc(contributions.containerId))
    .limit(limit)
    .all();

export type UserContributionRow = Awaited<ReturnType<typeof listUserContributions>>[number];

/**
 * The contributors of a container (on its shard), most contributions first (ties: higher user id first): one
 * backwards read of `contributions_container_total` (container, total, user) plus each row, which carries the name.
 */
export const listContainerContributors = (
  db: ShardDB,
  containerId: number,
  type: ContributionType | undefined,
  offset: number,
  limit: number,
) =>
  db
    .select({
      userId: contributions.userId,
      username: contributions.username,
      segments: contributions.segments,
      subtitles: contributions.subtitles,
    })
    .from(contributions)
    .where(and(eq(contributions.containerId, containerId), ofType(type)))
    .orderBy(desc(contributions.total), desc(contributions.userId))
    .limit(limit)
    .offset(offset)
    .all();

/**
 * A user's contributions on this shard: history rows of kind segment and subtitle (or only one kind), over its
 * containers. Reads one `contributions` row per container the user worked on (the sum is covered by the index).
 */
export async function countUserContributions(
  db: ShardDB,
  userId: number,
  type: ContributionType | undefined,
  leftOut: readonly number[] = [],
) {
  const column = type === "segments" ? contributions.segments : type === "subtitles" ? contributions.subtitles : contributions.total;
  const row = await db
    .select({ n: sql<number>`coalesce(sum(${column}), 0)` })
    .from(contributions)
    .where(and(eq(contributions.userId, userId), notLeftOutCondition(contributions.containerId, leftOut)))
    .get();
  return Number(row?.n ?? 0);
}

/** Whether a user exists (one primary-key probe), to batch with a read about them. */
export const userExistsQuery = (db: DB, userId: number) => db.select({ id: users.id }).from(users).where(eq(users.id, userId));

/** The catalogue's view of some containers a page names: what the list shows of each, and whether it is normal. */
export const contributedContainers = (db: DB, ids: number[]) =>
  db
    .select({ id: containers.id, type: containers.type, doc: containers.doc, state: containers.state })
    .from(containers)
    .where(sql`${containers.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .all();

/** Names of some users (primary-key reads), for contributions a shard holds without one. */
export const usernames = (db: DB, ids: number[]) =>
  db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`${users.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .all();
