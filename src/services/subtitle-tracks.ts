import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { videoCompletionsQuery } from "../db/queries/completions";
import { type Placement, videoPlacementQuery } from "../db/queries/shards";
import { trackChecksQuery } from "../db/queries/subtitle-checks";
import { countSubtitlesByLanguage, subtitleCuesQuery } from "../db/queries/subtitles";
import { batchWith } from "../db/rider";
import type { CueInput } from "../domain/subtitles/cue";
import { snapshotHash } from "../domain/subtitles/snapshot";
import { timingKey, type TimingChange } from "../domain/subtitles/timing";
import { mediaTypeOf, writeTrack, type TrackExtension } from "../domain/subtitles/write-file";
import type { User } from "../types";
import { caller, requireVisibleVideo } from "./access";
import { viewer, type Deps } from "./deps";
import { readShard } from "./shards";

/**
 * A video's subtitles in one language (a track) are read from its container's shard once and kept in KV as their cues
 * with a content hash, until a writer of that track drops them (invalidateSubtitleTrack); every format is written from
 * them on request, and the ETag is the hash with the format and timing change, so a 304 is answered without writing
 * the file. A read is one catalogue batch (the video, its visibility, its placement) then the shard
 * (docs/decisions.md, "Subtitles on the shards"); a track KV holds reads no shard.
 */
export const trackCacheKey = (videoId: number, language: string) => `subtitles:track:${videoId}:${language}:v2`;
/** Kept at most this long, so a missed invalidation heals. */
const TRACK_CACHE_TTL_SECONDS = 3600;

interface CachedTrack {
  hash: string;
  /** [start ms, end ms, text] in time order */
  cues: Array<[number, number, string]>;
}

/** Every writer of a video's subtitles in a language calls this after its write commits. */
export async function invalidateSubtitleTrack(kv: KVNamespace, videoId: number, language: string) {
  await kv.delete(trackCacheKey(videoId, language));
}

export interface TrackFile {
  etag: string;
  mediaType: string;
  /** Written only when asked for: a 304 needs the ETag alone. */
  body(): string | Promise<string>;
  cached: boolean;
}

/**
 * A track as a file in one format with the timing change applied, for a caller who may see the video (else 404); null
 * when the track has no text. When KV holds the cues, one catalogue read (the video's visibility); else the video and
 * its placement in one catalogue batch, then the cues from its shard.
 */
export async function trackFile(
  deps: Deps,
  user: User | undefined,
  videoId: number,
  language: string,
  ext: TrackExtension,
  timing: TimingChange = {},
): Promise<TrackFile | null> {
  const { db, env, session } = deps;
  const key = trackCacheKey(videoId, language);
  const hit = await env.CACHE.get<CachedTrack>(key, "json");
  const [video, placed] = hit
    ? [(await batchWith(db, session, [videoWithContainerQuery(db, videoId)]))[0], []]
    : await batchWith(db, session, [videoWithContainerQuery(db, videoId), videoPlacementQuery(db, videoId)]);
  await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(video));
  const track = hit ?? (await cacheTrack(env, key, await cuesOf(deps, placed[0], videoId, language)));
  return track && fileOf(track, language, ext, timing, !!hit);
}

/** A track's cues from its container's shard (none when the video has no placement: a fault the 404 covers). */
async function cuesOf(deps: Deps, placement: Placement | undefined, videoId: number, language: string) {
  return placement ? subtitleCuesQuery(readShard(deps, placement), videoId, language).all() : [];
}

/** The cues read from the shard as the cached track (kept in KV), or null when there are none. */
async function cacheTrack(env: Env, key: string, rows: Array<{ startMs: number; endMs: number; text: string }>) {
  if (!rows.length) return null;
  const cues = rows.map((r) => [r.startMs, r.endMs, r.text] as [number, number, string]);
  const track: CachedTrack = { hash: await snapshotHash(cues), cues };
  await env.CACHE.put(key, JSON.stringify(track), { expirationTtl: TRACK_CACHE_TTL_SECONDS });
  return track;
}

function fileOf(track: CachedTrack, language: string, ext: TrackExtension, timing: TimingChange, cached: boolean): TrackFile {
  const cues: CueInput[] = track.cues.map(([startMs, endMs, text]) => ({ startMs, endMs, text }));
  const change = timingKey(timing);
  return {
    etag: `"${track.hash}.${ext}${change ? `.${change}` : ""}"`,
    mediaType: mediaTypeOf(ext),
    body: () => writeTrack(cues, ext, { language, timing }).body,
    cached,
  };
}

/**
 * A track as a file for a caller a playback grant authorises (the viewer subtitles of docs/api.md, "Playback
 * streams"): the grant was issued for a visible, licensed video, so nothing of the video is read but where its
 * subtitles are. The same KV track cache and writers as `trackFile`: a hit reads no D1, a miss the video's placement
 * (one catalogue statement), then the cues from its shard.
 */
export async function grantedTrackFile(deps: Deps, videoId: number, language: string, ext: TrackExtension) {
  const { db, env } = deps;
  const key = trackCacheKey(videoId, language);
  const hit = await env.CACHE.get<CachedTrack>(key, "json");
  if (hit) return fileOf(hit, language, ext, {}, true);
  const [placement] = await videoPlacementQuery(db, videoId).all();
  const track = await cacheTrack(env, key, await cuesOf(deps, placement, videoId, language));
  return track && fileOf(track, language, ext, {}, false);
}

/**
 * The languages of a video's subtitles, for a caller who may see it: cues with text and completion percent per language,
 * by language, with the percent of checked cues that pass the quality checks (`checks_passing`, from the per-track counts
 * the shard's triggers keep: docs/decisions.md, "Quality checks"). One catalogue batch (the video, its placement, its
 * completions), then one shard batch: an index range of subtitles_video_language (an entry per subtitle of the video)
 * and one of track_checks (a row per language).
 */
export async function trackList(deps: Deps, user: User | undefined, videoId: number) {
  const { db } = deps;
  const [video, placed, percents] = await batchWith(db, deps.session, [
    videoWithContainerQuery(db, videoId),
    videoPlacementQuery(db, videoId),
    videoCompletionsQuery(db, videoId),
  ]);
  await requireVisibleVideo(caller(db, await viewer(deps, user)), videoWithContainer(video));
  const shard = placed[0] && readShard(deps, placed[0]);
  const [counts, checks] = shard
    ? await shard.batch([countSubtitlesByLanguage(shard, videoId), trackChecksQuery(shard, videoId)])
    : [[], []];
  const completion = new Map(percents.map((p) => [p.language, p.percent]));
  const passing = new Map(checks.map((k) => [k.language, k.checked > 0 ? Math.floor((k.passing * 100) / k.checked) : null]));
  return counts.map((c) => ({
    language: c.language,
    cues: Number(c.cues),
    completion: completion.get(c.language) ?? 0,
    checks_passing: passing.get(c.language) ?? null,
  }));
}
