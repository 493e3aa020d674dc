import { findPlacement, recordShardBytes } from "../db/queries/shards";
import { deleteContainerVideoVersions, pruneVersionRows, referencedHashes, type GoneVersion } from "../db/queries/subtitle-versions";
import type { ShardDB } from "../db/shards";
import { type Deps, shardDb } from "./deps";
import { shardMap } from "./shards";
import { snapshotKey, videoSnapshotPrefix } from "./subtitle-versions";

/**
 * How long versions of a subtitle track are kept (docs/decisions.md, "Subtitle versions"). Every version is kept
 * `VERSION_RETENTION_DAYS`; after that only the newest `VERSIONS_KEPT` of its track stay; the track's current (last)
 * version is never removed, however old. The sweeper (src/jobs/sweeper.ts, every minute) prunes a bounded step per run
 * on every shard, in parallel (versions live on their container's shard: docs/decisions.md, "Subtitles on the shards").
 * A version row goes before its snapshot object, so a row never names a missing object; objects are named by content,
 * so one goes only when no remaining version of its track carries its hash.
 */
export const VERSION_RETENTION_DAYS = 90;
export const VERSIONS_KEPT = 50;
/** Version rows one sweep deletes at most on each shard (one statement, and one R2 delete of their objects). */
export const PRUNE_VERSIONS_BATCH = 500;
/**
 * Ids of subtitle_versions one sweep looks at in each block of a shard's ids: the rows the pruning statement reads,
 * whatever the table holds. The sweep walks each block's ids a window per minute, so a version is pruned at most
 * (the widest block's ids / PRUNE_WINDOW_IDS) + 1 minutes after it becomes prunable, a round later for each
 * PRUNE_VERSIONS_BATCH prunable rows its window held before it. A shard's range numbers every row of the family
 * (segments and subtitles too), so a block is wider than its versions: twenty million ids is a week.
 */
export const PRUNE_WINDOW_IDS = 2_000;
/** Videos whose versions one cleanup statement deletes when their container goes (then their R2 objects). */
export const CLEANUP_VIDEOS = 10;
/** Keys R2 lists and deletes in one call. */
const R2_PAGE = 1_000;

export interface VersionPruneResult {
  /** Version rows deleted. */
  pruned: number;
  /** Snapshot objects deleted: those no remaining version of their track refers to. */
  objects: number;
  /** D1 rows read and written by the run's two statements on each shard (the prune and the reference check), summed. */
  rows_read: number;
  rows_written: number;
}

const trackKey = (v: GoneVersion) => `${v.videoId}/${v.language}`;

/**
 * Deletes the snapshot objects of deleted versions that no remaining version of their track carries: one query for
 * the hashes still referenced, then one R2 delete per thousand keys. Not atomic across D1 and R2: a writer recording
 * the very content of a pruned version between the query and the delete (a revert to text last seen 50 versions and
 * 90 days ago, in those milliseconds) would find its object gone.
 */
async function deleteUnreferencedSnapshots(db: ShardDB, env: Env, gone: GoneVersion[]) {
  const tracks = [...new Map(gone.map((v) => [trackKey(v), { videoId: v.videoId, language: v.language }])).values()];
  const { rows, rowsRead } = await referencedHashes(db, tracks);
  const kept = new Set(rows.map((r) => snapshotKey(r, r.hash)));
  const keys = [...new Set(gone.map((v) => snapshotKey(v, v.hash)))].filter((k) => !kept.has(k));
  for (let i = 0; i < keys.length; i += R2_PAGE) await env.SUBTITLES.delete(keys.slice(i, i + R2_PAGE));
  return { objects: keys.length, rowsRead };
}

/**
 * One pruning step of the sweep: on every shard in parallel, deletes at most `limit` version rows past retention from
 * this minute's window of ids, then their snapshot objects that nothing else refers to (a track's versions are all on
 * one shard). Containers a shard does not answer for (`shardMapQuery`) are left to their other shard. Each shard's size
 * as that statement saw it goes to `shards.bytes`, which placement weighs. `window` and `limit` are for tests.
 */
