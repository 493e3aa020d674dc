import { createRoute, z } from "@hono/zod-openapi";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { depsOf } from "../../services/deps";
import { V3_SEARCH_CANDIDATES, V3_SEARCH_LIMIT, searchV3 } from "../../services/v3";
import { licenceFilter } from "../../services/v3-filters";
import { v3SearchItem } from "../../views/v3";
import { licenceQuery, v3Context, v3Envelope, v3Respond } from "./shared";

const search = withProperties(
  createRoute({
    method: "get",
    path: "/search",
    summary: "v3 search over movies, series, artists, newscasts and coming-soon items (.json or .xml)",
    description:
      `Matches container titles in every language (full-text, prefix match on each word, all words required). ` +
      `The first ${V3_SEARCH_CANDIDATES} matches are ranked (title starting with the query, containing it, then ` +
      `views) and at most ${V3_SEARCH_LIMIT} returned. Item types: series, movie, coming_soon, other (artists, news). ` +
      "`watchable_in` keeps containers licensed in that region, on `platform` when given (only with watchable_in), " +
      "as coming soon does.",
    request: {
      query: z.object({ query: z.string().trim().min(1).max(200), ...licenceQuery, access_token: z.string().optional() }),
    },
    responses: {
      200: { description: "search results", content: { "application/json": { schema: v3Envelope(z.record(z.string(), z.unknown())) } } },
      400: { description: "missing query" },
      401: { description: "missing or invalid access_token" },
      403: { description: "expired access_token" },
    },
  }),
  { security: ["v3Token"], successor: "/v4/containers.json", cache: "public" },
);

export const v3SearchRouter = routeGroup().openapi(search, async (c) => {
  const q = c.req.valid("query");
  const { rows, movies, genreNames } = await searchV3(depsOf(c), q.query, licenceFilter(q));
  const ctx = v3Context(c, genreNames);
  const response = rows.map((row) => v3SearchItem(row, movies.get(row.id), ctx));
  return v3Respond(c, { count: response.length, pagination: { previous: "", next: "" }, response });
});
