import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { type Placement, videoPlacementQuery } from "../db/queries/shards";
import { batchWith } from "../db/rider";
import { ApiError, VCODE } from "../lib/errors";
import { log } from "../lib/log";
import type { User } from "../types";
import { caller, requireVisibleVideo } from "./access";
import { type Deps, shardDb, viewer } from "./deps";

/**
 * Which shard database serves a container's localisation and community rows (docs/decisions.md, "Shards"). Reads
 * follow the directory's `shard` throughout a move (its rows are complete there until the switch); writes wait while
 * the container is moving, so the copy the move makes is complete when the directory switches.
 */

/** Seconds a writer is told to wait while its container moves: a move of a large container takes a few seconds. */
export const MOVE_RETRY_AFTER_SECONDS = 5;

/**
 * A placement that must exist: the placement trigger gives every container a directory row, so a missing one is a
 * fault in the data, logged as such; the caller still gets the 404 of a container it cannot reach.
 */
function requirePlacement(placement: Placement | undefined, containerId: number): Placement {
  if (!placement) {
    log("error", { event: "shard-placement-missing", container_id: containerId });
    throw ApiError.notFound();
  }
  return placement;
}

/** A video the caller may see, its container and their placement: one catalogue batch (the session check included). */
export async function visibleVideoPlacement(deps: Deps, user: User | undefined, videoId: number) {
  const { db } = deps;
  const [found, placed] = await batchWith(db, deps.session, [videoWithContainerQuery(db, videoId), videoPlacementQuery(db, videoId)]);
  const { video, container } = await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(found));
  return { video, container, placement: requirePlacement(placed[0], container.id) };
}

/** The database a read of this container's rows goes to. */
export const readShard = (deps: Pick<Deps, "env" | "shards">, placement: Placement) => shardDb(deps, placement.shard);

/** The database a write of this container's rows goes to, with the shard (for ids); 503 while the container moves. */
export function writeShard(deps: Pick<Deps, "env" | "shards">, placement: Placement) {
  if (placement.movingTo !== null) {
    throw new ApiError(VCODE.unavailable, "this container's community data is moving to another database; retry shortly", {
      headers: { "retry-after": String(MOVE_RETRY_AFTER_SECONDS) },
    });
  }
  return { db: shardDb(deps, placement.shard), shard: placement.shard };
}
