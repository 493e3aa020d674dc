import { z } from "@hono/zod-openapi";
import { SRT_UPLOAD_LIMIT } from "../../../middleware/body-limit";
import { MAX_COMPLETION_VIDEO_IDS } from "../../../services/completions";
import { MAX_CUES, MAX_CUE_TEXT } from "../../../services/srt";
import { START_TOLERANCE_MS, SUBTITLE_LANGUAGE_RE } from "../../../services/subtitles";

const Language = z
  .string()
  .regex(SUBTITLE_LANGUAGE_RE, "a lowercase language code such as en or pt-br")
  .openapi({ description: "language of the subtitles: `xx` or `xx-yy`, lowercase", example: "fr" });

/** The raw content types a file may be sent as (besides the JSON form). */
export const RAW_SRT_TYPES = ["application/x-subrip", "text/plain", "application/octet-stream"] as const;

const LIMIT_TEXT = `${SRT_UPLOAD_LIMIT / (1024 * 1024)} MiB`;

export const SrtImportJson = z
  .object({
    language: Language,
    content: z
      .string()
      .min(1, "the file is empty")
      .openapi({
        description: `the SubRip text; the whole request is at most ${LIMIT_TEXT}`,
        example: "1\n00:00:01,000 --> 00:00:02,500\nBonjour\n",
      }),
  })

  .openapi("SrtImport");

export const SrtImportQuery = z.object({
  language: Language.optional().openapi({ description: "required with a raw body: the language of the file" }),
});

export const SRT_IMPORT_DESCRIPTION =
  `Official applications, with the token of staff or of a manager of the video's container. Send the file as ` +
  `JSON \`{language, content}\` or as the raw bytes (\`${RAW_SRT_TYPES.join("`, `")}\`) with \`?language=\`. ` +
  `At most ${LIMIT_TEXT} (413 above), ${MAX_CUES} cues, ${MAX_CUE_TEXT} characters per cue. Encodings: UTF-8 with or ` +
  `without BOM, UTF-16 LE/BE with BOM; anything else fails the job. The upload is kept in R2 and an \`srt-import\` ` +
  `job is queued (202). A video with no segments gets one segment per cue; otherwise each cue goes to the nearest ` +
  `segment starting within ±${START_TOLERANCE_MS} ms and cues without one are counted as \`unmatched\` and not written. ` +
  "Job result: `{cues, created, updated, unchanged, unmatched, segments_created, rows_written, mode, completion_job, duration_ms}`; " +
  "a broken file fails the job with an error naming the cue number and line.";

export const SrtFileParams = z.object({
  video_id: z.string().openapi({ param: { name: "video_id", in: "path" }, example: "1v" }),
  file: z.string().openapi({ param: { name: "file", in: "path" }, description: "`<language>.srt`", example: "en.srt" }),
});

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
