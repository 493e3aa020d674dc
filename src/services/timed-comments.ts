import { deleteTimedComment, findTimedComment, insertTimedComment, listTimedComments } from "../db/queries/timed-comments";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { canManageContainer } from "./access";
import type { Deps } from "./deps";
import { visibleVideo } from "./localisation";

export { MAX_TIMED_COMMENTS } from "../db/queries/timed-comments";

/** A video's comments in one language by time (at most MAX_TIMED_COMMENTS), with their authors. */
export const videoTimedComments = (deps: Deps, videoId: number, language: string) => listTimedComments(deps.db, videoId, language);

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
  return insertTimedComment(deps.db, {
    videoId: video.id,
    language,
    userId: user.id,
    timeMs: input.time,
    comment: input.comment,
  });
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
}
