import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { findPlacement, videoPlacementQuery } from "../db/queries/shards";
import { deleteTimedComment, findTimedComment, insertTimedComment, timedCommentsQuery } from "../db/queries/timed-comments";
import { batchWith } from "../db/rider";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { caller, canManageContainer, requireVisibleVideo } from "./access";
import { type Deps, viewer } from "./deps";
import { bumpGenerations } from "./edge-cache";
import { visibleVideo } from "./localisation";
import { readShard, requirePlacement, writeShard } from "./shards";

export { MAX_TIMED_COMMENTS } from "../db/queries/timed-comments";

/**
 * The comments in one language (by time, at most MAX_TIMED_COMMENTS, with their authors) of a video the caller may
 * see, else 404: the video, its container and their shard in one catalogue batch, then the comments from that shard
 * (docs/decisions.md, "Shards": two round trips, the second only for a visible video).
 */
export async function videoTimedComments(deps: Deps, user: User | undefined, videoId: number, language: string) {
  const { db } = deps;
  const [found, placed] = await batchWith(db, deps.session, [videoWithContainerQuery(db, videoId), videoPlacementQuery(db, videoId)]);
  await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(found));
  return timedCommentsQuery(readShard(deps, requirePlacement(placed[0])), videoId, language).all();
}

/** A comment at `time` ms into a video the caller may see: at most its duration when that is known (400). */
export async function addTimedComment(
  deps: Deps,
  user: User,
  video: { id: number; containerId: number; duration: number },
  language: string,
  input: { time: number; comment: string },
) {
  if (video.duration > 0 && input.time > video.duration * 1000) {
    throw ApiError.field("time", `at most the video's duration (${video.duration * 1000} ms)`);
  }
  const { db, shard } = writeShard(deps, requirePlacement(await findPlacement(deps.db, video.containerId)));
  const created = await insertTimedComment(db, shard, {
    containerId: video.containerId,
    videoId: video.id,
    language,
    userId: user.id,
    username: user.username,
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
  const placement = requirePlacement(await findPlacement(deps.db, container.id));
  const comment = await findTimedComment(readShard(deps, placement), commentId);
  if (!comment || comment.videoId !== video.id) throw ApiError.notFound();
  if (comment.userId !== user.id && !(await canManageContainer(deps.db, user, container.id))) {
    throw ApiError.forbidden("only the author, the container's managers or staff may delete this comment");
  }
  await deleteTimedComment(writeShard(deps, placement).db, comment.id);
  await bumpGenerations(deps.env, `video:${video.id}`);
}
