import { env } from "cloudflare:workers";
import { findPlacement } from "../../src/db/queries/shards";
import { insertTimedComment } from "../../src/db/queries/timed-comments";
import { createShardDb, shardBinding } from "../../src/db/shards";
import { db } from "./index";

/** The shard a container's rows live on (the directory), and that shard's database. */
export async function shardOf(containerId: number) {
  const placement = await findPlacement(db(), containerId);
  if (!placement) throw new Error(`container ${containerId} has no directory entry`);
  return { shard: placement.shard, db: createShardDb(shardBinding(env, placement.shard)), binding: shardBinding(env, placement.shard) };
}

/** Both test shards' databases (test/setup.ts migrates SHARD_1 and SHARD_2). */
export const shardDbs = () => [1, 2].map((n) => createShardDb(shardBinding(env, n)));

/** A timed comment written where the API would write it (the container's shard, an id from its range). */
export async function addTimedComment(row: { videoId: number; language: string; userId: number; timeMs: number; comment: string }) {
  const video = await env.DB.prepare(
    "SELECT v.container_id AS containerId, u.username FROM videos v, users u WHERE v.id = ?1 AND u.id = ?2",
  )
    .bind(row.videoId, row.userId)
    .first<{ containerId: number; username: string }>();
  if (!video) throw new Error(`no video ${row.videoId} or user ${row.userId}`);
  const { shard, db: shardDb } = await shardOf(video.containerId);
  return insertTimedComment(shardDb, shard, { ...row, containerId: video.containerId, username: video.username });
}
