import { countUserHistories, listUserHistories, type HistoryFilter, type HistoryRow } from "../db/queries/histories";
import { videoPlacementQuery } from "../db/queries/shards";
import { findUserById } from "../db/queries/users";
import { ApiError } from "../lib/errors";
import { COUNT_LIMIT } from "../lib/paging";
import type { User } from "../types";
import type { Deps } from "./deps";
import { pageAcrossShards, shardMap, readShard } from "./shards";

export type { HistoryFilter };

/** A user's history is theirs and staff's: anyone else is 403; staff asking for an unknown user get a 404. */
export async function requireHistoryReader(deps: Deps, reader: User, userId: number) {
  if (reader.id === userId) return;
  if (!reader.staff) throw ApiError.forbidden("only the user themself or staff may read a user's history");
  if (!(await findUserById(deps.db, userId))) throw ApiError.notFound();
}

/** Newest first is by creation time, then id: ids come in ranges per shard (docs/decisions.md, "Subtitles on the shards"). */
const newestFirst = (a: HistoryRow, b: HistoryRow) => Number(b.createdAt) - Number(a.createdAt) || b.id - a.id;

/**
 * Up to `limit` history rows, newest (highest id) first, and the filter's count for `with_paging`. The rows live on
 * the shards of the containers the user worked on (docs/decisions.md, "Subtitles on the shards"): with a video, its
 * placement names the one shard to ask (a video that does not exist has no history); otherwise every shard is asked
 * in parallel and the pages merged, and the count is the sum of each shard's (capped like any count).
 */
export async function userHistoryPage(deps: Deps, filter: HistoryFilter, offset: number, limit: number) {
  if (filter.videoId !== undefined) {
    const [placement] = await videoPlacementQuery(deps.db, filter.videoId).all();
    if (!placement) return { rows: [] as HistoryRow[], count: async () => 0 };
    const db = readShard(deps, placement);
    return { rows: await listUserHistories(db, filter, offset, limit), count: () => countUserHistories(db, filter) };
  }
  const parts = await shardMap(deps);
  const rows = await pageAcrossShards(
    parts,
    (part, n) => listUserHistories(part.db, filter, 0, n, part.leftOut),
    newestFirst,
    offset,
    limit,
    (row) => row.id,
  );
  const count = async () => {
    const counts = await Promise.all(parts.map((part) => countUserHistories(part.db, filter, part.leftOut)));
    return Math.min(
      COUNT_LIMIT,
      counts.reduce((sum, n) => sum + n, 0),
    );
  };
  return { rows, count };
}
