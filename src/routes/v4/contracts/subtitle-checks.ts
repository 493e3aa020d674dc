import { z } from "@hono/zod-openapi";
import { CUE_RULES } from "../../../domain/subtitles/checks";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";

/** A finding of the quality checks (docs/api.md, "Quality checks"). */
export const FindingSchema = z
  .object({
    rule: z.enum(CUE_RULES as [string, ...string[]]),
    start_ms: z.number().int(),
    end_ms: z.number().int(),
    text: z.string(),
    value: z.number().openapi({ description: "what the rule measured on the cue, in the rule's unit" }),
    limit: z.number().openapi({ description: "the limit of the track's language the value passed" }),
  })
  .openapi("SubtitleFinding", {
    example: { rule: "fast_reading", start_ms: 1000, end_ms: 2000, text: "A line read far too fast", value: 24, limit: 20 },
  });

/** The findings of one cue, in an edit's answer. */
export const CueFindingSchema = z
  .object({ rule: z.enum(CUE_RULES as [string, ...string[]]), value: z.number(), limit: z.number() })
  .openapi("SubtitleCueFinding");

export const FindingList = listEnvelopeSchema(FindingSchema, "SubtitleFindingList");
export const FindingListQuery = z.object({
  ...pagingQuery,
  rule: z
    .enum(CUE_RULES as [string, ...string[]])
    .optional()
    .openapi({ description: `only this rule's findings: one of ${CUE_RULES.join(", ")}` }),
});
