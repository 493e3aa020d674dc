import { createRoute, z } from "@hono/zod-openapi";
import { V3_SUBTITLE_THRESHOLD } from "../../domain/facets";
import { paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { depsOf } from "../../services/deps";
import { findV3Movie, findV3Series, listComingSoon, listEpisodes, listMovieVideos, v3Genres } from "../../services/v3";
import { licenceFilter } from "../../services/v3-filters";
import { v3ComingSoon, v3Episode, v3Movie, v3Series } from "../../views/v3";
import { countryQuery, licenceQuery, v3Context, v3Envelope, v3Page, v3PagingQuery, v3Respond } from "./shared";

const Genre = z.object({ id: z.number().int(), name: z.string() }).openapi("V3Genre");
const Item = z.record(z.string(), z.unknown());
const jsonOrXml = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema }, "application/xml": { schema } },
});
const v3Errors = {
  400: { description: "bad parameter" },
  401: { description: "missing or invalid access_token" },
  403: { description: "expired access_token: request a new one and repeat" },
  404: { description: "not found" },
};

/** Each path's container type and the genre set that type carries (music videos live in artists). */
const GENRE_KINDS = {
  movies: { type: "film", set: "general" },
  series: { type: "series", set: "general" },
  music_videos: { type: "artist", set: "music" },
} as const;

const genresRoute = (kind: keyof typeof GENRE_KINDS) =>
  withProperties(
    createRoute({
      method: "get",
      path: `/genres/${kind}`,
      summary: `v3 genres of ${kind.replace("_", " ")} (.json or .xml)`,
      description:
        (kind === "music_videos"
          ? "The music genre set (ids 23 to 34), which artists and their music videos carry. "
          : "The 22 general genres (ids 1 to 22, 16 listed before 15). ") +
        "Filters keep genres that have resources " +
        `matching them: origin_country, subtitle_language (at least ${V3_SUBTITLE_THRESHOLD}% complete), ` +
        "watchable_in and platform (only with watchable_in).",
      request: {
        query: z.object({
          ...licenceQuery,
          origin_country: countryQuery("origin country"),
          subtitle_language: countryQuery("language code"),
          access_token: z.string().optional(),
        }),
      },
      responses: { 200: jsonOrXml(v3Envelope(Genre), "genres"), ...v3Errors },
    }),
    { security: ["v3Token"], successor: "/v4/containers/genres.json", cache: "public" },
  );

const COMING_SOON = { "": ["film", "series"], "/movies": ["film"], "/series": ["series"] } as const;

const comingSoonRoute = (suffix: keyof typeof COMING_SOON) =>
  withProperties(
    createRoute({
      method: "get",
      path: `/coming_soon${suffix}`,
      summary: `v3 coming soon${suffix ? ` (${suffix.slice(1)})` : ""} (.json or .xml)`,
      description:
        "Upcoming titles, soonest release first. `language` picks titles and descriptions in that language, " +
        "falling back to English (`title_language` / `description_language` say which was used).",
      request: {
        query: z.object({
          ...licenceQuery,
          ...v3PagingQuery,
          language: z
            .string()
            .regex(/^[a-z]{2}(-[a-z]{2,4})?$/i)
            .optional(),
          access_token: z.string().optional(),
        }),
      },
      responses: { 200: jsonOrXml(v3Envelope(Item), "coming-soon items"), ...v3Errors },
    }),
    { security: ["v3Token"], successor: "/v4/lists/6l.json", cache: "public" },
  );

const moviesRoute = (path: string) =>
  withProperties(
    createRoute({
      method: "get",
      path,
      summary: "v3 movie list",
      request: { query: z.object({ ...v3PagingQuery, access_token: z.string().optional() }) },
      responses: { 200: jsonOrXml(v3Envelope(Item), "movies"), ...v3Errors },
    }),
    { security: ["v3Token"], cache: "public" },
  );

