import {
  contributedContainers,
  countUserContributions,
  listContainerContributors,
  listUserContributions,
  userExistsQuery,
  usernames,
  type ContributionType,
  type UserContributionRow,
} from "../db/queries/contributions";
import { shardMapQuery } from "../db/queries/shards";
import { batchWith } from "../db/rider";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import type { Deps } from "./deps";
import { visibleContainerPlacement } from "./localisation";
import { pageAcrossShards, shardParts, readShard } from "./shards";

/**
 * Contributions live on the shards, kept by their triggers from the subtitle histories (docs/decisions.md,
 * "Subtitles on the shards"): a container's on its shard, a user's spread over every shard that holds a container
 * they worked on.
 */

/** An unknown user is 404: the user and the shards to ask are read in one catalogue batch. */
async function existingUserShards(deps: Deps, userId: number) {
  const { db } = deps;
  const [user, map] = await batchWith(db, deps.session, [userExistsQuery(db, userId), shardMapQuery(db)]);
  if (!user.length) throw ApiError.notFound();
  return shardParts(deps, map);
}

const mostFirst = (a: UserContributionRow, b: UserContributionRow) => b.total - a.total || b.containerId - a.containerId;

/**
 * The containers a user contributed to, most contributions first (an unknown user is 404): the user and the shard map
 * in one catalogue batch, each shard's first `offset + limit` rows in parallel, merged, then the page's containers
 * from the catalogue (their type and titles; a container no longer normal there is left out). Three round trips.
 */
export async function contributionsOfUser(deps: Deps, userId: number, type: ContributionType | undefined, offset: number, limit: number) {
  const parts = await existingUserShards(deps, userId);
  const rows = await pageAcrossShards(
    parts,
    (part, n) => listUserContributions(part.db, userId, type, n, part.leftOut),
    mostFirst,
    offset,
    limit,
    (row) => row.containerId,
  );
  if (!rows.length) return [];
  const found = new Map(
    (
      await contributedContainers(
        deps.db,
        rows.map((r) => r.containerId),
      )
    ).map((c) => [c.id, c]),
  );
  return rows.flatMap((r) => {
    const c = found.get(r.containerId);
    return c && c.state === "normal"
      ? [{ containerId: r.containerId, type: c.type, doc: c.doc, segments: r.segments, subtitles: r.subtitles }]
      : [];
  });
}

/**
 * The user's contributions (history rows) over every container (an unknown user is 404): the sum of each shard's.
 * Two round trips: the catalogue batch, then the shards in parallel.
 */
export async function contributionCountOfUser(deps: Deps, userId: number, type: ContributionType | undefined) {
  const parts = await existingUserShards(deps, userId);
  const counts = await Promise.all(parts.map((part) => countUserContributions(part.db, userId, type, part.leftOut)));
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * A container's contributors, most contributions first; the container as the catalogue reads show it (else 404). The
 * container and its placement are one catalogue batch, then the page from its shard, whose rows carry the names; a
 * row without one (none is written so, but a name is what the list shows) takes it from the catalogue.
 */
export async function contributorsOfContainer(
  deps: Deps,
  user: User | undefined,
  containerId: number,
  type: ContributionType | undefined,
  offset: number,
  limit: number,
) {
  const { placement } = await visibleContainerPlacement(deps, user, containerId);
  const rows = await listContainerContributors(readShard(deps, placement), containerId, type, offset, limit);
  const unnamed = rows.filter((r) => !r.username).map((r) => r.userId);
  if (!unnamed.length) return rows;
  const names = new Map((await usernames(deps.db, unnamed)).map((u) => [u.id, u.username]));
  return rows.map((r) => (r.username ? r : { ...r, username: names.get(r.userId) ?? "" }));
}
