import { z } from "@hono/zod-openapi";
import { SUBTITLE_LIMITS } from "../../../domain/subtitles/cue";
import { SUPPORTED_ENCODINGS, normalizeEncodingLabel } from "../../../domain/subtitles/decode";
import { SUBTITLE_FORMATS, UPLOAD_MEDIA_TYPES } from "../../../domain/subtitles/formats";
import { FPS_RANGE, MAX_OFFSET_MS, type TimingChange } from "../../../domain/subtitles/timing";
import { ApiError } from "../../../lib/errors";
import { MAX_COMPLETION_VIDEO_IDS } from "../../../services/completions";
import { START_TOLERANCE_MS, SUBTITLE_LANGUAGE_RE } from "../../../services/subtitles";

const Language = z
  .string()
  .regex(SUBTITLE_LANGUAGE_RE, "a lowercase language code such as en or pt-br")
  .openapi({ description: "language of the subtitles: `xx` or `xx-yy`, lowercase", example: "fr" });

/** The raw content types a file may be sent as (besides the JSON form), from the registry; the content decides the format. */
export const RAW_SUBTITLE_TYPES = UPLOAD_MEDIA_TYPES;

const LIMIT_TEXT = `${SUBTITLE_LIMITS.bytes / (1024 * 1024)} MiB`;

const Format = z.enum(SUBTITLE_FORMATS).openapi({ description: "read the file as this format instead of detecting it" });
/** The encodings `encoding=` names, without their aliases (docs/api.md lists both). */
const ENCODING_NAMES = [...new Set(SUPPORTED_ENCODINGS.map((label) => normalizeEncodingLabel(label)))].join(", ");
const Encoding = z
  .string()
  .max(40)
  .transform((label, ctx) => {
    const name = normalizeEncodingLabel(label);
    if (!name) ctx.addIssue({ code: "custom", message: `not a supported encoding: one of ${ENCODING_NAMES}` });
    return name ?? label;
  })
  .openapi({ description: "decode a file that is not UTF-8 with this encoding (`windows-1251`) instead of choosing one" });

/**
 * `offset_ms`, `fps_from`, `fps_to`: on import and on download (docs/api.md, "Subtitle files"). Their examples are in
 * the descriptions: "Try it out" in /docs sends an `example` unasked, and a first try should get the file as kept.
 */
const timingFields = {
  offset_ms: z.coerce.number().int("a whole number of milliseconds").min(-MAX_OFFSET_MS).max(MAX_OFFSET_MS).optional().openapi({
    description: `shift every cue by this many milliseconds (\`-1500\`: earlier; at most a day either way)`,
    type: "integer",
  }),
  fps_from: z.coerce.number().min(FPS_RANGE.min).max(FPS_RANGE.max).optional().openapi({
    description: "the frame rate the file was timed for (`25`; with fps_to: times × fps_from / fps_to)",
    type: "number",
  }),
  fps_to: z.coerce
    .number()
    .min(FPS_RANGE.min)
    .max(FPS_RANGE.max)
    .optional()
    .openapi({ description: "the frame rate of the video (`23.976`; with fps_from)", type: "number" }),
};

/** The timing change of validated input; fps_from and fps_to come together or not at all (400 naming the missing one). */
export function timingChange(input: { offset_ms?: number; fps_from?: number; fps_to?: number }): TimingChange {
  if ((input.fps_from === undefined) !== (input.fps_to === undefined)) {
    throw ApiError.field(input.fps_from === undefined ? "fps_from" : "fps_to", "send fps_from and fps_to together");
  }
  return { offsetMs: input.offset_ms, fpsFrom: input.fps_from, fpsTo: input.fps_to };
}

export const SubtitleImportJson = z
  .object({
    language: Language,
    content: z
      .string()
      .min(1, "the file is empty")
      .openapi({
        description: `the file's text, in any format read (SubRip, WebVTT, SBV, SSA/ASS, TTML); the whole request is at most ${LIMIT_TEXT}`,
        example: "1\n00:00:01,000 --> 00:00:02,500\nBonjour\n",
      }),
    format: Format.optional(),
    ...timingFields,
  })
  .openapi("SubtitleImport");

export const SubtitleImportQuery = z.object({
  language: Language.optional().openapi({ description: "required with a raw body: the language of the file (also the encoding hint)" }),
  format: Format.optional(),
  encoding: Encoding.optional(),
  ...timingFields,
});

