import { and, asc, eq } from "drizzle-orm";
import type { DB } from "../client";
import { timedComments, users } from "../schema";

/** The most comments one GET returns: the first ones by time. */
export const MAX_TIMED_COMMENTS = 5000;

/** A video's comments in one language by time (timed_comments_video_language_time), with their authors. Batchable. */
export const timedCommentsQuery = (db: DB, videoId: number, language: string) =>
  db
    .select({
      id: timedComments.id,
      userId: timedComments.userId,
      timeMs: timedComments.timeMs,
      comment: timedComments.comment,
      language: timedComments.language,
      createdAt: timedComments.createdAt,
      username: users.username,
    })
    .from(timedComments)
    .innerJoin(users, eq(users.id, timedComments.userId))
    .where(and(eq(timedComments.videoId, videoId), eq(timedComments.language, language)))
    .orderBy(asc(timedComments.timeMs), asc(timedComments.id))
    .limit(MAX_TIMED_COMMENTS);

export type TimedCommentRow = Awaited<ReturnType<ReturnType<typeof timedCommentsQuery>["all"]>>[number];

export const insertTimedComment = async (
  db: DB,
  row: { videoId: number; language: string; userId: number; timeMs: number; comment: string },
) => (await db.insert(timedComments).values(row).returning())[0];

export const findTimedComment = (db: DB, id: number) => db.select().from(timedComments).where(eq(timedComments.id, id)).get();

export const deleteTimedComment = (db: DB, id: number) => db.delete(timedComments).where(eq(timedComments.id, id));
