import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { TRACK_EXTENSIONS, type TrackExtension } from "../../domain/subtitles/write-file";
import type { CheckRule } from "../../domain/subtitles/checks";
import type { TimingChange } from "../../domain/subtitles/timing";
import { ApiError } from "../../lib/errors";
import { formatId, parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { listEnvelope, paging } from "../../lib/paging";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { trackFindings } from "../../services/subtitle-checks";
import { trackFile, trackList, type TrackFile } from "../../services/subtitle-tracks";
import { SUBTITLE_LANGUAGE_RE } from "../../services/subtitles";
import type { AppEnv } from "../../types";
import { idParam } from "./contracts/catalogue";
import { FindingList, FindingListQuery } from "./contracts/subtitle-checks";
import { SubtitleFileParams, TimingQuery, TrackFileContent, TrackList, timingChange } from "./contracts/subtitles";
import { TrackParams } from "./contracts/subtitle-versions";

/**
 * Answers a track file: 304 when `If-None-Match` holds its ETag (the file is then not even written), else the file.
 * The `.srt` route of the interface and the versions answer through here too, so all keep one set of caching rules.
 */
export async function answerTrackFile(c: Context<AppEnv>, file: TrackFile, filename: string) {
  const headers = {
    etag: file.etag,
    "cache-control": "private, no-cache",
    "content-disposition": `inline; filename="${filename}"`,
  };
  const inm = c.req.header("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim() === file.etag || t.trim() === "*")) return c.body(null, 304, headers);
  return c.body(await file.body(), 200, { ...headers, "content-type": `${file.mediaType}; charset=utf-8` });
}

/**
 * The `<name>.<ext>` a subtitle file route was asked for, from the last path segment as sent: `en.json` reaches a
 * route as `en` (the router strips .json), so only the path says which. Not decoded: a language code, a version number
 * and an extension are plain ASCII, and a malformed escape must be a 400, not a thrown URIError. `ext` must be one of
 * `allowed`, else a 400 naming `file` (with `message` when given).
 */
export function requestedFile<E extends TrackExtension>(
  c: Context<AppEnv>,
  file: string,
  allowed: readonly E[],
  name = "<language>",
  message?: string,
): { name: string; ext: E } {
  const sent = new URL(c.req.url).pathname.split("/").pop() ?? "";
  const dot = sent.lastIndexOf(".");
  const ext = (dot < 0 ? "" : sent.slice(dot + 1)) as E;
  if (!allowed.includes(ext) || (ext !== "json" && !file.endsWith(`.${ext}`))) {
    throw ApiError.field("file", message ?? `request ${name}.<ext> with ext one of ${allowed.join(", ")}`);
  }
  return { name: sent.slice(0, dot), ext };
}

/** The current track of a language as a file. */
export async function sendTrackFile(c: Context<AppEnv>, videoWireId: string, language: string, ext: TrackExtension, timing: TimingChange) {
  if (!SUBTITLE_LANGUAGE_RE.test(language)) throw ApiError.field("language", "a lowercase language code such as en or pt-br");
  const videoId = parseId(videoWireId, "v");
  const file = await trackFile(depsOf(c), c.get("user"), videoId, language, ext, timing);
  if (!file) throw ApiError.notFound(`no subtitles in ${language}`);
  return answerTrackFile(c, file, `${videoWireId}.${language}.${ext}`);
}

const EXTENSIONS = TRACK_EXTENSIONS.join(", ");

const trackDownload = withProperties(
  createRoute({
    method: "get",
    path: "/{video_id}/subtitle_tracks/{file}",
    summary: "A video's subtitles in one language, in any format (official applications)",
    description:
      `\`file\` is \`<language>.<ext>\` with \`ext\` one of ${EXTENSIONS}: SubRip, WebVTT, SBV, SSA/ASS, TTML, or JSON ` +
      "`{language, cues: [{start_ms, end_ms, text}]}`. Built from the stored segments (in time order) and their non-empty " +
      "texts, styling carried as far as the format can; a language without text is a 404. `offset_ms`, `fps_from` and " +
      "`fps_to` change the timing (cues that end before zero are left out). Cached in KV until the subtitles change; " +
      "`ETag` with 304 on `If-None-Match`, `Cache-Control: private, no-cache`, as the `.srt` route.",
    request: { params: SubtitleFileParams, query: TimingQuery },
    responses: {
      200: {
        description: "the file",
        content: TrackFileContent,
      },
      304: { description: "not modified" },
      ...errorResponses(400, 403, 404),
    },
  }),
  { ownExtension: true, security: ["officialApp"], cache: "user" },
);

const trackIndex = withProperties(
  createRoute({
    method: "get",
    path: "/{video_id}/subtitle_tracks",
    summary: "The languages of a video's subtitles, with cue counts and completion (official applications)",
    description: "Every language with at least one cue with text, by language code, with the URL of the track in each format.",
    request: { params: idParam("video_id", "1v") },
    responses: { 200: jsonResponse(TrackList, "the video's subtitle tracks"), ...errorResponses(400, 403, 404) },
  }),
  { security: ["officialApp"], cache: "user" },
);

const trackChecks = withProperties(
  createRoute({
    method: "get",
    path: "/{video_id}/subtitle_tracks/{language}/checks",
    summary: "Every quality-check finding of a track, paged (official applications)",
    description:
      "Each cue of the language that breaks a quality check of its language, once per rule, by cue start then rule: " +
      '`{rule, start_ms, end_ms, text, value, limit}` (docs/api.md, "Quality checks"). `rule` keeps one rule\'s. Stored ' +
      "when each cue was written; one shard statement whatever the page. Visibility as the track's files.",
    request: { params: TrackParams, query: FindingListQuery },
    responses: { 200: jsonResponse(FindingList, "the v4 list envelope of findings"), ...errorResponses(400, 403, 404) },
  }),
  { security: ["officialApp"], cache: "user" },
);

export const subtitleTracksRouter = routeGroup({ tag: "subtitle_tracks" })
  .openapi(trackChecks, async (c) => {
    const { video_id, language } = c.req.valid("param");
    if (!SUBTITLE_LANGUAGE_RE.test(language)) throw ApiError.field("language", "a lowercase language code such as en or pt-br");
    const t = { videoId: parseId(video_id, "v"), language };
    const query = c.req.valid("query");
    const p = paging(query);
    const { findings, total } = await trackFindings(depsOf(c), c.get("user"), t, query.rule as CheckRule | undefined, p);
    const body = await listEnvelope(
      c.req.url,
      p,
      findings,
      (f) => f,
      (f) => `${f.start_ms}:${f.rule}`,
      async () => total,
    );
    return c.json(body, 200);
  })
  .openapi(trackIndex, async (c) => {
    const wireId = c.req.valid("param").video_id;
    const tracks = await trackList(depsOf(c), c.get("user"), parseId(wireId, "v"));
    const base = `${new URL(c.req.url).origin}/v4/videos/${formatId(parseId(wireId, "v"), "v")}/subtitle_tracks`;
    return c.json(
      {
        video_id: formatId(parseId(wireId, "v"), "v"),
        tracks: tracks.map((t) => ({
          ...t,
          formats: Object.fromEntries(TRACK_EXTENSIONS.map((ext) => [ext, `${base}/${t.language}.${ext}`])),
        })),
      },
      200,
    );
  })
  .openapi(trackDownload, async (c) => {
    const { video_id, file } = c.req.valid("param");
    const { name, ext } = requestedFile(c, file, TRACK_EXTENSIONS);
    return sendTrackFile(c, video_id, name, ext, timingChange(c.req.valid("query")));
  });
