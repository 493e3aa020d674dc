import { z } from "@hono/zod-openapi";
import { cursorEnvelopeField, cursorField } from "../../../lib/cursor";
import { tryParseId } from "../../../lib/ids";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { LanguageFilter } from "./catalogue-writes";
import { LanguageCountSchema, SegmentTimingSchema, UserRefSchema, WireId } from "./localisation";

const MAX_REPORT_REASON = 500;

type Problem = (field: string, message: string) => void;

/**
 * `from`/`to` and the names the v4 Ruby gem sends, `origin_language`/`target_language`: the same parameters.
 * Both names of one pair with different values are refused, naming the second name.
 */
export const languagePairQuery = (fromText: string, toText: string) => ({
  from: LanguageFilter.optional().openapi({ description: fromText }),
  origin_language: LanguageFilter.optional().openapi({ description: "another name of `from`" }),
  to: LanguageFilter.optional().openapi({ description: toText }),
  target_language: LanguageFilter.optional().openapi({ description: "another name of `to`" }),
});

type PairQuery = { from?: string; origin_language?: string; to?: string; target_language?: string };

/** The pair as one `from` and one `to`, whichever names carried them. */
export const languagePair = (q: PairQuery) => ({ from: q.from ?? q.origin_language, to: q.to ?? q.target_language });

/** Problems of a pair: a name given twice with different values, or `from` equal to `to` (named as given). */
export function checkLanguagePair(q: PairQuery, problem: Problem) {
  if (q.from && q.origin_language && q.from !== q.origin_language)
    problem("origin_language", `differs from from=${q.from}; give one of them`);
  if (q.to && q.target_language && q.to !== q.target_language) problem("target_language", `differs from to=${q.to}; give one of them`);
  const { from, to } = languagePair(q);
  if (from && to && from === to) problem(q.to ? "to" : "target_language", "the target language must differ from the origin language");
}

export const TranslationsQuery = z
  .object({
    ...pagingQuery,
    cursor: cursorField,
    ...languagePairQuery(
      "origin language: only videos whose origin language this is (needs `to`, `video_id` or `container_id`)",
      "target language: only translations into this language",
    ),
    video_id: WireId().optional().openapi({ description: "only this video's translations (`1v`)" }),
    container_id: WireId().optional().openapi({ description: "only translations of this container's videos (`50c`); needs `to`" }),
  })
  .superRefine((q, ctx) => {
    const problem = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
    const { from, to } = languagePair(q);
    if (q.video_id !== undefined && tryParseId(q.video_id, "v") === null) problem("video_id", "a video id such as 1v");
    if (q.container_id !== undefined && tryParseId(q.container_id, "c") === null) problem("container_id", "a container id such as 50c");
    if (q.video_id !== undefined && q.container_id !== undefined) problem("container_id", "give video_id or container_id, not both");
    else if (q.container_id !== undefined && !to) problem("to", "a container's translations are listed by target language: add to=");
    // `from` alone would test every translation of the catalogue against it: it narrows a walk, it is not one.
    else if (q.video_id === undefined && q.container_id === undefined && from && !to) {
      problem("to", "from= narrows to=, video_id= or container_id=; give one of them (or no filter at all)");
    }
    checkLanguagePair(q, problem);
  });

const TranslationSchema = z
  .object({
    id: z.string().openapi({ example: "9s" }),
    segment: SegmentTimingSchema,
    video_id: z.string().openapi({ example: "1v" }),
    language: z.string().openapi({ example: "es" }),
    text: z.string(),
    original: z
      .object({ id: z.string(), language: z.string(), text: z.string() })
      .nullable()
      .openapi({ description: "the subtitle of the same segment in the video's origin language, if any" }),
    likes: z.number().int(),
    dislikes: z.number().int(),
    author: UserRefSchema.nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .openapi("Translation");

export const TranslationsEnvelope = listEnvelopeSchema(TranslationSchema, "TranslationList", cursorEnvelopeField);

/** docs/spec/wire.md, "Request bodies": like, dislike and report take an optional `{origin_subtitle_id, reason}`. */
export const VoteBody = z
  .object({
    origin_subtitle_id: WireId("8s").optional().openapi({ description: "accepted for older clients; ignored" }),
    reason: z.string().max(MAX_REPORT_REASON).optional().openapi({ description: "accepted for older clients; ignored" }),
  })
  .openapi("TranslationVoteRequest");

export const ReportBody = z
  .object({
    origin_subtitle_id: WireId("8s").optional().openapi({ description: "accepted for older clients; the path names the subtitle" }),
    reason: z
      .string()
      .trim()
      .max(MAX_REPORT_REASON)
      .optional()
      .openapi({ description: `why it is wrong, at most ${MAX_REPORT_REASON} characters` }),
  })
  .openapi("SubtitleReportRequest");

export const VoteSchema = z
  .object({
    id: z.string().openapi({ example: "9s" }),
    likes: z.number().int(),
    dislikes: z.number().int(),
    vote: z.union([z.literal(1), z.literal(-1)]).openapi({ description: "the caller's vote now: 1 like, -1 dislike" }),
  })
  .openapi("TranslationVote");

export const LanguageCountsSchema = z.array(LanguageCountSchema).openapi("LanguageCounts");

export const subtitleParam = (name: string, example: string) =>
  z.object({ subtitle_id: z.string().openapi({ param: { name: "subtitle_id", in: "path" }, example, description: name }) });
