import { z } from "@hono/zod-openapi";
import { TEXT_MAX_CHARS } from "../../../domain/translation-memory";
import { wireIdString } from "../../../lib/schemas";
import { SUBTITLE_LANGUAGE_RE } from "../../../services/subtitles";
import { TM_MAX_TEXTS } from "../../../services/translation-memory";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Control characters other than the tab and the line breaks a subtitle line may hold. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

/**
 * What a text must be: 1 to TEXT_MAX_CHARS code points once trimmed (counted in code units first, so a huge string
 * is refused before it is walked), valid Unicode, no control character but tab and line breaks. `empty` says whether
 * an empty text is allowed (a context's missing neighbour).
 */
const textOf = (what: string, empty: boolean) =>
  z.string().superRefine((raw, ctx) => {
    const text = raw.trim();
    const problem =
      !text && !empty
        ? "must not be empty"
        : text.length > TEXT_MAX_CHARS * 2 || [...text].length > TEXT_MAX_CHARS
          ? `must be at most ${TEXT_MAX_CHARS} characters`
          : LONE_SURROGATE.test(text)
            ? "must be valid Unicode (it has a lone surrogate)"
            : CONTROL.test(text)
              ? "must not contain control characters (tab and line breaks are allowed)"
              : undefined;
    if (problem) ctx.addIssue({ code: "custom", message: `${what} ${problem}` });
  });

const Language = (description: string, example: string) =>
  z.string().regex(SUBTITLE_LANGUAGE_RE, "a lowercase language code such as en or pt-br").openapi({ description, example });

const ContextEntry = z
  .object({
    previous: textOf("previous", true).optional().openapi({ description: "the text before it (absent or empty: none)" }),
    next: textOf("next", true).optional().openapi({ description: "the text after it (absent or empty: none)" }),
  })
  .strict();

export const LookupBody = z
  .object({
    source_language: Language("the language of `texts`", "ko"),
    target_language: Language("the language of the translations wanted", "en"),
    texts: z
      .array(textOf("a text", false))
      .min(1, "send at least one text")
      .max(TM_MAX_TEXTS, `at most ${TM_MAX_TEXTS} texts`)
      .openapi({
        description: `1 to ${TM_MAX_TEXTS} texts to find translations of, each 1 to ${TEXT_MAX_CHARS} characters once trimmed`,
        example: ["지난 이야기", "사랑해요"],
      }),
    container_id: wireIdString("c", "container id", "12c")
      .optional()
      .openapi({ description: "the series asked first: its units rank before the catalogue's at equal `match`" }),
    context: z
      .array(ContextEntry)
      .optional()
      .openapi({ description: "one per text, in the order of `texts`: what comes before and after it, for matches of 101" }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.source_language === body.target_language) {
      ctx.addIssue({ code: "custom", path: ["target_language"], message: "must differ from source_language" });
    }
    if (body.context !== undefined && body.context.length !== body.texts.length) {
      ctx.addIssue({ code: "custom", path: ["context"], message: `one entry per text: ${body.texts.length}, not ${body.context.length}` });
    }
  })
  .openapi("TranslationMemoryLookup", {
    example: {
      source_language: "ko",
      target_language: "en",
      texts: ["지난 이야기", "사랑해요"],
      container_id: "1c",
      context: [{ next: "사랑해요" }, { previous: "지난 이야기" }],
    },
  });

const MatchSchema = z.object({
  source: z.string().openapi({ description: "the unit's text in the source language" }),
  target: z.string().openapi({ description: "the same segment's text in the target language" }),
  match: z.number().int().min(75).max(101).openapi({ description: "similarity in percent: 100 the same text, 101 in the same context" }),
  context_match: z.boolean().openapi({ description: "the unit's neighbouring source texts equal the context's" }),
  origin: z.object({
    video_id: z.string().openapi({ example: "12v" }),
    container_id: z.string().openapi({ example: "3c" }),
    start_ms: z.number().int(),
  }),
  author_id: z.string().nullable().openapi({ description: "who wrote the translation", example: "3u" }),
  updated_at: z.string().openapi({ description: "when the translation last changed", example: "2026-12-08T10:00:00Z" }),
  scope: z.enum(["series", "catalogue"]),
});

export const LookupResult = z
  .object({
    results: z.array(z.object({ matches: z.array(MatchSchema) })).openapi({
      description: "one per text, in the order of `texts`: at most 5 matches each, best first",
    }),
    incomplete: z.boolean().openapi({ description: "a shard did not answer in time: its units are missing" }),
  })
  .openapi("TranslationMemoryResult");
