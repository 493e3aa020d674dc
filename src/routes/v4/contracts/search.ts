import { z } from "@hono/zod-openapi";
import { CONTAINER_TYPES, VIDEO_TYPES } from "../../../db/schema";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { wireIdString } from "../../../lib/schemas";
import { ContainerSchema, VideoSchema } from "./catalogue";

/** Longest term, in characters after trimming (interface limit of the build). */
export const MAX_TERM_LENGTH = 200;

/** `type=` names: every container and video type, and the listings' plurals of container types. */
const TYPE_NAMES: Record<string, (typeof CONTAINER_TYPES)[number] | (typeof VIDEO_TYPES)[number]> = {
  ...Object.fromEntries([...CONTAINER_TYPES, ...VIDEO_TYPES].map((t) => [t, t])),
  films: "film",
  artists: "artist",
};

/**
 * `example` only on `term`: "Try it out" in /docs fills in every example, and `term` with `c` is a 400. `bakery` finds
 * the demo's Moonlight Bakery (scripts/demo); the filters below carry theirs in the description, so none narrows the
 * first try.
 */
const termParam = (description: string, example?: string) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(MAX_TERM_LENGTH, `at most ${MAX_TERM_LENGTH} characters`)
    .optional()
    .openapi(example ? { description, example } : { description });

/** `type=series,episode`: the types kept, deduplicated; an unknown name is a 400 naming `type`. Empty: every type. */
const typesParam = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const names = raw
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    const unknown = names.filter((n) => !Object.hasOwn(TYPE_NAMES, n));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `unknown type ${unknown.join(", ")}: use ${Object.keys(TYPE_NAMES).join(", ")}` });
      return z.NEVER;
    }
    return names.length ? [...new Set(names.map((n) => TYPE_NAMES[n]))] : undefined;
  })
  .openapi({
    description:
      "comma-separated types to keep: container types (`film` or `films`, `series`, `news`, `artist` or `artists`) " +
      "and video types (`episode`, `movie`, `clip`, `trailer`, `music_video`, `news_clip`), e.g. `series,film`; default every type",
    type: "string",
  });

const languageParam = (description: string) =>
  z
    .string()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, "a language code")
    .transform((v) => v.toLowerCase())
    .optional()
    .openapi({ description });

const familyFriendlyParam = z
  .enum(["0", "1", "true", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true")
  .openapi({ description: "`1` (or `true`) leaves out adult containers and their videos", type: "string", enum: ["0", "1"] });

const watchableInParam = z
  .string()
  .regex(/^[a-zA-Z]{2}$/, "a two-letter country code")
  .transform((v) => v.toLowerCase())
  .optional()
  .openapi({
    description:
      "two-letter region (`us`): keeps what may be watched there (no licence restriction, or a licence for it; `blocking.geo` false)",
  });

export const SearchQuery = z.object({
  term: termParam(
    "the words to search for (the full form); all are required, each a whole word; a run of Chinese, Japanese, Korean or " +
      "Thai characters matches anywhere in a title",
    "bakery",
  ),
  q: termParam("the same as `term` (used when `term` is absent)"),
  c: termParam(
    "the autocomplete form, as the interface's search box sent it: the words, the last one a prefix; answers the short " +
      "suggestion items (`id`, `t`, `tt`, `u`, `i`) instead of full objects. Not with `term` or `q`",
  ),
  type: typesParam,
  language: languageParam("the viewer's language (`en`): results whose title in it matches rank first, and it is the title `tt` shows"),
  family_friendly: familyFriendlyParam,
  watchable_in: watchableInParam,
  ...pagingQuery,
});
export type SearchParams = z.infer<typeof SearchQuery>;

const SearchSuggestion = z
  .object({
    id: z.string().openapi({ example: "7300c" }),
    t: z.enum([...CONTAINER_TYPES, ...VIDEO_TYPES]).openapi({ description: "the container or video type" }),
    tt: z
      .string()
      .openapi({ description: "the title: in `language` when it has one, else the best-matching title", example: "Flower of Gangnam" }),
    u: z.object({
      w: z.string().openapi({ description: "web path", example: "/videos/173588v" }),
      a: z.string().openapi({ description: "API path; a film's leads to its main movie", example: "/v4/videos/173588v.json" }),
    }),
    i: z.string().nullable().openapi({ description: "poster URL (a video's, else its container's), or null" }),
  })
  .openapi("SearchSuggestion");

export const SearchList = listEnvelopeSchema(z.union([ContainerSchema, VideoSchema, SearchSuggestion]), "SearchList");

/** Most lines a page of subtitle search answers. */
export const SUBTITLE_SEARCH_MAX_PER_PAGE = 50;

const wireIdParam = (kind: "c" | "v", description: string) =>
  (kind === "c" ? wireIdString("c", "container id", "12c") : wireIdString("v", "video id", "40v")).optional().openapi({ description });

export const SubtitleSearchQuery = z.object({
  q: z.string({ error: "required: the words or characters to find" }).openapi({
    description:
      "what to find, 1 to 200 characters after trimming; case, width and accents ignored. Words of spaced languages " +
      "must all match (the last also as a prefix); a run of Korean, Japanese, Chinese or Thai characters matches " +
      'wherever it occurs, one character included; "double quotes" make a phrase',
    example: "사랑",
  }),
  language: languageParam("the language of the lines searched (`ko`); every language when absent"),
  viewer_language: languageParam("answer each line's segment in this language too (`viewer`), e.g. `en`"),
  container_id: wireIdParam("c", "search one container's videos only (its shard alone is asked)"),
  video_id: wireIdParam("v", "search one video only"),
  type: typesParam,
  family_friendly: familyFriendlyParam,
  watchable_in: watchableInParam,
  ...pagingQuery,
});

const SubtitleHitSchema = z
  .object({
    video: VideoSchema,
    language: z.string().openapi({ example: "ko" }),
    start_ms: z.number().int().openapi({ example: 754300 }),
    end_ms: z.number().int().openapi({ example: 757100 }),
    text: z.string().openapi({ example: "공항에서 사랑해요" }),
    highlight: z
      .array(z.tuple([z.number().int(), z.number().int()]))
      .openapi({ description: "[start, end) UTF-16 code-unit ranges of the match in `text`", example: [[5, 7]] }),
    viewer: z
      .object({ language: z.string(), text: z.string() })
      .nullable()
      .openapi({ description: "the same segment's line in `viewer_language`; null without it or when the segment has none" }),
    url: z.object({
      web: z.string().openapi({
        description: "web path, playing from the line (W3C Media Fragments `#t=start,end`)",
        example: "/videos/1v#t=754.3,757.1",
      }),
      api: z.string().openapi({ example: "/v4/videos/1v.json" }),
    }),
  })
  .openapi("SubtitleHit");

export const SubtitleHitList = listEnvelopeSchema(SubtitleHitSchema, "SubtitleHitList", {
  incomplete: z.boolean().openapi({ description: "true when a shard did not answer in time: the lines it holds are missing" }),
});
