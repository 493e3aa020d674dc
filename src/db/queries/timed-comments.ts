import { and, asc, eq } from "drizzle-orm";
import type { ShardDB } from "../shards";
import { timedComments } from "../shard-schema";
import { nextShardId, nextShardIdStatement } from "./shard-rows";

/** The most comments one GET returns: the first ones by time. */
export const MAX_TIMED_COMMENTS = 5000;

/** A video's comments in one language by time (timed_comments_video_language_time), with their authors' names. */
export const timedCommentsQuery = (db: ShardDB, videoId: number, language: string) =>
  db
    .select({
      id: timedComments.id,
      userId: timedComments.userId,
      timeMs: timedComments.timeMs,
      comment: timedComments.comment,
      language: timedComments.language,
      createdAt: timedComments.createdAt,
      username: timedComments.username,
    })
    .from(timedComments)
    .where(and(eq(timedComments.videoId, videoId), eq(timedComments.language, language)))
    .orderBy(asc(timedComments.timeMs), asc(timedComments.id))
    .limit(MAX_TIMED_COMMENTS);

export type TimedCommentRow = Awaited<ReturnType<ReturnType<typeof timedCommentsQuery>["all"]>>[number];

/** Allocates the id from `shard`'s range and inserts, in one batch. */
export async function insertTimedComment(
  db: ShardDB,
  shard: number,
  row: { containerId: number; videoId: number; language: string; userId: number; username: string; timeMs: number; comment: string },
) {
  const [, inserted] = await db.batch([
    nextShardIdStatement(db, shard),
    db
      .insert(timedComments)
      .values({ ...row, id: nextShardId(shard) })
      .returning(),
  ]);
  return inserted[0];
}

export const findTimedComment = (db: ShardDB, id: number) => db.select().from(timedComments).where(eq(timedComments.id, id)).get();

export const deleteTimedComment = (db: ShardDB, id: number) => db.delete(timedComments).where(eq(timedComments.id, id));
