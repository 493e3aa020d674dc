import { videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import {
  type NewPlaybackStream,
  deleteStream,
  findStream,
  insertStream,
  manifestUsersQuery,
  platformLicenceQuery,
  replaceStreamQuery,
  videoStreamsQuery,
  videoUsesManifest,
} from "../db/queries/playback-streams";
import { batchWith } from "../db/rider";
import type { PlaybackStreamRow } from "../db/schema";
import type { PLATFORMS } from "../db/schema";
import { REFUSAL_TEXT, licenceDecision, licensedOf } from "../domain/licence";
import { MANIFEST_EXTENSION, MANIFEST_MEDIA_TYPE, type ManifestExtension, manifestKey } from "../domain/playback";
import { sha256Hex } from "../lib/encoding";
import { ApiError, VCODE } from "../lib/errors";
import { GRANT_REFUSAL_TEXT, type GrantPresented, issueGrant, verifyGrant } from "../lib/playback-grant";
import type { PlaybackStreamInput } from "../routes/v4/contracts/playback-streams";
import type { Application, User } from "../types";
import { caller, requireVisibleVideo } from "./access";
import { manageableVideo } from "./catalogue";
import { type Deps, viewer } from "./deps";

/**
 * A video's playback streams (docs/api.md, "Playback streams"): staff and the container's managers register, replace
 * and remove them; the answer checks the licence (src/domain/licence.ts) and issues a playback grant
 * (src/lib/playback-grant.ts), which alone opens the kept manifests and the viewer subtitles.
 */

const NOT_MANAGER = "only staff and the container's managers may change a video's playback streams";
const noSuchStream = () => ApiError.notFound("no such playback stream of this video");

/** The row a body describes, and the manifest to keep (its R2 key and bytes) when the body carries one. */
async function rowOf(user: User, body: PlaybackStreamInput) {
  const kept = body.manifest === undefined ? null : { key: "", bytes: new TextEncoder().encode(body.manifest) };
  if (kept) kept.key = manifestKey(await sha256Hex(body.manifest!), MANIFEST_EXTENSION[body.kind]);
  const row: Omit<NewPlaybackStream, "videoId"> = {
    kind: body.kind,
    manifestUrl: body.manifest_url ?? null,
    manifestKey: kept?.key ?? null,
    resolutions: body.resolutions,
    audioLanguages: body.audio_languages,
    drm: body.drm,
    createdBy: user.id,
  };
  return { row, kept };
}

/**
 * Puts a kept manifest in R2 after its row is written. Row first: a concurrent removal of the last stream using the
 * same bytes either sees this row (and keeps the object) or deleted the object before this put (`dropIfUnused`).
 */
async function keep(env: Env, kept: { key: string; bytes: Uint8Array }) {
  const ext = kept.key.slice(kept.key.lastIndexOf(".") + 1) as ManifestExtension;
  await env.SUBTITLES.put(kept.key, kept.bytes, { httpMetadata: { contentType: MANIFEST_MEDIA_TYPE[ext] } });
}

/**
 * Deletes a kept manifest no stream uses any more. A stream registered with the same bytes meanwhile wrote its row
 * before its put, so counting again after the delete finds it: the object is put back, and whichever put comes last
 * leaves the same bytes.
 */
async function dropIfUnused({ db, env }: Deps, key: string) {
  const users = async () => (await manifestUsersQuery(db, key).all())[0]?.n ?? 0;
  if ((await users()) > 0) return;
  const object = await env.SUBTITLES.get(key);
  const bytes = object ? await object.arrayBuffer() : null;
  await env.SUBTITLES.delete(key);
  if (bytes && (await users()) > 0) await env.SUBTITLES.put(key, bytes, { httpMetadata: object!.httpMetadata });
}

export async function registerStream(deps: Deps, user: User, videoId: number, body: PlaybackStreamInput): Promise<PlaybackStreamRow> {
  await manageableVideo(deps, user, videoId, NOT_MANAGER);
  const { row, kept } = await rowOf(user, body);
  const stream = await insertStream(deps.db, { ...row, videoId });
  if (kept) {
    try {
      await keep(deps.env, kept);
    } catch (err) {
      // A row must not name an object that was never stored.
      await deleteStream(deps.db, videoId, stream.id);
      throw err;
    }
  }
  return stream;
}

/** Replaces every field of a stream (its id, creator and creation time stay); a kept manifest it no longer uses may go. */
export async function replaceStream(deps: Deps, user: User, videoId: number, streamId: number, body: PlaybackStreamInput) {
  await manageableVideo(deps, user, videoId, NOT_MANAGER);
  const before = await findStream(deps.db, videoId, streamId);
  if (!before) throw noSuchStream();
  const { row, kept } = await rowOf(user, body);
  // Who registered it stays, as its creation time does.
  const [after] = await replaceStreamQuery(deps.db, videoId, streamId, { ...row, videoId, createdBy: before.createdBy }).all();
  if (!after) throw noSuchStream();
  if (kept) await keep(deps.env, kept);
  if (before.manifestKey && before.manifestKey !== after.manifestKey) await dropIfUnused(deps, before.manifestKey);
  return after;
}

export async function removeStream(deps: Deps, user: User, videoId: number, streamId: number) {
  await manageableVideo(deps, user, videoId, NOT_MANAGER);
  const stream = await findStream(deps.db, videoId, streamId);
  if (!stream || !(await deleteStream(deps.db, videoId, streamId)).length) throw noSuchStream();
  if (stream.manifestKey) await dropIfUnused(deps, stream.manifestKey);
}

/** Who asks for a video's streams: the signed application, the user (or a session check riding along), the request. */
interface PlaybackCaller {
  user?: User;
  application: Application;
  /** The session token sent, when it has a session token's shape: the viewer the grant is bound to. */
  viewerToken?: string;
  region?: string;
  /** The platform the request names (`platform=`): licences are then asked for it. */
  platform?: (typeof PLATFORMS)[number];
}

/**
 * A video's streams for one caller, with a fresh grant: one D1 round trip (the video with its container, and the
 * streams; the session check rides along). Hidden or missing: 404 as the video read; refused by the licence: 403
 * with the `blocking` flags and the reason; no streams: 404.
 */
export async function playbackStreams(deps: Deps, who: PlaybackCaller, videoId: number) {
  const secret = deps.env.V3_TOKEN_SECRET;
  if (!secret) throw ApiError.unavailable("this server has no key to sign playback grants with (V3_TOKEN_SECRET)");
  const { db } = deps;
  const platform = who.platform && platformLicenceQuery(db, videoId, who.platform, who.region);
  const [found, streams, platformRows] = await batchWith(db, deps.session, [
    videoWithContainerQuery(db, videoId),
    videoStreamsQuery(db, videoId),
    ...(platform ? [platform] : []),
  ]);
  const { container } = await requireVisibleVideo(caller(db, await viewer(deps, who.user)), videoWithContainer(found));
  const platformLicensed = platformRows ? Boolean((platformRows as Array<{ licensed: number }>)[0]?.licensed) : undefined;
  const decision = licenceDecision({ ...licensedOf(container), platformLicensed }, { region: who.region, application: who.application });
  if (decision.refusal) {
    throw new ApiError(VCODE.forbidden, REFUSAL_TEXT[decision.refusal], {
      extra: { reason: decision.refusal, blocking: decision.blocking },
    });
  }
  if (!streams.length) throw ApiError.notFound("this video has no playback streams");
  const grant = await issueGrant(secret, { videoId, applicationId: who.application.id, viewerToken: who.viewerToken, region: who.region });
  return { streams, grant };
}

/** A grant as presented, or a 403 naming why it is refused (`reason`: src/lib/playback-grant.ts). Reads no D1. */
export async function requireGrant(env: Env, grant: string, presented: GrantPresented) {
  const check = await verifyGrant(env.V3_TOKEN_SECRET, grant, presented);
  if (check.ok) return check.claims;
  const message = GRANT_REFUSAL_TEXT[check.reason];
  throw new ApiError(VCODE.forbidden, `stream_id refused: ${message}`, {
    details: [{ field: "stream_id", message }],
    extra: { reason: check.reason },
  });
}

/**
 * A kept manifest of `videoId` (`head`: without its body), or null: never stored, no stream uses it any more, or no
 * stream of *this* video uses it. Objects are named by their bytes alone and shared across videos, and every streams
 * answer shows the hashes it links, so the grant's video must be checked to use the hash: otherwise any grant would
 * open any video's manifest, one geo-blocked, hidden or deleted included (docs/decisions.md, "Playback grants").
 */
export async function keptManifest(
  { db, env }: Pick<Deps, "db" | "env">,
  videoId: number,
  sha256: string,
  ext: ManifestExtension,
  read: "get" | "head" = "get",
): Promise<R2Object | R2ObjectBody | null> {
  const key = manifestKey(sha256, ext);
  if (!(await videoUsesManifest(db, videoId, key))) return null;
  return read === "head" ? env.SUBTITLES.head(key) : env.SUBTITLES.get(key);
}
