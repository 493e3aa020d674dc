import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import { notLeftOutCondition } from "./shard-rows";
import type { ShardDB } from "../shards";
import { subtitleHistories } from "../shard-schema";

/**
 * A user's subtitle histories on one shard (docs/decisions.md, "Subtitles on the shards"): a list over every container
 * asks each shard and merges (src/services/histories.ts); a list of one video asks its container's shard.
 */

export interface HistoryFilter {
  userId: number;
  videoId?: number;
  language?: string;
}

/** A position in a user's history (creation time in seconds, id), for keyset paging: the rows strictly after it. */
export type HistoryAfter = readonly [number, number];

function where(f: HistoryFilter, leftOut: readonly number[], after?: HistoryAfter): SQL {
  const terms = [eq(subtitleHistories.userId, f.userId)];
  // A row value, so the index's (created, id) tail is one backwards range below the position.
  if (after) terms.push(sql`(${subtitleHistories.createdAt}, ${subtitleHistories.id}) < (${after[0]}, ${after[1]})`);
  if (f.videoId !== undefined) terms.push(eq(subtitleHistories.videoId, f.videoId));
  if (f.language !== undefined) terms.push(eq(subtitleHistories.language, f.language));
  return and(...terms, notLeftOutCondition(subtitleHistories.containerId, leftOut))!;
}

/**
 * A user's history on this shard, newest first (creation time, then id: ids come in ranges per shard). Every filter
 * combination is one index range read backwards, so a page reads about `limit + offset` rows: user only
 * `subtitle_histories_user` (user, created, id); user + video `subtitle_histories_video_user` (video, user, created, id);
 * user + language `subtitle_histories_user_language` (user, language, created, id); all three
 * `subtitle_histories_user_video_language` (user, video, language, created, id). With `after` (keyset paging) the range
 * starts below that position, so a page reads about `limit` rows at any depth.
 */
export const userHistoriesQuery = (
  db: ShardDB,
  f: HistoryFilter,
  offset: number,
  limit: number,
  leftOut: readonly number[] = [],
  after?: HistoryAfter,
) =>
  db
    .select({
      id: subtitleHistories.id,
      kind: subtitleHistories.kind,
      videoId: subtitleHistories.videoId,
      containerId: subtitleHistories.containerId,
      segmentId: subtitleHistories.segmentId,
      subtitleId: subtitleHistories.subtitleId,
      language: subtitleHistories.language,
      text: subtitleHistories.text,
      version: subtitleHistories.version,
      count: subtitleHistories.count,
      createdAt: subtitleHistories.createdAt,
    })
    .from(subtitleHistories)
    .where(where(f, leftOut, after))
    .orderBy(desc(subtitleHistories.createdAt), desc(subtitleHistories.id))
    .limit(limit)
    .offset(offset);

/** `userHistoriesQuery`'s rows (the query alone is for its plan, test/robustness/keyset-paging.test.ts). */
export const listUserHistories = (...args: Parameters<typeof userHistoriesQuery>) => userHistoriesQuery(...args).all();

export type HistoryRow = Awaited<ReturnType<typeof listUserHistories>>[number];

/** Only for `with_paging=true`: reads this shard's matching index entries up to the paging ceiling's `COUNT_LIMIT`. */
export async function countUserHistories(db: ShardDB, f: HistoryFilter, leftOut: readonly number[] = []) {
  const capped = db
    .select({ one: sql`1`.as("one") })
    .from(subtitleHistories)
    .where(where(f, leftOut))
    .limit(COUNT_LIMIT)
    .as("capped");
  const row = await db.select({ n: count() }).from(capped).get();
  return row?.n ?? 0;
}
