import { z } from "@hono/zod-openapi";
import { LanguageCode } from "./catalogue-writes";
import { SegmentTimingSchema, UserRefSchema, WireId } from "./localisation";
import { checkLanguagePair, languagePairQuery } from "./translations";

const MAX_CAPTION_CONTENT = 2000;

export const RandomCaptionQuery = z
  .object(
    languagePairQuery(
      "origin language of the caption; without it, any original (a subtitle in its video's origin language)",
      "target language the caption still lacks; without it, any language (`target_language` in the answer names it)",
    ),
  )
  .superRefine((q, ctx) => checkLanguagePair(q, (field, message) => ctx.addIssue({ code: "custom", path: [field], message })));

export const CaptionSchema = z
  .object({
    id: z.string().openapi({ example: "9s" }),
    language: z.string().openapi({ example: "ko" }),
    text: z.string(),
    segment: SegmentTimingSchema,
    video_id: z.string().openapi({ example: "1v" }),
    container_id: z.string().openapi({ example: "50c" }),
    target_language: z.string().openapi({ example: "en" }),
  })
  .openapi("Caption");

export const CaptionCreateBody = z
  .object({
    origin_subtitle_id: WireId("9s").openapi({ description: "the original subtitle the suggestion translates" }),
    language: LanguageCode.openapi({ description: "language of the suggestion; not the original's" }),
    content: z
      .string()
      .trim()
      .min(1)
      .max(MAX_CAPTION_CONTENT)
      .openapi({ description: `1-${MAX_CAPTION_CONTENT} characters` }),
  })
  .openapi("CaptionSuggestionCreate");

export const CaptionSuggestionSchema = z
  .object({
    id: z.number().int().openapi({ description: "suggestion id (no suffix)" }),
    origin_subtitle_id: z.string().openapi({ example: "9s" }),
    language: z.string(),
    content: z.string(),
    user: UserRefSchema,
    created_at: z.string().nullable(),
  })
  .openapi("CaptionSuggestion");
