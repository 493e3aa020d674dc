import { z } from "@hono/zod-openapi";
import { CONTAINER_TYPES, VIDEO_TYPES } from "../../../db/schema";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { SUBTITLE_COMPLETION_THRESHOLD } from "../../../domain/facets";
import { MAX_LIST_ITEMS } from "../../../services/lists";
import { ContainerSchema, VideoSchema } from "./catalogue";

/** Lowercase language code, optionally with a region or script: `en`, `pt-br`, `zh-hant`. */
const LANGUAGE_RE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/;
const MAX_TITLE_LENGTH = 255;
const MAX_TITLE_LANGUAGES = 50;

export const ListSchema = z
  .object({
    id: z.string().openapi({ example: "1l" }),
    titles: z.record(z.string(), z.string()).openapi({ example: { en: "Featured" } }),
    videos: z
      .array(z.string())
      .openapi({ description: "ids of every item in list order: videos (`40v`) and containers (`12c`)", example: ["1v", "3c"] }),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    url: z.object({ api: z.string() }),
  })
  .openapi("List");

const Title = z.string().trim().min(1).max(MAX_TITLE_LENGTH);

export const ListCreateBody = z
  .object({
    titles: z
      .object({ en: Title })
      .catchall(Title)
      .superRefine((titles, ctx) => {
        const languages = Object.keys(titles);
        if (languages.length > MAX_TITLE_LANGUAGES) ctx.addIssue({ code: "custom", message: `at most ${MAX_TITLE_LANGUAGES} languages` });
        for (const language of languages) {
          if (!LANGUAGE_RE.test(language)) ctx.addIssue({ code: "custom", path: [language], message: "not a lowercase language code" });
        }
      })
      .openapi({ description: "title by language code; `en` is required", example: { en: "Weekend picks", ko: "주말 추천" } }),
  })

  .openapi("ListCreate");

export const ListEditBody = z
  .object({
    videos: z
      .array(z.string().max(32))
      .max(MAX_LIST_ITEMS)
      .openapi({
        description:
          `ids of videos and containers in the new order, at most ${MAX_LIST_ITEMS}. Duplicates are kept once ` +
          "(the first position wins); malformed, missing and non-normal ids are skipped and listed in the job result.",
        example: ["1v", "3c"],
      }),
  })

  .openapi("ListEdit");

const LIST_TYPE_FILTERS = [...CONTAINER_TYPES, ...VIDEO_TYPES] as const;

export const ListItemsQuery = z.object({
  ...pagingQuery,
  type: z
    .enum(LIST_TYPE_FILTERS)
    .optional()
    .openapi({ description: "a container type keeps containers of that type, a video type keeps videos of that type" }),
  genre: z
    .string()
    .regex(/^[1-9][0-9]{0,8}g?$/, "a genre id such as 6g or 6")
    .transform((v) => Number.parseInt(v, 10))
    .optional()
    .openapi({ description: "genre id (`6g` or `6`); a video matches through its container's genres", type: "string" }),
  origin_country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "a two-letter country code")
    .transform((v) => v.toLowerCase())
    .optional()
    .openapi({ description: "two-letter country (`kr`); a video matches through its container's origin" }),
  subtitle_completion: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(LANGUAGE_RE, "a language code"))
    .optional()
    .openapi({
      description: `language code (\`en\`); keeps items whose own completion in it is at least ${SUBTITLE_COMPLETION_THRESHOLD}%`,
      type: "string",
    }),
});

const ListDetailsSchema = z
  .object({
    id: z.string().openapi({ example: "2l" }),
    titles: z.record(z.string(), z.string()).openapi({ example: { en: "On Air" } }),
    source: z.enum(["curated", "on_air", "upcoming"]).openapi({
      description:
        "`curated`: staff set the items (PUT). `on_air` / `upcoming`: the built-in lists 2l and 6l, derived from the " +
        "catalogue: every normal-state public container flagged `on_air` (2l) or `upcoming` (6l); they cannot be edited",
    }),
    editable: z.boolean().openapi({ description: "whether PUT may replace the items (false for derived lists)" }),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable().openapi({ description: "last edit of a curated list; null for derived lists" }),
    url: z.object({ api: z.string() }),
  })
  .openapi("ListDetails");

export const ListItemsEnvelope = listEnvelopeSchema(z.union([ContainerSchema, VideoSchema]), "ListItems", { details: ListDetailsSchema });