export async function pruneVersions(
  deps: Pick<Deps, "db" | "env">,
  now: Date = new Date(),
  { window = PRUNE_WINDOW_IDS, limit = PRUNE_VERSIONS_BATCH }: { window?: number; limit?: number } = {},
): Promise<VersionPruneResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const runs = await Promise.all(
    (await shardMap(deps)).map(async (part): Promise<VersionPruneResult> => {
      const cost = await pruneVersionRows(part.db, {
        beforeSeconds: nowSeconds - VERSION_RETENTION_DAYS * 86_400,
        keep: VERSIONS_KEPT,
        turn: Math.floor(nowSeconds / 60),
        window,
        limit,
        leftOut: part.leftOut,
      });
      if (cost.bytes) await recordShardBytes(deps.db, part.shard, cost.bytes);
      if (!cost.pruned.length) return { pruned: 0, objects: 0, rows_read: cost.rowsRead, rows_written: cost.rowsWritten };
      const { objects, rowsRead } = await deleteUnreferencedSnapshots(part.db, deps.env, cost.pruned);
      return { pruned: cost.pruned.length, objects, rows_read: cost.rowsRead + rowsRead, rows_written: cost.rowsWritten };
    }),
  );
  return runs.reduce((sum, r) => ({
    pruned: sum.pruned + r.pruned,
    objects: sum.objects + r.objects,
    rows_read: sum.rows_read + r.rows_read,
    rows_written: sum.rows_written + r.rows_written,
  }));
}

/**
 * Deletes every snapshot object of a video, a page of keys at a time (`page` is for tests): for after the video's rows
 * are gone (its versions cascade with it). Idempotent: a video with no objects left costs one empty list.
 */
export async function deleteVideoSnapshots(env: Env, videoId: number, page = R2_PAGE): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const listing = await env.SUBTITLES.list({ prefix: videoSnapshotPrefix(videoId), cursor, limit: page });
    if (listing.objects.length) await env.SUBTITLES.delete(listing.objects.map((o) => o.key));
    deleted += listing.objects.length;
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return deleted;
}

export interface ContainerVersionsRemoval {
  /** Version rows deleted. */
  rows: number;
  /** Videos whose versions and snapshot objects went. */
  videos: number;
  objects: number;
  statements: number;
  /** The most rows D1 read for one statement. */
  maxRowsRead: number;
}

/**
 * The versions of a container's videos, before the container goes: a statement on its shard deletes the version rows
 * of up to CLEANUP_VIDEOS videos, then their objects go (by prefix), until no video of the container has versions (a
 * container already gone has no placement and nothing left to do; its shard rows follow the cleanup outbox). Rows go
 * before objects, and a replay finds the videos whose rows are left, so it finishes the work; a crash between a
 * statement and its R2 deletes leaves those objects behind. `alive` is called every 20 statements (a job's progress);
 * `resume` lets a job stop between statements and go on from its tally (docs/decisions.md, "Jobs that continue").
 */
export async function removeContainerVersions(
  { db, env }: Pick<Deps, "db" | "env">,
  containerId: number,
  alive: () => Promise<void> = async () => {},
  resume: { prior?: ContainerVersionsRemoval; checkpoint?: (sofar: ContainerVersionsRemoval) => void } = {},
): Promise<ContainerVersionsRemoval> {
  const done: ContainerVersionsRemoval = resume.prior ?? { rows: 0, videos: 0, objects: 0, statements: 0, maxRowsRead: 0 };
  const placement = await findPlacement(db, containerId);
  if (!placement) return done;
  // The shard the directory names: during a move the target's copy goes with the move's own cleanup.
  const shard = shardDb({ env }, placement.shard);
  for (;;) {
    // A job that must stop (its statements for this delivery spent) stops before a statement, with the tally so far.
    resume.checkpoint?.(done);
    const chunk = await deleteContainerVideoVersions(shard, containerId, CLEANUP_VIDEOS);
    done.statements += 1;
    done.maxRowsRead = Math.max(done.maxRowsRead, chunk.rowsRead);
    if (!chunk.videoIds.length) return done;
    done.rows += chunk.rows;
    done.videos += chunk.videoIds.length;
    for (const videoId of chunk.videoIds) done.objects += await deleteVideoSnapshots(env, videoId);
    if (done.statements % 20 === 0) await alive();
  }
}
