import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import type { DB } from "../client";
import { subtitleHistories } from "../schema";

export interface HistoryFilter {
  userId: number;
  videoId?: number;
  language?: string;
}

function where(f: HistoryFilter): SQL {
  const terms = [eq(subtitleHistories.userId, f.userId)];
  if (f.videoId !== undefined) terms.push(eq(subtitleHistories.videoId, f.videoId));
  if (f.language !== undefined) terms.push(eq(subtitleHistories.language, f.language));
  return and(...terms)!;
}

/**
 * A user's history, newest first. Every filter combination is one index range read backwards, so a page
 * reads about `limit + offset` rows: user only `subtitle_histories_user` (user, id); user + video
 * `subtitle_histories_video_user` (video, user, id); user + language `subtitle_histories_user_language`
 * (user, language, id); all three `subtitle_histories_user_video_language` (user, video, language, id).
 */
export const listUserHistories = (db: DB, f: HistoryFilter, offset: number, limit: number) =>
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
    .where(where(f))
    .orderBy(desc(subtitleHistories.id))
    .limit(limit)
    .offset(offset)
    .all();

export type HistoryRow = Awaited<ReturnType<typeof listUserHistories>>[number];

/** Only for `with_paging=true`: reads the matching index entries up to the paging ceiling's `COUNT_LIMIT`. */
export async function countUserHistories(db: DB, f: HistoryFilter) {
  const capped = db
    .select({ one: sql`1`.as("one") })
    .from(subtitleHistories)
    .where(where(f))
    .limit(COUNT_LIMIT)
    .as("capped");
  const row = await db.select({ n: count() }).from(capped).get();
  return row?.n ?? 0;
}
