import { createRoute, z } from "@hono/zod-openapi";
import { MANIFEST_MEDIA_TYPE, parseManifestFile } from "../../domain/playback";
import { ApiError } from "../../lib/errors";
import { ifNoneMatchHits } from "../../lib/etag";
import { parseId, tryParseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses } from "../../lib/schemas";
import { viewerRegion } from "../../lib/view-context";
import { viewerToken } from "../../middleware/session";
import { depsOf } from "../../services/deps";
import { keptManifest, requireGrant } from "../../services/playback-streams";
import { grantedTrackFile } from "../../services/subtitle-tracks";
import { SUBTITLE_LANGUAGE_RE } from "../../services/subtitles";
import { AuthSubtitlesQuery, ManifestParams, ManifestQuery, refusedResponse } from "./contracts/playback-streams";
import { SubtitleFileParams } from "./contracts/subtitles";
import { answerTrackFile, requestedFile } from "./subtitle-tracks";

/**
 * What a playback grant opens (docs/decisions.md, "Playback grants"): the manifests the service keeps and the viewer's
 * subtitles, for whoever holds the `stream_id` of a playback streams answer. The grant is the only credential: no
 * signature, and neither `app=` nor `token=` is looked up (`grantOnly`), so checking it reads no D1; a manifest is
 * then served only when a stream of the grant's video uses it.
 */

const REFUSALS =
  "A refused grant is 403 with `reason` (`bad`: malformed or altered, `expired`, `video`, `application`, `viewer`, " +
  "`region`) and `details` naming `stream_id`; a missing one 400 naming it.";

const manifest = withProperties(
  createRoute({
    tags: ["playback_streams"],
    method: "get",
    path: "/{video_id}/playback_manifests/{file}",
    summary: "A manifest the service keeps, for a playback grant's holder",
    description:
      "`file` is `<sha256>.mpd` (`application/dash+xml`) or `<sha256>.m3u8` (`application/vnd.apple.mpegurl`), as the " +
      "playback streams answer links it, with `?stream_id=<grant>`. The grant must be for this video and this request's " +
      `country, and unexpired; the URL names no application or viewer, so those are not checked here. ${REFUSALS} ` +
      "Only a manifest a stream of this video uses is served (one indexed D1 read); any other hash, and every " +
      "manifest of a deleted video, is 404. " +
      "`ETag` is the manifest's hash, with 304 on `If-None-Match`; `Cache-Control: private, no-cache`.",
    request: { params: ManifestParams, query: ManifestQuery },
    responses: {
      200: {
        description: "the manifest",
        content: {
          "application/dash+xml": { schema: z.string() },
          "application/vnd.apple.mpegurl": { schema: z.string() },
        },
      },
      304: { description: "not modified" },
      ...errorResponses(400, 404),
      ...refusedResponse("the grant is refused: `reason` says why, `details` names `stream_id`"),
    },
  }),
  { ownExtension: true, cache: "user", grantOnly: true },
);

const authSubtitles = withProperties(
  createRoute({
    tags: ["subtitles"],
    method: "get",
    path: "/{video_id}/auth_subtitles/{file}",
    summary: "A video's subtitles in one language for a playback grant's holder (yt-dlp's `auth_subtitles`)",
    description:
      "`file` is `<language>.srt` or `<language>.vtt`; the query carries `app`, `token` (`None` or none when anonymous) " +
      "and `stream_id`, as the playback streams answer was asked with, appended unencoded (yt-dlp builds these URLs). " +
      `No signature: the grant must be for this video, application, session token and country, and unexpired. ${REFUSALS} ` +
      "Written from the stored cues by the writers of `subtitle_tracks`, through the same KV track cache (one hour, " +
      "dropped by every writer of the track): a cached track reads no D1, else one statement. A language without text " +
      "is 404. `ETag` with 304 on `If-None-Match`, `Cache-Control: private, no-cache`.",
    request: { params: SubtitleFileParams, query: AuthSubtitlesQuery },
    responses: {
      200: {
        description: "the file",
        content: { "application/x-subrip": { schema: z.string() }, "text/vtt": { schema: z.string() } },
      },
      304: { description: "not modified" },
      ...errorResponses(400, 404),
      ...refusedResponse("the grant is refused: `reason` says why, `details` names `stream_id`"),
    },
  }),
  { ownExtension: true, cache: "user", grantOnly: true },
);

/** Under `/v4/videos`. */
export const playbackGrantsRouter = routeGroup()
  .openapi(manifest, async (c) => {
    const { video_id, file } = c.req.valid("param");
    const videoId = parseId(video_id, "v");
    const named = parseManifestFile(file);
    if (!named) throw ApiError.notFound("no such manifest: <sha256>.mpd or <sha256>.m3u8");
    await requireGrant(c.env, c.req.valid("query").stream_id, { videoId, region: viewerRegion(c.req.raw) });
    // Named by its bytes, so the hash is a strong validator: a 304 needs only to know the object is there.
    const headers = { etag: `"${named.sha256}"`, "cache-control": "private, no-cache" };
    const unchanged = ifNoneMatchHits(c.req.header("if-none-match"), headers.etag);
    const object = await keptManifest(depsOf(c), videoId, named.sha256, named.ext, unchanged ? "head" : "get");
    if (!object) throw ApiError.notFound("no such manifest (no stream uses it any more)");
    if (unchanged || !("body" in object)) return c.body(null, 304, headers);
    return c.body(object.body, 200, { ...headers, "content-type": MANIFEST_MEDIA_TYPE[named.ext] });
  })
  .openapi(authSubtitles, async (c) => {
    const { video_id, file } = c.req.valid("param");
    const videoId = parseId(video_id, "v");
    const { name: language, ext } = requestedFile(c, file, ["srt", "vtt"], "<language>", "request <language>.srt or <language>.vtt");
    if (!SUBTITLE_LANGUAGE_RE.test(language)) throw ApiError.field("language", "a lowercase language code such as en or pt-br");
    const query = c.req.valid("query");
    await requireGrant(c.env, query.stream_id, {
      videoId,
      region: viewerRegion(c.req.raw),
      caller: { applicationId: tryParseId(query.app, "a"), viewerToken: viewerToken(c) },
    });
    const track = await grantedTrackFile(depsOf(c), videoId, language, ext);
    if (!track) throw ApiError.notFound(`no subtitles in ${language}`);
    return answerTrackFile(c, track, `${video_id}.${language}.${ext}`);
  });
