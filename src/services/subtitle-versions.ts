import type { SQL } from "drizzle-orm";
import type { ContainerRow, VideoRow } from "../db/schema";
import { ensureFactsStatements } from "../db/queries/shard-facts";
import type { Placement } from "../db/queries/shards";
import { subtitleCuesQuery } from "../db/queries/subtitles";
import {
  countVersionsQuery,
  insertVersionStatements,
  latestVersionQuery,
  versionPageQuery,
  versionsByNumberQuery,
  type NewVersion,
  type VersionRow,
} from "../db/queries/subtitle-versions";
import { runBatchResults } from "../db/raw-batch";
import type { ShardDB } from "../db/shards";
import { compareTracks, type TrackComparison } from "../domain/subtitles/compare";
import { decodeSnapshot, encodeSnapshot, snapshotHash, type SnapshotCue } from "../domain/subtitles/snapshot";
import { timingKey, type TimingChange } from "../domain/subtitles/timing";
import { mediaTypeOf, writeTrack, type TrackExtension } from "../domain/subtitles/write-file";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import type { Deps } from "./deps";
import { readShard, writeShard, visibleVideoPlacement } from "./shards";
import type { TrackFile } from "./subtitle-tracks";

/**
 * Versions of a track (docs/decisions.md, "Subtitle versions"): every change of a video's subtitles in one language is
 * recorded after it commits, from what its shard then holds, as one row on the container's shard and one immutable R2 object
 * named by the content hash, so identical content is stored once however many versions carry it.
 */
export interface Track {
  videoId: number;
  language: string;
}

type VersionAuthor = Pick<NewVersion, "cause" | "authorId" | "applicationId" | "restoredFrom">;

/** Where a version's cues live in R2: named by content, so a restore to known content writes no new object. */
export const snapshotKey = (t: Track, hash: string) => `subtitle-versions/${t.videoId}/${t.language}/${hash}.json`;
/** Every snapshot of a video's tracks, for the cleanup when the video goes. */
export const videoSnapshotPrefix = (videoId: number) => `subtitle-versions/${videoId}/`;

/**
 * Where a track's writer writes (docs/decisions.md, "Subtitles on the shards"): its container's shard, the shard whose
 * range its ids come from, and the statements each of its write batches starts with (the video's and container's
 * facts where the shard has none, so the shard's triggers flag and count in the same statement).
 */
export interface TrackShard {
  env: Env;
  db: ShardDB;
  shard: number;
  containerId: number;
  facts: SQL[];
}

/** The shard a writer of this video's subtitles writes to (503 while its container is not yet copied; a move's fence refuses the write itself). */
export function trackShard(
  deps: Pick<Deps, "env" | "shards">,
  found: { video: VideoRow; container: ContainerRow },
  placement: Placement,
): TrackShard {
  const { db, shard } = writeShard(deps, placement);
  return { env: deps.env, db, shard, containerId: found.container.id, facts: ensureFactsStatements(found.video, found.container) };
}

/** The track as its shard holds it now: the cues a download would write, in time order. */
export async function currentCues(db: ShardDB, t: Track): Promise<SnapshotCue[]> {
  const rows = await subtitleCuesQuery(db, t.videoId, t.language).all();
  return rows.map((r) => [r.startMs, r.endMs, r.text]);
}

const fromRaw = (r: Record<string, unknown>): VersionRow => ({
  id: r.id as number,
  containerId: r.container_id as number,
  videoId: r.video_id as number,
  language: r.language as string,
  number: r.number as number,
  authorId: r.author_id as number | null,
  applicationId: r.application_id as number | null,
  cause: r.cause as VersionRow["cause"],
  cues: r.cues as number,
  completion: r.completion as number,
  hash: r.hash as string,
  bytes: r.bytes as number,
  restoredFrom: r.restored_from as number | null,
  createdAt: new Date((r.created_at as number) * 1000),
});

/**
 * Records the track's current content as its next version, unless its last version already has that content (null
 * then). The snapshot is in R2 before the row commits, so a version row always has its cues; an object whose row never
 * commits is named by its content and is reused or pruned. The row costs one batch (the id's counter, the insert)
 * whatever the track's size.
 */
