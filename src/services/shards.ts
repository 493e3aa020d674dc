import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { type Placement, type ShardMapRow, shardMapQuery, videoPlacementQuery } from "../db/queries/shards";
import { SHARD_ID_RANGE } from "../db/queries/shard-rows";
import type { ShardDB } from "../db/shards";
import { FENCE_REFUSAL } from "../db/shard-schema";
import { batchWith } from "../db/rider";
import { ApiError, VCODE } from "../lib/errors";
import { log } from "../lib/log";
import type { User } from "../types";
import { caller, requireVisibleVideo } from "./access";
import { type Deps, shardDb, viewer } from "./deps";

/**
 * Which shard database serves a container's localisation and community rows (docs/decisions.md, "Shards"). Reads
 * and writes follow the directory's `shard` throughout a move (its rows are complete there until the switch); the
 * shard logs each write for the move, and refuses them for the seconds of its fence (docs/decisions.md, "Online moves").
 */

/** Seconds a writer is told to wait while its container's move is fenced: the fence stands for seconds. */
const MOVE_RETRY_AFTER_SECONDS = 5;

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

/** The answer to a write refused while its container moves: the fence stands for seconds (docs/decisions.md, "Online moves"). */
export const containerMoving = () =>
  new ApiError(VCODE.unavailable, "this container's community data is moving to another database; retry shortly", {
    headers: { "retry-after": String(MOVE_RETRY_AFTER_SECONDS) },
  });

/**
 * Whether an error is a shard's refusal of a write under a move's fence (src/db/shard-triggers/move-fences.sql): D1's
 * error, or the query builder's around it (its `cause`).
 */
export function isFenceRefusal(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) if (e.message.includes(FENCE_REFUSAL)) return true;
  return false;
}

/**
 * The database a write of this container's rows goes to, with the shard (for ids). During a move it is still the
 * shard the container leaves, which logs the write for the target; the fence there refuses it for the seconds before
 * the switch, and the error handler answers that refusal with `containerMoving`.
 */
export function writeShard(deps: Pick<Deps, "env" | "shards">, placement: Placement) {
  return { db: shardDb(deps, placement.shard), shard: placement.shard };
}

/** One shard as a read across shards sees it: its database and the containers it does not answer for (`shardMapQuery`). */
export interface ShardPart {
  shard: number;
  db: ShardDB;
  /** Containers arriving here by a move or draining from here after one: their rows are read on their other shard. */
  leftOut: number[];
}

/** Each shard of the catalogue's `shardMapQuery` with the containers it does not answer for; no database opened yet. */
export const shardTargets = (map: ShardMapRow[]): Array<Omit<ShardPart, "db">> =>
  map.map((row) => ({
    shard: row.shard,
    leftOut: [...new Set([...(JSON.parse(row.arriving) as number[]), ...(JSON.parse(row.draining) as number[])])],
  }));

/** The shards to ask, from the catalogue's `shardMapQuery` (which a read batches with its other catalogue reads). */
export const shardParts = (deps: Pick<Deps, "env" | "shards">, map: ShardMapRow[]): ShardPart[] =>
  shardTargets(map).map((target) => ({ ...target, db: shardDb(deps, target.shard) }));

/** Every shard's part of a read across shards, asked in parallel: one round trip of wall time, whatever N. */
export async function shardMap(deps: Deps) {
  return shardParts(deps, await shardMapQuery(deps.db).all());
}

/**
 * A page of a list spread over the shards: each shard's first `offset + limit` rows in the list's order, merged by
 * `compare` (the same order), rows of the same `key` kept once, then the page cut. OFFSET paging over N shards reads
 * N·(offset + limit) rows, which the paging ceiling bounds (docs/decisions.md, "Paging ceiling and repeated parameters").
 * The shards' `leftOut` already reads each container on one shard; `key` is the merge's own guarantee, for a row two
 * shards hold in a window the directory does not see (docs/decisions.md, "Subtitles on the shards"). Each shard's rows
 * are distinct, so the merge still holds `offset + limit` distinct rows whenever one shard gave that many.
 */
export async function pageAcrossShards<T>(
  parts: ShardPart[],
  read: (part: ShardPart, limit: number) => Promise<T[]>,
  compare: (a: T, b: T) => number,
  offset: number,
  limit: number,
  key: (row: T) => string | number,
): Promise<T[]> {
  const pages = await Promise.all(parts.map((part) => read(part, offset + limit)));
  const seen = new Set<string | number>();
  return pages
    .flat()
    .sort(compare)
    .filter((row) => {
      const k = key(row);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(offset, offset + limit);
}

/**
 * A keyset page of a list spread over the shards (docs/decisions.md, "Keyset paging across shards"): `read` gives a
 * shard's first `limit` rows strictly after the cursor's position in the list's order (its SQL holds the position),
 * so each shard reads about `limit` rows at any depth, N·limit in all; then the merge and the cut as for a first page.
 * A row two shards hold is after the position on both or on neither, so `key` still keeps it once.
 */
export const keysetAcrossShards = <T>(
  parts: ShardPart[],
  read: (part: ShardPart, limit: number) => Promise<T[]>,
  compare: (a: T, b: T) => number,
  limit: number,
  key: (row: T) => string | number,
): Promise<T[]> => pageAcrossShards(parts, read, compare, 0, limit, key);

/**
 * The row with this id on whichever shard holds it (ids are unique across shards). The id's range names the shard
 * that issued it (n·2^32 + k), which holds it unless its container moved since: that shard is asked first, alone,
 * and the others in parallel only when it does not have the row. An id below every range (a row copied from the
 * catalogue) or of a shard not in the map names none: every shard is asked at once. During a move both shards hold
 * the row; the caller then uses its container's placement from the catalogue (docs/decisions.md, "Subtitles on the
 * shards").
 */
export async function findOnShards<T>(
  parts: ShardPart[],
  id: number,
  find: (db: ShardDB) => Promise<T | undefined>,
): Promise<T | undefined> {
  const issuer = parts.find((part) => part.shard === Math.floor(id / SHARD_ID_RANGE));
  if (issuer) {
    const row = await find(issuer.db);
    if (row !== undefined) return row;
  }
  const found = await Promise.all(parts.filter((part) => part !== issuer).map((part) => find(part.db)));
  return found.find((row) => row !== undefined);
}
