import { deleteTimedComment, findTimedComment, insertTimedComment, timedCommentsQuery } from "../db/queries/timed-comments";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { canManageContainer } from "./access";
import type { Deps } from "./deps";
import { afterWrite } from "./after-write";
import { readShard, visibleVideoPlacement, writeShard } from "./shards";

export { MAX_TIMED_COMMENTS } from "../db/queries/timed-comments";

/**
 * The comments in one language (by time, at most MAX_TIMED_COMMENTS, with their authors) of a video the caller may
 * see, else 404: the video, its container and their shard in one catalogue batch, then the comments from that shard
 * (docs/decisions.md, "Shards": two round trips, the second only for a visible video).
 */
export async function videoTimedComments(deps: Deps, user: User | undefined, videoId: number, language: string) {
  const { placement } = await visibleVideoPlacement(deps, user, videoId);
  return timedCommentsQuery(readShard(deps, placement), videoId, language).all();
}

/**
 * A comment at `time` ms into a video the caller may see (else 404): at most its duration when that is known (400).
 * The video and its placement are one catalogue batch, then the shard's insert.
 */
export async function addTimedComment(deps: Deps, user: User, videoId: number, language: string, input: { time: number; comment: string }) {
  const { video, placement } = await visibleVideoPlacement(deps, user, videoId);
  if (video.duration > 0 && input.time > video.duration * 1000) {
    throw ApiError.field("time", `at most the video's duration (${video.duration * 1000} ms)`);
  }
  const { db, shard } = writeShard(deps, placement);
  const created = await insertTimedComment(db, shard, {
    containerId: video.containerId,
    videoId: video.id,
    language,
    userId: user.id,
    username: user.username,
    timeMs: input.time,
    comment: input.comment,
  });
  await afterWrite(deps, { scopes: [`video:${video.id}`] });
  return created;
}

/**
 * Deletes a comment of a video the caller may see (a comment of another video is 404): its author, the
 * container's managers and staff may; anyone else is 403.
 */
export async function removeTimedComment(deps: Deps, user: User, videoId: number, commentId: number) {
  const { video, container, placement } = await visibleVideoPlacement(deps, user, videoId);
  const comment = await findTimedComment(readShard(deps, placement), commentId);
  if (!comment || comment.videoId !== video.id) throw ApiError.notFound();
  if (comment.userId !== user.id && !(await canManageContainer(deps.db, user, container.id))) {
    throw ApiError.forbidden("only the author, the container's managers or staff may delete this comment");
  }
  await deleteTimedComment(writeShard(deps, placement).db, comment.id);
  await afterWrite(deps, { scopes: [`video:${video.id}`] });
}