export const SUBTITLE_IMPORT_DESCRIPTION =
  `Official applications, with the token of staff or of a manager of the video's container. Send the file as ` +
  `JSON \`{language, content}\` or as the raw bytes (\`${RAW_SUBTITLE_TYPES.join("`, `")}\`) with \`?language=\`. ` +
  `Formats: SubRip, WebVTT, SBV, SSA/ASS and TTML, detected from the content (\`format=\` names one). Encodings: a byte ` +
  `order mark decides, else UTF-8, else \`encoding=\`, else the legacy encoding of the import's language checked by a ` +
  `statistical detector. Timing: \`offset_ms\`, \`fps_from\` with \`fps_to\`. At most ${LIMIT_TEXT} (413 above), ` +
  `${SUBTITLE_LIMITS.cues} cues, ${SUBTITLE_LIMITS.cueChars} characters per cue (also once cues of one start are joined) ` +
  `and ${SUBTITLE_LIMITS.lineChars} per line, and ${SUBTITLE_LIMITS.trackChars} characters in the track the import leaves. ` +
  `The upload is kept in R2 until the job ends and an \`srt-import\` job is queued (202). A video with no segments gets ` +
  `one segment per distinct cue start; otherwise each cue goes to the nearest segment starting within ` +
  `±${START_TOLERANCE_MS} ms and cues without one are counted as \`unmatched\` and not written. Job result: the write ` +
  "counts `{cues, created, updated, unchanged, unmatched, segments_created, rows_written, mode}`, what was read " +
  "`{format, format_source, encoding: {name, source, reason}, notes}`, the quality report `quality`, `completion_job` " +
  "and `duration_ms`; a cue whose timing line does not read is skipped as players skip it and listed in " +
  "`quality.skipped` (`{count, blocks: [{cue, line, reason}]}`); a file no player can read fails the job with an error " +
  "naming the cue number and line.";

/** `<language>.srt` of the SubRip route, `<language>.<ext>` of the track route. */
export const SubtitleFileParams = z.object({
  video_id: z.string().openapi({ param: { name: "video_id", in: "path" }, example: "1v" }),
  file: z.string().openapi({ param: { name: "file", in: "path" }, description: "`<language>.<extension>`", example: "en.srt" }),
});

export const TimingQuery = z.object(timingFields);

export const TrackList = z
  .object({
    video_id: z.string(),
    tracks: z.array(
      z.object({
        language: z.string(),
        cues: z.number().int().openapi({ description: "cues with text" }),
        completion: z.number().int().openapi({ description: "percent of the video's segments with text in the language" }),
        checks_passing: z.number().int().nullable().openapi({
          description:
            "percent (rounded down) of the track's checked cues that pass every quality check of its language; null when none is checked",
        }),
        formats: z.record(z.string(), z.string()).openapi({ description: "the track's URL in each format" }),
      }),
    ),
  })
  .openapi("SubtitleTracks", {
    example: {
      video_id: "1v",
      tracks: [
        {
          language: "en",
          cues: 118,
          completion: 98,
          checks_passing: 91,
          formats: { srt: "https://api.example.com/v4/videos/1v/subtitle_tracks/en.srt" },
        },
      ],
    },
  });

const TrackJson = z
  .object({
    language: z.string(),
    cues: z.array(z.object({ start_ms: z.number().int(), end_ms: z.number().int(), text: z.string() })),
  })
  .openapi("SubtitleTrack", { example: { language: "en", cues: [{ start_ms: 1000, end_ms: 2500, text: "<i>Hello</i>" }] } });

/** A track file in each format it is written in (the track and its versions). */
export const TrackFileContent = {
  "application/x-subrip": { schema: { type: "string" as const } },
  "text/vtt": { schema: { type: "string" as const } },
  "text/plain": { schema: { type: "string" as const } },
  "text/x-ssa": { schema: { type: "string" as const } },
  "application/ttml+xml": { schema: { type: "string" as const } },
  "application/json": { schema: TrackJson },
};

const Percents = z
  .record(z.string(), z.number().int())
  .openapi({ description: "completion percent by language", example: { en: 90, fr: 12 } });

export const CompletionsBody = z
  .object({
    video_ids: z
      .array(z.string().max(32))
      .min(1)
      .max(MAX_COMPLETION_VIDEO_IDS)
      .optional()
      .openapi({ description: `at most ${MAX_COMPLETION_VIDEO_IDS} video ids`, example: ["1v", "2v"] }),
    container_id: z.string().max(32).optional().openapi({ description: "a container id", example: "50c" }),
  })

  .openapi("SubtitleCompletionsRequest", { description: "exactly one of `video_ids` and `container_id`" });

export const CompletionsResponse = z.record(z.string(), Percents).openapi("SubtitleCompletions", {
  description:
    "completions by video id (missing, malformed and hidden videos are left out); for a container, its normal-state " +
    "videos plus `container`",
  example: { "1v": { en: 90, fr: 12 }, container: { en: 85 } },
});
