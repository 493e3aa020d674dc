import { countUserHistories, listUserHistories, type HistoryAfter, type HistoryFilter, type HistoryRow } from "../db/queries/histories";
import { videoPlacementQuery } from "../db/queries/shards";
import { findUserById } from "../db/queries/users";
import type { Cursor } from "../lib/cursor";
import { ApiError } from "../lib/errors";
import { COUNT_LIMIT, type Paging } from "../lib/paging";
import type { User } from "../types";
import type { Deps } from "./deps";
import { keysetAcrossShards, pageAcrossShards, shardMap, readShard } from "./shards";

export type { HistoryFilter };

/** A user's history is theirs and staff's: anyone else is 403; staff asking for an unknown user get a 404. */
export async function requireHistoryReader(deps: Deps, reader: User, userId: number) {
  if (reader.id === userId) return;
  if (!reader.staff) throw ApiError.forbidden("only the user themself or staff may read a user's history");
  if (!(await findUserById(deps.db, userId))) throw ApiError.notFound();
}

/** Newest first is by creation time, then id: ids come in ranges per shard (docs/decisions.md, "Subtitles on the shards"). */
const newestFirst = (a: HistoryRow, b: HistoryRow) => Number(b.createdAt) - Number(a.createdAt) || b.id - a.id;

/** The position a cursor names in a history; a cursor of another list is a 400 naming `cursor`. */
function historyPosition(cursor: Cursor | undefined): HistoryAfter | undefined {
  if (!cursor) return undefined;
  if (cursor.list !== "h") throw ApiError.field("cursor", "this cursor belongs to another list; send the cursor this list answered");
  return cursor.key;
}

/** The cursor of a page's last row when another page exists: its creation time in seconds and id, as the SQL compares them. */
const nextCursor = (rows: HistoryRow[], p: Paging): Cursor | undefined => {
  const last = rows.length > p.perPage ? rows[p.perPage - 1] : undefined;
  return last ? { list: "h", key: [Math.floor(Number(last.createdAt) / 1000), last.id] } : undefined;
};

/**
 * Up to `p.limit` history rows, newest (highest id) first, the filter's count for `with_paging`, and the cursor of
 * the next page. The rows live on the shards of the containers the user worked on (docs/decisions.md, "Subtitles on
 * the shards"): with a video, its placement names the one shard to ask (a video that does not exist has no history);
 * otherwise every shard is asked in parallel and the pages merged, and the count is the sum of each shard's (capped
 * like any count). With a cursor, each shard reads only the rows after it (docs/decisions.md, "Keyset paging across
 * shards").
 */
export async function userHistoryPage(deps: Deps, filter: HistoryFilter, p: Paging) {
  const after = historyPosition(p.cursor);
  if (filter.videoId !== undefined) {
    const [placement] = await videoPlacementQuery(deps.db, filter.videoId).all();
    if (!placement) return { rows: [] as HistoryRow[], count: async () => 0, next: undefined };
    const db = readShard(deps, placement);
    const rows = await listUserHistories(db, filter, p.offset, p.limit, [], after);
    return { rows, count: () => countUserHistories(db, filter), next: nextCursor(rows, p) };
  }
  const parts = await shardMap(deps);
  const read = (part: (typeof parts)[number], n: number) => listUserHistories(part.db, filter, 0, n, part.leftOut, after);
  const rows = after
    ? await keysetAcrossShards(parts, read, newestFirst, p.limit, (row) => row.id)
    : await pageAcrossShards(parts, read, newestFirst, p.offset, p.limit, (row) => row.id);
  const count = async () => {
    const counts = await Promise.all(parts.map((part) => countUserHistories(part.db, filter, part.leftOut)));
    return Math.min(
      COUNT_LIMIT,
      counts.reduce((sum, n) => sum + n, 0),
    );
  };
  return { rows, count, next: nextCursor(rows, p) };
}
