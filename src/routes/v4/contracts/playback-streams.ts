import { z } from "@hono/zod-openapi";
import { PLATFORMS } from "../../../db/schema";
import { MANIFEST_LIMIT_BYTES, PLAYBACK_DRMS, PLAYBACK_KINDS, manifestProblem } from "../../../domain/playback";
import { LICENCE_REFUSALS } from "../../../domain/licence";
import { GRANT_REFUSALS, GRANT_TTL_SECONDS } from "../../../lib/playback-grant";
import { ErrorBody } from "../../../lib/schemas";
import { SUBTITLE_LANGUAGE_RE } from "../../../services/subtitles";

const Time = z.string().openapi({ example: "2026-05-01T12:00:00Z" });
const MAX_URL_LENGTH = 2000;

/** Why `raw` is not an absolute `https:` URL a player may fetch, or null. */
function httpsProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not an absolute URL";
  }
  if (url.protocol !== "https:") return `only https: URLs are accepted, not ${url.protocol}`;
  if (url.username || url.password) return "a URL with credentials in it is refused";
  return null;
}

export const PlaybackStreamBody = z
  .object({
    kind: z.enum(PLAYBACK_KINDS).openapi({ description: "`dash` (an MPD) or `hls` (an M3U8 playlist)" }),
    manifest_url: z
      .string()
      .max(MAX_URL_LENGTH, `at most ${MAX_URL_LENGTH} characters`)
      .superRefine((raw, ctx) => {
        const problem = httpsProblem(raw);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .optional()
      .openapi({
        description: "an external manifest: an absolute `https:` URL, answered unchanged",
        example: "https://cdn.example.com/1v/main.mpd",
      }),
    manifest: z
      .string()
      .min(1, "the manifest is empty")
      .superRefine((text, ctx) => {
        const bytes = new TextEncoder().encode(text).length;
        if (bytes > MANIFEST_LIMIT_BYTES)
          ctx.addIssue({ code: "custom", message: `at most ${MANIFEST_LIMIT_BYTES} bytes (this one is ${bytes})` });
      })
      .optional()
      .openapi({
        description:
          `the manifest's text, kept by the service (at most ${MANIFEST_LIMIT_BYTES / 1024} KiB) and served to grant holders; ` +
          "DASH: XML with an `<MPD>` root, HLS: `#EXTM3U` first. Use absolute segment URLs: relative ones resolve under this API.",
      }),
    resolutions: z
      .array(z.number().int("a whole number of pixels").min(1).max(8640))
      .max(16, "at most 16 resolutions")
      .default([])
      .openapi({ description: "the video heights offered", example: [360, 720] }),
    audio_languages: z
      .array(z.string().regex(SUBTITLE_LANGUAGE_RE, "a lowercase language code such as en or pt-br"))
      .max(32, "at most 32 languages")
      .default([])
      .openapi({ example: ["ko"] }),
    drm: z.enum(PLAYBACK_DRMS).nullable().default(null).openapi({ description: "null: no DRM" }),
  })
  .superRefine((body, ctx) => {
    if ((body.manifest_url === undefined) === (body.manifest === undefined)) {
      const message = "send exactly one of manifest_url and manifest";
      ctx.addIssue({ code: "custom", path: ["manifest_url"], message });
      ctx.addIssue({ code: "custom", path: ["manifest"], message });
      return;
    }
    const problem = body.manifest === undefined ? null : manifestProblem(body.kind, body.manifest);
    if (problem) ctx.addIssue({ code: "custom", path: ["manifest"], message: `not a ${body.kind} manifest: ${problem}` });
  })
  .openapi("PlaybackStreamBody");
export type PlaybackStreamInput = z.infer<typeof PlaybackStreamBody>;

export const PlaybackStreamSchema = z
  .object({
    id: z.string().openapi({ example: "3ps" }),
    video_id: z.string().openapi({ example: "1v" }),
    kind: z.enum(PLAYBACK_KINDS),
    manifest_url: z.string().nullable().openapi({ description: "the external manifest; null for a kept one" }),
    manifest_sha256: z.string().nullable().openapi({ description: "the kept manifest's SHA-256 (hex); null for an external one" }),
    resolutions: z.array(z.number().int()),
    audio_languages: z.array(z.string()),
    drm: z.enum(PLAYBACK_DRMS).nullable(),
    created_by: z.string().nullable().openapi({ example: "12u" }),
    created_at: Time.nullable(),
    updated_at: Time.nullable(),
  })
  .openapi("PlaybackStream");

const Grant = z.string().openapi({
  description:
    `the playback grant: a capability for this video, application, viewer and region, valid ${GRANT_TTL_SECONDS / 3600} hours ` +
    "(`[a-z0-9.-]` only, safe to append to a URL unencoded)",
  example: "pg1.1.100000.kr.1767225600.-.0f3c9a1e2b4d5f6a7b8c9d0e1f2a3b4c",
});

export const PlaybackStreamsAnswer = z
  .object({
    main: z.array(
      z.object({
        id: z.string().openapi({ example: "3ps" }),
        kind: z.enum(PLAYBACK_KINDS),
        url: z.string().openapi({
          description: "the manifest: a kept one's serving URL (with `?stream_id=<grant>`), or the external URL unchanged",
        }),
        resolutions: z.array(z.number().int()),
        audio_languages: z.array(z.string()),
        drm: z.enum(PLAYBACK_DRMS).nullable(),
        properties: z.object({ track: z.object({ stream_id: Grant }) }),
      }),
    ),
    stream_id: Grant,
    expires_at: Time,
  })
  .openapi("PlaybackStreams");

/** Sent by yt-dlp; accepted and not used. */
export const PlaybackStreamsQuery = z.object({
  drms: z.string().max(100).optional().openapi({ description: "accepted and ignored (yt-dlp sends `dt3`)" }),
  device_id: z.string().max(100).optional().openapi({ description: "accepted and ignored" }),
  platform: z
    .enum(PLATFORMS)
    .optional()
    .openapi({
      description:
        "the platform the viewer plays on: a container with licences must then have one for it in the viewer's region " +
        '(403 `reason: "platform"` otherwise). Unnamed: a licence for the region on any platform is enough',
    }),
});

const GrantParam = z
  .string()
  .min(1, "the playback grant (stream_id of the playback streams answer) is required")
  .max(500)
  .openapi({ description: "the playback grant of the playback streams answer" });

export const ManifestQuery = z.object({ stream_id: GrantParam });

export const ManifestParams = z.object({
  video_id: z.string().openapi({ param: { name: "video_id", in: "path" }, example: "1v" }),
  file: z.string().openapi({
    param: { name: "file", in: "path" },
    description: "`<sha256>.mpd` or `<sha256>.m3u8`",
    example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.mpd",
  }),
});

export const AuthSubtitlesQuery = z.object({
  stream_id: GrantParam,
  app: z.string().max(100).optional().openapi({ description: "the application the grant was issued to", example: "100000a" }),
  token: z
    .string()
    .max(300)
    .optional()
    .openapi({ description: "the session token the grant was issued with; absent, empty or `None` when anonymous" }),
});

/** A refused playback: the error body with why (`reason`) and, for a licence refusal, the video object's `blocking`. */
const PlaybackRefusal = ErrorBody.extend({
  reason: z
    .enum([...LICENCE_REFUSALS, ...GRANT_REFUSALS])
    .optional()
    .openapi({ description: "the licence's reason (`upcoming`, `geo`, `unlicensed`, `adult`) or the grant's" }),
  blocking: z
    .object({ geo: z.boolean(), paywall: z.boolean(), upcoming: z.boolean() })
    .optional()
    .openapi({ description: "a licence refusal: the flags the video object shows for this request" }),
}).openapi("PlaybackRefusal");

/** The 403 of the playback routes, documented with its `reason`. */
export const refusedResponse = (description: string) => ({
  403: { description, content: { "application/json": { schema: PlaybackRefusal } } },
});
