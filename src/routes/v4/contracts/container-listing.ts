import { z } from "@hono/zod-openapi";
import { CONTAINER_TYPES, GENRE_SETS, VIDEO_STATES, VIDEO_TYPES } from "../../../db/schema";
import { CONTAINER_SORTS } from "../../../domain/container-sorts";
import { LISTING_FILTERS, type ListingFilterName, type ListingFilterValues } from "../../../domain/facets";
import { MAX_PER_PAGE, listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { ContainerSchema, VideoSchema } from "./catalogue";

/** At most this many ids per bulk container request (interface limit). */
export const MAX_BULK_IDS = 25;

const flag01 = (description: string) =>
  z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "1" || v === "true"))
    .openapi({ description, type: "string", enum: ["0", "1"] });

/** `ids=1c,2c` or `ids=(1c,2c)`: the raw tokens, in request order; malformed ones are dropped later. */
const idsParam = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const inner = raw.trim().replace(/^\(/, "").replace(/\)$/, "");
    const tokens = inner
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (tokens.length > MAX_BULK_IDS) {
      ctx.addIssue({ code: "custom", message: `at most ${MAX_BULK_IDS} ids per request (got ${tokens.length})` });
      return z.NEVER;
    }
    return tokens;
  })
  .openapi({
    description:
      `Bulk read: \`1c,2c\` or \`(1c,2c)\`, at most ${MAX_BULK_IDS} ids (more is a 400). The result keeps the ` +
      "requested order; malformed, missing and non-normal-state ids are omitted without an error. Other filters " +
      "(but `type`) and paging (but `only_ids`) are ignored.",
    type: "string",
  });

/** `type=` takes the singular type or the interface's plural name (the pseudo-type path segment). */
const TYPE_NAMES = { film: "film", films: "film", series: "series", news: "news", artist: "artist", artists: "artist" } as const;
const TYPE_NAME_LIST = Object.keys(TYPE_NAMES) as Array<keyof typeof TYPE_NAMES>;
const containerType = (description: string) =>
  z
    .enum(TYPE_NAME_LIST as [keyof typeof TYPE_NAMES, ...Array<keyof typeof TYPE_NAMES>])
    .optional()
    .transform((v) => (v === undefined ? undefined : TYPE_NAMES[v]))
    .openapi({ description, type: "string", enum: TYPE_NAME_LIST });

/**
 * A facet filter's query parameter, as `LISTING_FILTERS` (src/domain/facets.ts) describes it. Its example is in the
 * description, not `example`: "Try it out" in /docs fills in an `example`, and a filter filled in unasked narrows the
 * first try to nothing.
 */
function facetFilterParam(filter: (typeof LISTING_FILTERS)[ListingFilterName]) {
  if (filter.kind === "flag") return flag01(filter.description);
  const example = `\`${filter.example}\``;
  const description = filter.description.includes(example) ? filter.description : `${filter.description} (e.g. ${example})`;
  return z
    .string()
    .regex(filter.pattern, filter.message)
    .optional()
    .transform((v) => (v === undefined ? undefined : filter.read(v)))
    .openapi({ description, type: "string" });
}

/** Every facet filter's parameter, each typed with the value its filter reads. */
function facetFilterParams() {
  const params: Partial<Record<ListingFilterName, z.ZodType>> = {};
  for (const name of Object.keys(LISTING_FILTERS) as ListingFilterName[]) params[name] = facetFilterParam(LISTING_FILTERS[name]);
  // TypeScript cannot follow each key through the loop; facetFilterParam reads exactly what the filter's `facet` takes.
  return params as { [K in ListingFilterName]: z.ZodType<ListingFilterValues[K]> };
}

const listingFilters = {
  ...facetFilterParams(),
  hosted: flag01(
    "`0` lists unhosted containers (fan channels). Honoured only for a signed request of an application with " +
      "unhosted access (`app=` alone proves nothing); ignored for everyone else, who see only hosted and licensed containers.",
  ),
  licensed: flag01("`0` lists unlicensed containers; same rule as `hosted`"),
  sort: z
    .enum(CONTAINER_SORTS)
    .default("views")
    .openapi({
      description:
        "numeric sorts are descending (highest first), `title` ascending; `number` is the count of the " +
        "container's main child videos (episodes of a series, movies of a film, news clips, music videos), " +
        "descending unless `direction=asc`; default `views`",
    }),
  direction: z
    .enum(["asc", "desc"])
    .optional()
    .openapi({ description: "with `sort=number` only (default `desc`); accepted and ignored with the other sorts" }),
  ...pagingQuery,
};

export const PseudoListQuery = z.object({
  ids: idsParam,
  type: containerType("optional; naming another type than the path's lists nothing"),
  ...listingFilters,
});
export const ContainerListQuery = z.object({
  ids: idsParam,
  type: containerType("container type, singular or as the pseudo-type paths name it (`film` or `films`, `artist` or `artists`)"),
  ...listingFilters,
});
export type ListingQuery = z.infer<typeof ContainerListQuery>;

export const ContainerList = listEnvelopeSchema(ContainerSchema, "ContainerList");
export const VideoList = listEnvelopeSchema(VideoSchema, "VideoList");

const ConciseContainer = z.object({
  id: z.string(),
  type: z.enum(CONTAINER_TYPES),
  titles: z.record(z.string(), z.string()),
  url: z.object({ api: z.string() }),
});
/** all.json is one unpaged answer (no `only_ids`, `count` or links), so not a `listEnvelopeSchema`. */
export const ConciseContainerList = z.object({ more: z.boolean(), response: z.array(ConciseContainer) }).openapi("ConciseContainerList");

export const GenresQuery = z.object({
  type: containerType("`artist` (`artists`) selects the music set, any other type the general set"),
  set: z.enum(GENRE_SETS).optional().openapi({ description: "`general` or `music` (default: both); wins over `type`" }),
});
export const GenreList = z
  .array(
    z.object({
      id: z.string().openapi({ example: "1g" }),
      name: z.record(z.string(), z.string()),
      set: z.enum(GENRE_SETS).openapi({ description: "`general` (films, series, news) or `music` (artists, music videos)" }),
    }),
  )
  .openapi("GenreList");

const videoFilters = {
  sort: z.enum(["number"]).optional().openapi({ description: "only `number` (the default)" }),
  direction: z.enum(["asc", "desc"]).optional().openapi({ description: "number order, default `asc`" }),
  number: z.coerce.number().int().min(0).optional().openapi({ description: "only the video with this number", type: "integer" }),
};
const stateParam = z
  .enum(VIDEO_STATES)
  .optional()
  .openapi({
    description:
      "`pending` or `blocked` lists those videos instead of the normal ones: container managers and staff only " +
      "(no token 401, others 403). Cannot be combined with any other filter (type, sort, direction, number): 400.",
  });

export const ContainerVideosQuery = z.object({
  state: stateParam,
  type: z.enum(VIDEO_TYPES).optional().openapi({ description: "video type" }),
  ...videoFilters,
  ...pagingQuery,
});
/** The typed child paths (`/episodes`, `/movies`, ...): the type comes from the path. */
export const ContainerChildrenQuery = z.object({ state: stateParam, ...videoFilters, ...pagingQuery });
export type VideosQuery = z.infer<typeof ContainerVideosQuery>;

export const LISTING_LIMITS = `\`per_page\` default 25, clamped to ${MAX_PER_PAGE}.`;