const oneRoute = (kind: "movies" | "series") =>
  withProperties(
    createRoute({
      method: "get",
      path: `/${kind}/{id}`,
      summary: `one v3 ${kind === "movies" ? "movie" : "series"} (the \`uri\` of search results)`,
      request: { params: z.object({ id: z.string().regex(/^[1-9]\d{0,14}$/) }), query: z.object({ access_token: z.string().optional() }) },
      responses: { 200: jsonOrXml(Item, "the resource"), ...v3Errors },
    }),
    { security: ["v3Token"], successor: kind === "series" ? "/v4/series.json" : "/v4/films.json", cache: "public" },
  );

/** Under /api/v3. */
export const v3CatalogueRouter = routeGroup();
/** `/v3/movies`, the list's old address, under /v3. */
export const v3MoviesAliasRouter = routeGroup();

for (const kind of Object.keys(GENRE_KINDS) as Array<keyof typeof GENRE_KINDS>) {
  v3CatalogueRouter.openapi(genresRoute(kind), async (c) => {
    const q = c.req.valid("query");
    const genres = await v3Genres(depsOf(c), GENRE_KINDS[kind], {
      ...licenceFilter(q),
      originCountry: q.origin_country,
      subtitleLanguage: q.subtitle_language,
    });
    return v3Respond(c, { count: genres.length, pagination: { previous: "", next: "" }, response: genres });
  });
}

for (const suffix of Object.keys(COMING_SOON) as Array<keyof typeof COMING_SOON>) {
  v3CatalogueRouter.openapi(comingSoonRoute(suffix), async (c) => {
    const q = c.req.valid("query");
    const { page, perPage, offset, limit } = paging(q);
    const { rows, genreNames } = await listComingSoon(depsOf(c), {
      ...licenceFilter(q),
      types: [...COMING_SOON[suffix]],
      offset,
      limit,
    });
    const ctx = v3Context(c, genreNames, q.language?.toLowerCase());
    const { items, pagination } = v3Page(c.req.url, page, perPage, rows);
    return v3Respond(c, { count: items.length, pagination, response: items.map((r) => v3ComingSoon(r, ctx)) });
  });
}

for (const group of [v3MoviesAliasRouter, v3CatalogueRouter]) {
  group.openapi(moviesRoute("/movies"), async (c) => {
    const { page, perPage, offset, limit } = paging(c.req.valid("query"));
    const { rows, genreNames } = await listMovieVideos(depsOf(c), offset, limit);
    const ctx = v3Context(c, genreNames);
    const { items, pagination } = v3Page(c.req.url, page, perPage, rows);
    return v3Respond(c, { count: items.length, pagination, response: items.map((r) => v3Movie(r.video, r.container, ctx)) });
  });
}

v3CatalogueRouter.openapi(oneRoute("movies"), async (c) => {
  const found = await findV3Movie(depsOf(c), Number(c.req.valid("param").id));
  return v3Respond(c, v3Movie(found.video, found.container, v3Context(c, found.genreNames)));
});

const episodesRoute = withProperties(
  createRoute({
    method: "get",
    path: "/series/{id}/episodes",
    summary: "episodes of a v3 series (the `episodes.uri` of series resources)",
    request: {
      params: z.object({ id: z.string().regex(/^[1-9]\d{0,14}$/) }),
      query: z.object({ ...v3PagingQuery, access_token: z.string().optional() }),
    },
    responses: { 200: jsonOrXml(v3Envelope(Item), "episodes in number order"), ...v3Errors },
  }),
  { security: ["v3Token"], successor: "/v4/series.json", cache: "public" },
);

v3CatalogueRouter.openapi(episodesRoute, async (c) => {
  const { page, perPage, offset, limit } = paging(c.req.valid("query"));
  const { series, rows, genreNames } = await listEpisodes(depsOf(c), Number(c.req.valid("param").id), offset, limit);
  const ctx = v3Context(c, genreNames);
  const { items, pagination } = v3Page(c.req.url, page, perPage, rows);
  return v3Respond(c, { count: items.length, pagination, response: items.map((v) => v3Episode(v, series, ctx)) });
});

v3CatalogueRouter.openapi(oneRoute("series"), async (c) => {
  const { series, genreNames } = await findV3Series(depsOf(c), Number(c.req.valid("param").id));
  return v3Respond(c, v3Series(series, v3Context(c, genreNames)));
});
