import { z } from "@hono/zod-openapi";
import { VERSION_CAUSES } from "../../../db/schema";
import { SUBTITLE_LIMITS } from "../../../domain/subtitles/cue";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { CueFindingSchema } from "./subtitle-checks";

const pathParam = (name: string, example: string, description?: string) =>
  z.string().openapi({ param: { name, in: "path", description }, example });

const videoId = pathParam("video_id", "1v");
const language = pathParam("language", "en", "the track's language code (`en`, `pt-br`)");
const number = pathParam("number", "3", "a version number of the track");

export const TrackParams = z.object({ video_id: videoId, language });
export const VersionFileParams = z.object({
  video_id: videoId,
  language,
  file: pathParam("file", "3.srt", "`<number>.<extension>`, with the extensions of the track files"),
});
export const VersionParams = z.object({ video_id: videoId, language, number });
export const CompareParams = z.object({
  video_id: videoId,
  language,
  number,
  other: pathParam("other", "5", "the version to compare with"),
});
export const SuggestionParams = z.object({ suggestion_id: pathParam("suggestion_id", "12", "a caption suggestion id") });
export const CueParams = z.object({
  video_id: videoId,
  language,
  start_ms: pathParam("start_ms", "1000", "the start of the cue's segment, in ms"),
});

const Urls = z.record(z.string(), z.string()).openapi({ description: "the version as a file in each format" });

export const VersionSchema = z
  .object({
    number: z.number().int().openapi({ example: 3 }),
    author: z.string().nullable().openapi({ description: "user id of who made the change (null: not known)", example: "12u" }),
    app: z.string().nullable().openapi({ description: "the official application that signed the change", example: "100a" }),
    cause: z.enum(VERSION_CAUSES),
    created_at: z.string(),
    cues: z.number().int().openapi({ description: "cues with text" }),
    completion: z.number().int().openapi({ description: "percent of the video's segments with text in the language, after the change" }),
    hash: z.string().openapi({ description: "content hash; the track's ETag starts with it while this version is current" }),
    restored_from: z.number().int().nullable().openapi({ description: "for a restore: the version it brought back" }),
    formats: Urls,
  })
  .openapi("SubtitleVersion");

export const VersionList = listEnvelopeSchema(VersionSchema, "SubtitleVersionList");
export const VersionListQuery = z.object(pagingQuery);

const CueRef = z.object({ start_ms: z.number().int(), end_ms: z.number().int(), text: z.string() });
const TextEdit = z.object({ op: z.enum(["equal", "insert", "delete"]), text: z.string() });

export const CompareQuery = z.object(pagingQuery);
export const ComparisonSchema = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    counts: z.object({
      added: z.number().int(),
      removed: z.number().int(),
      retimed: z.number().int(),
      changed: z.number().int(),
      unchanged: z.number().int(),
    }),
    added: z.array(CueRef),
    removed: z.array(CueRef),
    retimed: z.array(z.object({ from: CueRef, to: CueRef })),
    changed: z.array(z.object({ from: CueRef, to: CueRef, edits: z.array(TextEdit) })),
    more: z.boolean().openapi({ description: "whether a later page holds more of any of the four lists" }),
    pagination: z.object({ next: z.string().nullable(), previous: z.string().nullable() }),
  })
  .openapi("SubtitleComparison");

export const RestoreCreated = z.object({ version: VersionSchema, changed: z.boolean() }).openapi("SubtitleRestore");

export const CueEditBody = z
  .object({
    text: z
      .string()
      .trim()
      .min(1, "a cue needs text; delete the language to remove all")
      .max(SUBTITLE_LIMITS.cueChars)
      .openapi({
        description:
          `the cue's text in the stored form (SubRip tags), at most ${SUBTITLE_LIMITS.cueChars} characters and ` +
          `${SUBTITLE_LIMITS.lineChars} a line; the track it makes at most ${SUBTITLE_LIMITS.trackChars} characters`,
      }),
  })
  .openapi("SubtitleCueEdit");

export const CueEdited = z
  .object({
    changed: z.boolean(),
    version: VersionSchema.nullable().openapi({ description: "the version the edit made; null when the text was already that" }),
    checks: z.array(CueFindingSchema).openapi({
      description: 'the quality checks the cue breaks now, in rule order (empty: none; docs/api.md, "Quality checks")',
    }),
  })
  .openapi("SubtitleCueEdited");

export const TrackDeleted = z.object({ version: VersionSchema.nullable() }).openapi("SubtitleTrackDeleted");
