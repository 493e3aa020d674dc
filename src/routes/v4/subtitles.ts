import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { signingApplicationId } from "../../jobs/enqueue";
import { SUBTITLE_LIMITS } from "../../domain/subtitles/cue";
import { plainlyOverCueLimit } from "../../domain/subtitles/early-count";
import { startSrtImport } from "../../jobs/srt-import";
import { ApiError } from "../../lib/errors";
import { parseId, tryParseId } from "../../lib/ids";
import { alsoAsGet, routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { SRT_UPLOAD_LIMIT } from "../../middleware/body-limit";
import { MAX_COMPLETION_VIDEO_IDS, containerCompletions, videoCompletions } from "../../services/completions";
import { depsOf } from "../../services/deps";
import { manageableTrack } from "../../services/subtitle-edits";
import type { AppEnv } from "../../types";
import { jobView } from "../../views/job";
import { idParam } from "./contracts/catalogue";
import {
  CompletionsBody,
  CompletionsResponse,
  RAW_SUBTITLE_TYPES,
  SUBTITLE_IMPORT_DESCRIPTION,
  SubtitleFileParams,
  SubtitleImportJson,
  SubtitleImportQuery,
  TimingQuery,
  timingChange,
} from "./contracts/subtitles";
import { requestedFile, sendTrackFile } from "./subtitle-tracks";
import { JobEnvelope } from "./jobs";

const mediaType = (header: string | undefined) => (header ?? "").split(";")[0].trim().toLowerCase();
const isJson = (header: string | undefined) => mediaType(header) === "application/json";

/** Names the accepted content types instead of the generic 415 (which says JSON only). */
const subtitleContentType = createMiddleware<AppEnv>(async (c, next) => {
  const type = mediaType(c.req.header("content-type"));
  if (type !== "application/json" && !(RAW_SUBTITLE_TYPES as readonly string[]).includes(type)) {
    throw ApiError.field("content-type", `send application/json ({language, content}) or the raw file as ${RAW_SUBTITLE_TYPES.join(", ")}`);
  }
  return next();
});

const rawFile = { schema: z.string().openapi({ format: "binary" }) };

const importSrt = withProperties(
  createRoute({
    method: "post",
    path: "/{video_id}/subtitles/import_srt",
    summary:
      "Import a subtitle file: SubRip, WebVTT, SBV, SSA/ASS or TTML (official applications; staff or the container's managers; a queued job)",
    description: SUBTITLE_IMPORT_DESCRIPTION,
    middleware: [subtitleContentType] as const,
    request: {
      params: idParam("video_id", "1v"),
      query: SubtitleImportQuery,
      body: {
        required: false,
        description: "the file, as JSON or raw bytes",
        content: {
          "application/json": { schema: SubtitleImportJson },
          ...Object.fromEntries(RAW_SUBTITLE_TYPES.map((type) => [type, rawFile])),
        },
      },
    },
    responses: {
      202: jsonResponse(JobEnvelope, "the queued srt-import job"),
      ...errorResponses(400, 401, 403, 404, 413),
    },
  }),
  { security: ["officialApp", "user"], writeLimit: "imports", bodyLimit: SRT_UPLOAD_LIMIT },
);

const download = withProperties(
  createRoute({
    method: "get",
    path: "/{video_id}/subtitles/{file}",
    summary: "A video's subtitles in one language as SubRip (official applications)",
    description:
      "`file` is `<language>.srt`; any other extension is a 400 (only srt is supported here; every format is at " +
      "`/v4/videos/<id>/subtitle_tracks/<language>.<ext>`). Built from the stored segments (in time order) and their " +
      "non-empty texts; a language without text is a 404. `offset_ms`, `fps_from` and `fps_to` change the timing. Cached " +
      "in KV until the subtitles change; `ETag` with 304 on `If-None-Match`, `Cache-Control: private, no-cache`.",
    request: { params: SubtitleFileParams, query: TimingQuery },
    responses: {
      200: { description: "the SubRip file", content: { "application/x-subrip": { schema: z.string() } } },
      304: { description: "not modified" },
      ...errorResponses(400, 403, 404),
    },
  }),
  { ownExtension: true, security: ["officialApp"], cache: "user" },
);

const completions = alsoAsGet(
  withProperties(
    createRoute({
      method: "post",
      path: "/",
      summary: "Subtitle completions of videos or of a container (official applications)",
      description:
        `Body: \`{"video_ids": [...]}\` (at most ${MAX_COMPLETION_VIDEO_IDS}) or \`{"container_id": "50c"}\`, exactly one. ` +
        "Also served as GET with the same fields in the query (`?video_ids=1v,2v` or `?container_id=50c`), as the v4 gem reads it. " +
        "Video completion = floor(100 × segments with text in the language / segments). Container completion = " +
        "floor(100 × Σ segments with text / Σ segments) over its normal-state videos.",
      request: { body: jsonBody(CompletionsBody) },
      responses: { 200: jsonResponse(CompletionsResponse, "completions by id"), ...errorResponses(400, 403, 404, 413) },
    }),
    {
      security: ["officialApp"],
      cache: "none",
      writeLimit: null,
      noWriteLimitBecause: "a read: its filters come in a JSON body, as the interface has it",
    },
  ),
);

/** Under `/v4/videos`. */
export const subtitlesRouter = routeGroup({ tag: "subtitles" })
  .openapi(importSrt, async (c) => {
    const deps = depsOf(c);
    const videoId = parseId(c.req.valid("param").video_id, "v");
    // Where the job will write: refused now (503) while the container's subtitles move or are not yet copied.
    await manageableTrack(deps, c.get("user"), videoId, "only staff and the container's managers may import subtitles");

    const query = c.req.valid("query");
    let language: string | undefined;
    let bytes: Uint8Array;
    let fields: Omit<z.infer<typeof SubtitleImportQuery>, "language" | "encoding">;
    if (isJson(c.req.header("content-type"))) {
      // The text arrived as JSON, so it is Unicode already: `encoding=` has nothing to decode.
      const { language: lang, content, ...rest } = c.req.valid("json");
      language = lang;
      fields = rest;
      bytes = new TextEncoder().encode(content);
      if (!bytes.length) throw ApiError.field("content", "the file is empty");
    } else {
      ({ language, ...fields } = query);
      if (!language) throw ApiError.field("language", "a raw upload needs ?language=<code>");
      bytes = new Uint8Array(await c.req.arrayBuffer());
      if (!bytes.length) throw ApiError.field("body", "the file is empty");
    }
    const options = {
      format: fields.format,
      encoding: isJson(c.req.header("content-type")) ? undefined : query.encoding,
      timing: timingChange(fields),
    };
    // A file that plainly holds more cues than the job may read is refused now, not by a job failing a moment later.
    const over = plainlyOverCueLimit(bytes, options.format);
    if (over)
      throw ApiError.field(
        isJson(c.req.header("content-type")) ? "content" : "body",
        `the file holds ${over.cues} cues; a file may hold at most ${SUBTITLE_LIMITS.cues} (cue ${over.cue}, at line ${over.line}, is the first past it)`,
      );
    const job = await startSrtImport(deps, {
      user: c.get("user")!,
      videoId,
      language,
      bytes,
      applicationId: signingApplicationId(c),
      options,
    });
    return c.json({ job: jobView(job, new URL(c.req.url).origin) }, 202);
  })
  .openapi(download, async (c) => {
    const { video_id, file } = c.req.valid("param");
    const only = "only the srt format is supported here: request <language>.srt, or any format under subtitle_tracks";
    const { name } = requestedFile(c, file, ["srt"], "<language>", only);
    return sendTrackFile(c, video_id, name, "srt", timingChange(c.req.valid("query")));
  });

/** Under `/v4/subtitle_completions`. */
export const subtitleCompletionsRouter = routeGroup({ tag: "subtitles" }).openapi(completions, async (c) => {
  const db = c.get("db");
  const body = c.req.valid("json");
  if ((body.video_ids === undefined) === (body.container_id === undefined)) {
    const message = "send exactly one of video_ids and container_id";
    throw ApiError.invalid([
      { field: "video_ids", message },
      { field: "container_id", message },
    ]);
  }
  if (body.video_ids) {
    const ids = body.video_ids.map((raw) => tryParseId(raw, "v")).filter((id): id is number => id !== null);
    return c.json(await videoCompletions(db, c.get("user"), ids), 200);
  }
  const containerId = tryParseId(body.container_id, "c");
  if (containerId === null) throw ApiError.field("container_id", "not a container id such as 50c");
  return c.json(await containerCompletions(db, c.get("user"), containerId), 200);
});
