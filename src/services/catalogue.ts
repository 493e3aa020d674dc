import {
  containerQuery,
  findContainer,
  findVideoWithContainer,
  videoWithContainer,
  videoWithContainerQuery,
} from "../db/queries/catalogue";
import { batchWith } from "../db/rider";
import type { User } from "../types";
import { caller, requireManager, requireVisibleContainer, requireVisibleVideo } from "./access";
import { type Deps, viewer } from "./deps";

/**
 * A container or video by id as one caller may see or manage it: the lookup and the access rule of
 * src/services/access.ts together, so a handler never reads the catalogue tables itself. Hidden or missing is
 * the same 404; see access.ts for the 403 of a write.
 */

/** One round trip, the session check of a token-bearing read included (`deps.session`). */
export async function visibleContainer(deps: Deps, user: User | undefined, containerId: number) {
  const [rows] = await batchWith(deps.db, deps.session, [containerQuery(deps.db, containerId)]);
  return requireVisibleContainer(caller(deps.db, await viewer(deps, user)), rows[0]);
}

/** The video and its container when the caller may see the video: one statement. */
export async function visibleVideo(deps: Deps, user: User | undefined, videoId: number) {
  const [rows] = await batchWith(deps.db, deps.session, [videoWithContainerQuery(deps.db, videoId)]);
  return requireVisibleVideo(caller(deps.db, await viewer(deps, user)), videoWithContainer(rows));
}

/**
 * The container a user may edit: staff, or one of its managers. Someone who may not edit it gets 403 for a
 * visible container and 404 for one they cannot see (not in the normal state), as on the reads.
 */
export async function manageableContainer({ db }: Deps, user: User | undefined, containerId: number) {
  const found = await findContainer(db, containerId);
  return (await requireManager(caller(db, user), found && { container: found })).container;
}

/** The same for a video (with its container): hidden (pending, blocked, or in a hidden container) is a 404 to others. */
export async function manageableVideo({ db }: Deps, user: User | undefined, videoId: number, message?: string) {
  return requireManager(caller(db, user), await findVideoWithContainer(db, videoId), message);
}
