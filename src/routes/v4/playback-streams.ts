import { createRoute } from "@hono/zod-openapi";
import { parseId } from "../../lib/ids";
import { GRANT_TTL_SECONDS } from "../../lib/playback-grant";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext, viewerRegion } from "../../lib/view-context";
import { viewerToken } from "../../middleware/session";
import { depsOf } from "../../services/deps";
import { playbackStreams, registerStream, removeStream, replaceStream } from "../../services/playback-streams";
import { streamView, streamsAnswerView } from "../../views/playback-stream";
import { idParam } from "./contracts/catalogue";
import {
  PlaybackStreamBody,
  PlaybackStreamSchema,
  PlaybackStreamsAnswer,
  PlaybackStreamsQuery,
  refusedResponse,
} from "./contracts/playback-streams";

/** A manifest of 256 KiB may grow in JSON (escaped quotes and line ends): room for that, and a clear 400 beyond it. */
const STREAM_BODY_LIMIT = 512 * 1024;

const WHO =
  "Official applications (signed), with the token of staff or of a manager of the video's container (no token 401/4500, " +
  "anyone else 403/5403; a hidden video is 404 to them).";
const BODY =
  "Body: `kind` (`dash`, `hls`), exactly one of `manifest_url` (an absolute `https:` URL; another scheme is 400 naming " +
  "it) and `manifest` (the text, at most 256 KiB, kept by the service and checked to look like its kind: an `<MPD>` " +
  "root for DASH, `#EXTM3U` first for HLS), `resolutions` (heights), `audio_languages`, `drm` (null, `widevine`, " +
  "`playready`, `fairplay`).";

const TAGS = ["playback_streams"];
const streamParams = idParam("video_id", "1v").extend(idParam("playback_stream_id", "3ps").shape);

const register = withProperties(
  createRoute({
    tags: TAGS,
    method: "post",
    path: "/{video_id}/playback_streams",
    summary: "Register a playback stream of a video (staff and the container's managers)",
    description: `${WHO} ${BODY} Answers 201 with the stream.`,
    request: { params: idParam("video_id", "1v"), body: jsonBody(PlaybackStreamBody) },
    responses: { 201: jsonResponse(PlaybackStreamSchema, "the new stream"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["officialApp", "user"], writeLimit: "catalogue", bodyLimit: STREAM_BODY_LIMIT },
);

const replace = withProperties(
  createRoute({
    tags: TAGS,
    method: "put",
    path: "/{video_id}/playback_streams/{playback_stream_id}",
    summary: "Replace a playback stream (staff and the container's managers)",
    description: `${WHO} ${BODY} Every field is replaced; a kept manifest no stream uses any more is deleted.`,
    request: { params: streamParams, body: jsonBody(PlaybackStreamBody) },
    responses: { 200: jsonResponse(PlaybackStreamSchema, "the stream as replaced"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["officialApp", "user"], writeLimit: "catalogue", bodyLimit: STREAM_BODY_LIMIT },
);

const remove = withProperties(
  createRoute({
    tags: TAGS,
    method: "delete",
    path: "/{video_id}/playback_streams/{playback_stream_id}",
    summary: "Remove a playback stream (staff and the container's managers)",
    description: `${WHO} A kept manifest no stream uses any more is deleted.`,
    request: { params: streamParams },
    responses: { 204: { description: "removed" }, ...errorResponses(401, 403, 404) },
  }),
  { security: ["officialApp", "user"], writeLimit: "catalogue" },
);

/** Under `/v4/videos`. */
export const playbackStreamWritesRouter = routeGroup({ tag: "playback_streams" })
  .openapi(register, async (c) => {
    const videoId = parseId(c.req.valid("param").video_id, "v");
    const stream = await registerStream(depsOf(c), c.get("user")!, videoId, c.req.valid("json"));
    return c.json(streamView(stream), 201);
  })
  .openapi(replace, async (c) => {
    const { video_id, playback_stream_id } = c.req.valid("param");
    const videoId = parseId(video_id, "v");
    const stream = await replaceStream(depsOf(c), c.get("user")!, videoId, parseId(playback_stream_id, "ps"), c.req.valid("json"));
    return c.json(streamView(stream), 200);
  })
  .openapi(remove, async (c) => {
    const { video_id, playback_stream_id } = c.req.valid("param");
    await removeStream(depsOf(c), c.get("user")!, parseId(video_id, "v"), parseId(playback_stream_id, "ps"));
    return c.body(null, 204);
  });

const ANSWER =
  "Official applications, signed (yt-dlp signs with the `timestamp` and `signature` headers; an unknown application is " +
  "401 naming `app`). The video's streams, DASH before HLS, then by id, each with its manifest `url` (a kept manifest's " +
  "serving URL carries `?stream_id=<grant>`) and the grant in `properties.track.stream_id`, as yt-dlp reads it. The " +
  `grant (\`stream_id\`, valid ${GRANT_TTL_SECONDS / 3600} hours) is bound to the video, the application, the session ` +
  "token sent (or none) and the request's country, and opens the kept manifests and `auth_subtitles`. A hidden or " +
  "missing video is 404 as the video read; a video the licence refuses here (upcoming, another region's licence, " +
  "unlicensed, adult to a family-friendly application) is 403 with `reason` and `blocking` (`geo`, `paywall`, " +
  "`upcoming`, as the video object shows them); a video without streams is 404. One D1 round trip besides the " +
  "application's check.";

/**
 * The streams answer at `path`: `/{video_id}/playback_streams` under `/v4/videos` (documented), `/{video_id}` under
 * `/v5/playback_streams` (yt-dlp's path). The same route mounted twice (docs/decisions.md, "Route layout").
 */
export function playbackAnswerRouter(path: "/{video_id}/playback_streams" | "/{video_id}") {
  const route = withProperties(
    createRoute({
      tags: TAGS,
      method: "get",
      path,
      summary:
        path === "/{video_id}"
          ? "A video's playback streams and a playback grant (yt-dlp's path; the same as /v4/videos/<id>/playback_streams.json)"
          : "A video's playback streams and a playback grant (official applications)",
      description: ANSWER,
      request: { params: idParam("video_id", "1v"), query: PlaybackStreamsQuery },
      responses: {
        200: jsonResponse(PlaybackStreamsAnswer, "the streams and the grant"),
        ...errorResponses(400, 401, 404, 503),
        ...refusedResponse("not an official application (vcode 5403), or refused by the licence: `reason` and `blocking`"),
      },
    }),
    { security: ["officialApp"], cache: "user", sessionInBatch: true },
  );
  return routeGroup({ tag: "playback_streams" }).openapi(route, async (c) => {
    const videoId = parseId(c.req.valid("param").video_id, "v");
    const caller = {
      user: c.get("user"),
      application: c.get("application")!,
      viewerToken: viewerToken(c),
      region: viewerRegion(c.req.raw),
      platform: c.req.valid("query").platform,
    };
    const { streams, grant } = await playbackStreams(depsOf(c), caller, videoId);
    return c.json(streamsAnswerView(streams, grant, viewContext(c).origin), 200);
  });
}
