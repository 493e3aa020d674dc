import {
  countUserContributions,
  listContainerContributors,
  listUserContributions,
  type ContributionType,
} from "../db/queries/contributions";
import { findUserById } from "../db/queries/users";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { visibleContainer } from "./catalogue";
import type { Deps } from "./deps";

async function existingUser(deps: Deps, userId: number) {
  const user = await findUserById(deps.db, userId);
  if (!user) throw ApiError.notFound();
  return user;
}

/** The containers a user contributed to, most contributions first (an unknown user is 404). */
export async function contributionsOfUser(deps: Deps, userId: number, type: ContributionType | undefined, offset: number, limit: number) {
  const user = await existingUser(deps, userId);
  return listUserContributions(deps.db, user.id, type, offset, limit);
}

/** The user's contributions (history rows) over every container (an unknown user is 404). */
export async function contributionCountOfUser(deps: Deps, userId: number, type: ContributionType | undefined) {
  const user = await existingUser(deps, userId);
  return countUserContributions(deps.db, user.id, type);
}

/** A container's contributors, most contributions first; the container as the catalogue reads show it (else 404). */
export async function contributorsOfContainer(
  deps: Deps,
  viewer: User | undefined,
  containerId: number,
  type: ContributionType | undefined,
  offset: number,
  limit: number,
) {
  const container = await visibleContainer(deps, viewer, containerId);
  return listContainerContributors(deps.db, container.id, type, offset, limit);
}
