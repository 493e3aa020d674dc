import { z } from "@hono/zod-openapi";
import { CHECK_RULES } from "../../../domain/subtitles/checks";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";

/** A glossary finding's term (docs/api.md, "Quality checks"). */
const FindingTermSchema = z
  .object({
    id: z.string().openapi({ description: "the term's id in the series' glossary" }),
    term: z.string().openapi({ description: "the term as the glossary writes it, in its own language" }),
    expected: z.string().nullable().openapi({
      description: "missing_translation: the translation the cue lacks; do_not_translate_changed: the term as written; else null",
    }),
  })
  .openapi("SubtitleFindingTerm");

const measured = {
  value: z.number().nullable().openapi({ description: "what the rule measured on the cue, in the rule's unit; null for a glossary rule" }),
  limit: z.number().nullable().openapi({ description: "the limit of the track's language the value passed; null for a glossary rule" }),
  terms: FindingTermSchema.array()
    .optional()
    .openapi({ description: "a glossary rule's only: the series' terms that broke it on this cue" }),
};

/** A finding of the quality checks (docs/api.md, "Quality checks"). */
export const FindingSchema = z
  .object({
    rule: z.enum(CHECK_RULES as [string, ...string[]]),
    start_ms: z.number().int(),
    end_ms: z.number().int(),
    text: z.string(),
    ...measured,
  })
  .openapi("SubtitleFinding", {
    example: { rule: "fast_reading", start_ms: 1000, end_ms: 2000, text: "A line read far too fast", value: 24, limit: 20 },
  });

/** The findings of one cue, in an edit's answer. */
export const CueFindingSchema = z.object({ rule: z.enum(CHECK_RULES as [string, ...string[]]), ...measured }).openapi("SubtitleCueFinding");

export const FindingList = listEnvelopeSchema(FindingSchema, "SubtitleFindingList");
export const FindingListQuery = z.object({
  ...pagingQuery,
  rule: z
    .enum(CHECK_RULES as [string, ...string[]])
    .optional()
    .openapi({ description: `only this rule's findings: one of ${CHECK_RULES.join(", ")}` }),
});
