import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { deleteTimedComment, findTimedComment, insertTimedComment, timedCommentsQuery } from "../db/queries/timed-comments";
import { batchWith } from "../db/rider";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { caller, canManageContainer, requireVisibleVideo } from "./access";
import { type Deps, viewer } from "./deps";
import { bumpGenerations } from "./edge-cache";
import { visibleVideo } from "./localisation";

export { MAX_TIMED_COMMENTS } from "../db/queries/timed-comments";

/**
 * The comments in one language (by time, at most MAX_TIMED_COMMENTS, with their authors) of a video the caller may
 * see, else 404. The video and the comments are read in one batch: the comments of a hidden video are dropped.
 */
export async function videoTimedComments(deps: Deps, user: User | undefined, videoId: number, language: string) {
  const { db } = deps;
  const [found, rows] = await batchWith(db, deps.session, [
    videoWithContainerQuery(db, videoId),
    timedCommentsQuery(db, videoId, language),
  ]);
  await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(found));
  return rows;
}

/** A comment at `time` ms into a video the caller may see: at most its duration when that is known (400). */
export async function addTimedComment(
  deps: Deps,
  user: User,
  video: { id: number; duration: number },
  language: string,
  input: { time: number; comment: string },
) {
  if (video.duration > 0 && input.time > video.duration * 1000) {
    throw ApiError.field("time", `at most the video's duration (${video.duration * 1000} ms)`);
  }
  const created = await insertTimedComment(deps.db, {
    videoId: video.id,
    language,
    userId: user.id,
    timeMs: input.time,
    comment: input.comment,
  });
  await bumpGenerations(deps.env, `video:${video.id}`);
  return created;
}

/**
 * Deletes a comment of a video the caller may see (a comment of another video is 404): its author, the
 * container's managers and staff may; anyone else is 403.
 */
export async function removeTimedComment(deps: Deps, user: User, videoId: number, commentId: number) {
  const { video, container } = await visibleVideo(deps, user, videoId);
  const comment = await findTimedComment(deps.db, commentId);
  if (!comment || comment.videoId !== video.id) throw ApiError.notFound();
  if (comment.userId !== user.id && !(await canManageContainer(deps.db, user, container.id))) {
    throw ApiError.forbidden("only the author, the container's managers or staff may delete this comment");
  }
  await deleteTimedComment(deps.db, comment.id);
  await bumpGenerations(deps.env, `video:${video.id}`);
}
