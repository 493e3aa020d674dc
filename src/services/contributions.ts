import { containerQuery } from "../db/queries/catalogue";
import {
  countUserContributionsQuery,
  listContainerContributors,
  listUserContributions,
  userExistsQuery,
  type ContributionType,
} from "../db/queries/contributions";
import { batchWith } from "../db/rider";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { caller, requireVisibleContainer } from "./access";
import { type Deps, viewer } from "./deps";

/** An unknown user is 404: the user and the data about them are read in one batch, and the data dropped. */
const existing = (rows: unknown[]) => {
  if (!rows.length) throw ApiError.notFound();
};

/** The containers a user contributed to, most contributions first (an unknown user is 404). One round trip. */
export async function contributionsOfUser(deps: Deps, userId: number, type: ContributionType | undefined, offset: number, limit: number) {
  const { db } = deps;
  const [user, rows] = await batchWith(db, deps.session, [
    userExistsQuery(db, userId),
    listUserContributions(db, userId, type, offset, limit),
  ]);
  existing(user);
  return rows;
}

/** The user's contributions (history rows) over every container (an unknown user is 404). One round trip. */
export async function contributionCountOfUser(deps: Deps, userId: number, type: ContributionType | undefined) {
  const { db } = deps;
  const [user, count] = await batchWith(db, deps.session, [userExistsQuery(db, userId), countUserContributionsQuery(db, userId, type)]);
  existing(user);
  return Number(count[0]?.n ?? 0);
}

/**
 * A container's contributors, most contributions first; the container as the catalogue reads show it (else 404).
 * The container and the page are read in one batch.
 */
export async function contributorsOfContainer(
  deps: Deps,
  user: User | undefined,
  containerId: number,
  type: ContributionType | undefined,
  offset: number,
  limit: number,
) {
  const { db } = deps;
  const [found, rows] = await batchWith(db, deps.session, [
    containerQuery(db, containerId),
    listContainerContributors(db, containerId, type, offset, limit),
  ]);
  await requireVisibleContainer(caller(db, await viewer(deps, user)), found[0]);
  return rows;
}
