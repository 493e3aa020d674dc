import type { Placement } from "../db/queries/shards";
import { ApiError, VCODE } from "../lib/errors";
import { type Deps, shardDb } from "./deps";

/**
 * Which shard database serves a container's localisation and community rows (docs/decisions.md, "Shards"). Reads
 * follow the directory's `shard` throughout a move (its rows are complete there until the switch); writes wait while
 * the container is moving, so the copy the move makes is complete when the directory switches.
 */

/** Seconds a writer is told to wait while its container moves: a move of a large container takes a few seconds. */
export const MOVE_RETRY_AFTER_SECONDS = 5;

/** A placement that must exist: the directory has a row for every container (the placement trigger). */
export function requirePlacement(placement: Placement | undefined): Placement {
  if (!placement) throw ApiError.notFound();
  return placement;
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