export async function recordVersion(
  { db, env, shard, containerId }: Omit<TrackShard, "facts">,
  t: Track,
  by: VersionAuthor,
): Promise<VersionRow | null> {
  const [cues, [latest]] = await Promise.all([currentCues(db, t), latestVersionQuery(db, t.videoId, t.language)]);
  const hash = await snapshotHash(cues);
  if (latest?.hash === hash) return null;
  const body = encodeSnapshot(cues);
  const bytes = new TextEncoder().encode(body);
  await env.SUBTITLES.put(snapshotKey(t, hash), bytes, { httpMetadata: { contentType: "application/json" } });
  const [, result] = await runBatchResults(
    db,
    insertVersionStatements(db, shard, { ...t, ...by, containerId, cues: cues.length, hash, bytes: bytes.length }),
  );
  const row = (result.results as Array<Record<string, unknown>>)[0];
  return row ? fromRaw(row) : null;
}

/**
 * Before the first change of a track kept from before versions existed: its content becomes version 1 (cause
 * `import`, no author), so the change can be compared with it and undone.
 */
export async function ensureBaseline(store: Omit<TrackShard, "facts">, t: Track) {
  const [latest] = await latestVersionQuery(store.db, t.videoId, t.language);
  if (latest) return;
  const cues = await currentCues(store.db, t);
  if (cues.length) await recordVersion(store, t, { cause: "import", authorId: null, applicationId: null });
}

/**
 * A page of the track's versions, newest first, with their total: the video's visibility and placement in one
 * catalogue batch, then the page and the count in one batch on its shard.
 */
export async function versionPage(deps: Deps, user: User | undefined, t: Track, p: Paging) {
  const { placement } = await visibleVideoPlacement(deps, user, t.videoId);
  const shard = readShard(deps, placement);
  const [rows, [count]] = await shard.batch([
    versionPageQuery(shard, t.videoId, t.language, p.offset, p.limit),
    countVersionsQuery(shard, t.videoId, t.language),
  ]);
  return { rows, count: Number(count?.n ?? 0) };
}

/** Versions of the track by number, for a caller who may see the video; an unknown number is a 404 naming it. */
async function versionsOf(deps: Deps, user: User | undefined, t: Track, numbers: number[]) {
  const { video, container, placement } = await visibleVideoPlacement(deps, user, t.videoId);
  const rows = await versionsByNumberQuery(readShard(deps, placement), t.videoId, t.language, numbers).all();
  return {
    found: { video, container },
    versions: numbers.map((n) => {
      const row = rows.find((r) => r.number === n);
      if (!row) throw ApiError.notFound(`no version ${n} of the ${t.language} subtitles`);
      return row;
    }),
  };
}

/** A version's cues, from its R2 snapshot. */
export async function versionCues({ env }: Pick<Deps, "env">, version: VersionRow): Promise<SnapshotCue[]> {
  const object = await env.SUBTITLES.get(snapshotKey(version, version.hash));
  // The row commits only after its object is stored, and pruning deletes the row first: a missing object is a bug.
  if (!object) throw new Error(`snapshot of version ${version.number} of ${version.videoId}/${version.language} is missing`);
  return decodeSnapshot(await object.text());
}

/** One version as a file in a track format: the same writers as the track, and an ETag that never changes. */
export async function versionFile(
  deps: Deps,
  user: User | undefined,
  t: Track,
  number: number,
  ext: TrackExtension,
  timing: TimingChange = {},
): Promise<TrackFile> {
  const {
    versions: [version],
  } = await versionsOf(deps, user, t, [number]);
  const change = timingKey(timing);
  return {
    etag: `"${version.hash}.${ext}${change ? `.${change}` : ""}"`,
    mediaType: mediaTypeOf(ext),
    body: async () => {
      const cues = (await versionCues(deps, version)).map(([startMs, endMs, text]) => ({ startMs, endMs, text }));
      return writeTrack(cues, ext, { language: t.language, timing }).body;
    },
    cached: false,
  };
}

/** Two versions of the track compared cue by cue (`from` is version `n`, `to` version `m`). */
export async function compareVersions(
  deps: Deps,
  user: User | undefined,
  t: Track,
  n: number,
  m: number,
): Promise<{ from: VersionRow; to: VersionRow; comparison: TrackComparison }> {
  const {
    versions: [from, to],
  } = await versionsOf(deps, user, t, [n, m]);
  const [a, b] = await Promise.all([versionCues(deps, from), versionCues(deps, to)]);
  return { from, to, comparison: compareTracks(a, b) };
}

/** A version of the track by number, for writers that have already checked access; an unknown number is a 404. */
export async function versionRow(db: ShardDB, t: Track, number: number) {
  const [row] = await versionsByNumberQuery(db, t.videoId, t.language, [number]);
  if (!row) throw ApiError.notFound(`no version ${number} of the ${t.language} subtitles`);
  return row;
}

/** The track's last version, if it has one. */
export async function latestVersion(db: ShardDB, t: Track) {
  const [row] = await latestVersionQuery(db, t.videoId, t.language);
  return row;
}
