import { createRoute, z } from "@hono/zod-openapi";
import { firstLicensed, mainMovies, searchContainers } from "../../db/queries/v3";
import { ApiError } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { v3Auth } from "../../middleware/v3";
import { isVisible } from "../../services/access";
import { licenceFilter } from "../../services/v3-filters";
import { v3SearchItem } from "../../views/v3";
import { licenceQuery, v3Context, v3Envelope, v3Respond } from "./shared";

/** Search answers at most this many items; they are ranked among the first `V3_SEARCH_CANDIDATES` matches. */
export const V3_SEARCH_LIMIT = 50;
export const V3_SEARCH_CANDIDATES = 120;

/**
 * A user's words as an FTS5 query: each word quoted (so FTS syntax in it is literal) and prefix-matched,
 * all words required.
 */
export function ftsQuery(query: string): string {
  const words = query
    .normalize("NFKC")
    .split(/[\s\p{P}]+/u)
    .map((w) => w.replaceAll('"', ""))
    .filter(Boolean)
    .slice(0, 8);
  return words.map((w) => `"${w}"*`).join(" ");
}

type Row = Awaited<ReturnType<typeof searchContainers>>[number];

/** Titles that start with the query first, then those containing it as typed, then by views. */
function rankResults(rows: Row[], needle: string): Row[] {
  const score = (row: Row) => {
    const titles = Object.values(row.doc?.titles ?? {}).map((t) => t.toLowerCase());
    if (titles.some((t) => t.startsWith(needle))) return 2;
    return titles.some((t) => t.includes(needle)) ? 1 : 0;
  };
  return rows
    .map((row) => ({ row, score: score(row) }))
    .sort((a, b) => b.score - a.score || b.row.views - a.row.views)
    .map((r) => r.row);
}

const search = createRoute({
  method: "get",
  path: "/api/v3/search",
  summary: "v3 search over movies, series, artists, newscasts and coming-soon items (.json or .xml)",
  description:
    `Matches container titles in every language (full-text, prefix match on each word, all words required). ` +
    `The first ${V3_SEARCH_CANDIDATES} matches are ranked (title starting with the query, containing it, then ` +
    `views) and at most ${V3_SEARCH_LIMIT} returned. Item types: series, movie, coming_soon, other (artists, news). ` +
    "`watchable_in` keeps containers licensed in that region, on `platform` when given (only with watchable_in), " +
    "as coming soon does.",
  middleware: [v3Auth] as const,
  request: {
    query: z.object({ query: z.string().trim().min(1).max(200), ...licenceQuery, access_token: z.string().optional() }),
  },
  responses: {
    200: { description: "search results", content: { "application/json": { schema: v3Envelope(z.record(z.string(), z.unknown())) } } },
    400: { description: "missing query" },
    401: { description: "missing or invalid access_token" },
    403: { description: "expired access_token" },
  },
});

export const v3SearchRouter = createRouter().openapi(search, async (c) => {
  const q = c.req.valid("query");
  const licence = licenceFilter(q);
  const match = ftsQuery(q.query);
  if (!match) throw ApiError.field("query", "the query has no words to search for");
  const db = c.get("db");
  const candidates = await searchContainers(db, match, V3_SEARCH_CANDIDATES);
  // doc.regions (every region with a licence) is a free first cut, so only plausible candidates are probed
  // for the exact region and platform licence.
  const plausible = (row: Row) => !licence.watchableIn || (row.doc?.regions ?? []).includes(licence.watchableIn);
  const listed = rankResults(candidates, q.query.toLowerCase()).filter(
    (row) => isVisible(row) && row.hosted && row.licensed && plausible(row),
  );
  const byId = new Map(listed.map((row) => [row.id, row]));
  const rows = (await firstLicensed(db, [...byId.keys()], licence, V3_SEARCH_LIMIT)).map((id) => byId.get(id)!);
  const movies = await mainMovies(db, rows.filter((r) => r.type === "film").map((r) => r.id));
  const ctx = await v3Context(c);
  const response = rows.map((row) => v3SearchItem(row, movies.get(row.id), ctx));
  return v3Respond(c, { count: response.length, pagination: { previous: "", next: "" }, response });
});
