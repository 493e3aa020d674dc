import { eq, notInArray, sql } from "drizzle-orm";
import type { DB } from "../client";
import { shardCleanups, shardDirectory, shards, videos } from "../schema";
import { jobHeldBy, type JobClaim } from "./jobs";

const PLACEMENT = {
  containerId: shardDirectory.containerId,
  shard: shardDirectory.shard,
  movingTo: shardDirectory.movingTo,
};

/** Where a container's shard rows live, and where they are moving to (null: not moving). Batchable. */
export const containerPlacementQuery = (db: DB, containerId: number) =>
  db.select(PLACEMENT).from(shardDirectory).where(eq(shardDirectory.containerId, containerId));

/** The same, found from one of the container's videos (videos' primary key, then the directory's). Batchable. */
export const videoPlacementQuery = (db: DB, videoId: number) =>
  db
    .select(PLACEMENT)
    .from(videos)
    .innerJoin(shardDirectory, eq(shardDirectory.containerId, videos.containerId))
    .where(eq(videos.id, videoId));

export type Placement = { containerId: number; shard: number; movingTo: number | null };

/**
 * Every shard, with the containers it does not answer for in lists and totals (a JSON array, usually empty): the one
 * home of that rule (docs/decisions.md, "Subtitles on the shards"). A read across shards leaves them out there, so
 * each container's rows are read and counted once, on one shard:
 * - containers moving to it (shard_directory_moving_to): their rows are complete on the shard they are leaving;
 * - containers draining from it: a whole-container cleanup is pending there (after a move's switch, the source's rows
 *   stay until their delete ends; also a container being deleted). Their rows are complete on the directory's shard,
 *   or wanted nowhere. Read by shard (`shard_cleanups_shard`): a row per pending cleanup, none when the outbox is empty.
 * Batchable.
 */
export const shardMapQuery = (db: DB) =>
  db
    .select({
      shard: shards.id,
      // The outer row's id spelled out: drizzle writes the column unqualified, and shard_cleanups has an `id` too.
      arriving: sql<string>`(SELECT json_group_array(container_id) FROM shard_directory WHERE moving_to = shards.id)`,
      draining: sql<string>`(SELECT json_group_array(container_id) FROM shard_cleanups k WHERE k.shard = shards.id AND k.video_id IS NULL)`,
    })
    .from(shards)
    .orderBy(shards.id);
export type ShardMapRow = { shard: number; arriving: string; draining: string };

export const listShards = (db: DB) => db.select().from(shards).orderBy(shards.id).all();

/** A shard's size as just seen, for placement (the containers_shard_placement trigger). Batchable. */
export const recordShardBytes = (db: DB, shard: number, bytes: number) => db.update(shards).set({ bytes }).where(eq(shards.id, shard));

/** A whole-container cleanup pending on `shard`: the container's rows there are being deleted. */
const drainingFrom = (shard: number, containerId: number) =>
  sql`EXISTS (SELECT 1 FROM shard_cleanups k WHERE k.shard = ${shard} AND k.container_id = ${containerId} AND k.video_id IS NULL)`;

/**
 * The move job's steps on the directory: each conditional, so a replay changes nothing twice. A move never starts
 * towards a shard the container is still draining from (an earlier move away not yet deleted there): that delete
 * would take the rows the new move copies (docs/decisions.md, "Subtitles on the shards").
 */
export const startMove = (db: DB, containerId: number, target: number, now: number) =>
  db
    .update(shardDirectory)
    .set({ movingTo: target, moveStartedAt: now })
    .where(
      sql`${shardDirectory.containerId} = ${containerId} AND ${shardDirectory.shard} <> ${target} AND (${shardDirectory.movingTo} IS NULL OR ${shardDirectory.movingTo} = ${target}) AND NOT ${drainingFrom(target, containerId)}`,
    )
    .returning()
    .get();

/** Whether the container is still draining from `shard` (why a move towards it does not start). */
export const isDrainingFrom = async (db: DB, containerId: number, shard: number) =>
  (await db.get<{ n: number }>(sql`SELECT ${drainingFrom(shard, containerId)} AS n`))?.n === 1;

/** The move job emptied the shard it left: its whole-container cleanup there is done. */
export const endDrain = (db: DB, containerId: number, shard: number) =>
  db.run(sql`DELETE FROM shard_cleanups WHERE shard = ${shard} AND container_id = ${containerId} AND video_id IS NULL`);

/**
 * The move's switch, conditional on the mark and on the move job's claim (docs/decisions.md, "Exclusive claims"): a
 * delivery that lost its job to another switches nothing, in the same statement.
 */
export const switchMove = (db: DB, containerId: number, target: number, claim: JobClaim) =>
  db
    .update(shardDirectory)
    .set({ shard: target, movingTo: null, moveStartedAt: null })
    .where(sql`${shardDirectory.containerId} = ${containerId} AND ${shardDirectory.movingTo} = ${target} AND ${jobHeldBy(claim)}`)
    .returning()
    .get();

export const findPlacement = (db: DB, containerId: number) => containerPlacementQuery(db, containerId).get();

/** The oldest cleanups of the outbox, at most `limit`. */
export type ShardCleanup = typeof shardCleanups.$inferSelect;

/**
 * The oldest `limit` cleanups, past those of the shards in `skip` (failed earlier in this drain): a walk of the
 * primary key that reads, and leaves, the skipped shards' rows ahead of the others'.
 */
export const pendingCleanups = (db: DB, limit: number, skip: number[] = []) =>
  db
    .select()
    .from(shardCleanups)
    .where(skip.length ? notInArray(shardCleanups.shard, skip) : undefined)
    .orderBy(shardCleanups.id)
    .limit(limit)
    .all();

/** Longest error text kept on a shard's row: enough for D1's messages, bounded whatever a driver throws. */
const OUTBOX_ERROR_CHARS = 500;

/**
 * A drain of an outbox met `error` on `shard` (docs/decisions.md, "Shards"): kept on the shard's row for `shards list`,
 * written only on a failure.
 */
export const recordOutboxError = (db: DB, shard: number, error: string, now: number) =>
  db
    .update(shards)
    .set({ outboxError: error.slice(0, OUTBOX_ERROR_CHARS), outboxErrorAt: now })
    .where(eq(shards.id, shard));

export const deleteCleanup = (db: DB, id: number) => db.delete(shardCleanups).where(eq(shardCleanups.id, id));

/** A container's whole-container cleanup, written before its large delete starts (its videos then add none). */
export const recordContainerCleanup = (db: DB, containerId: number) =>
  db.run(
    sql`INSERT INTO shard_cleanups (shard, container_id) SELECT shard, container_id FROM shard_homes WHERE container_id = ${containerId}`,
  );
