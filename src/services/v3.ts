import { findApplication } from "../db/queries/applications";
import { findContainer, findVideoWithContainer } from "../db/queries/catalogue";
import { listContainerVideos } from "../db/queries/container-videos";
import {
  comingSoon,
  firstLicensed,
  generalGenres,
  genresOfSet,
  genresWithResources,
  mainMovies,
  movieVideos,
  searchContainers,
  type LicenceFilter,
} from "../db/queries/v3";
import type { CONTAINER_TYPES } from "../db/schema";
import { V3_SUBTITLE_THRESHOLD } from "../domain/facets";
import { timingSafeEqual } from "../lib/encoding";
import { ApiError } from "../lib/errors";
import { tryParseId } from "../lib/ids";
import { isVisible } from "./access";
import type { Deps } from "./deps";

/** The v3 reads (interface "v3"): listings, single resources, search, and the OAuth client check. */

const notFound = () => ApiError.notFound("The resource couldn't be found");

/** The general genres' names by id, which every v3 resource names its genres with. */
export async function v3GenreNames(deps: Deps) {
  return new Map((await generalGenres(deps.db)).map((g) => [g.id, g.name]));
}

export interface V3GenreFilters extends LicenceFilter {
  originCountry?: string;
  subtitleLanguage?: string;
}

/** A genre set in listing order; with any filter, only the genres that have a matching container of `type`. */
export async function v3Genres(deps: Deps, kind: { type: (typeof CONTAINER_TYPES)[number]; set: "general" | "music" }, f: V3GenreFilters) {
  const unfiltered = !f.originCountry && !f.subtitleLanguage && !f.watchableIn;
  if (unfiltered) return genresOfSet(deps.db, kind.set);
  return genresWithResources(deps.db, { ...f, ...kind, minCompletion: V3_SUBTITLE_THRESHOLD });
}

export const listComingSoon = (deps: Deps, f: Parameters<typeof comingSoon>[1]) => comingSoon(deps.db, f);

export const listMovieVideos = (deps: Deps, offset: number, limit: number) => movieVideos(deps.db, offset, limit);

/** A `movie` video with its container, both publicly visible; anything else is the v3 404. */
export async function findV3Movie(deps: Deps, videoId: number) {
  const found = await findVideoWithContainer(deps.db, videoId);
  if (!found || found.video.type !== "movie" || !isVisible(found.container, found.video)) throw notFound();
  return found;
}

/** A publicly visible `series` container; anything else is the v3 404. */
export async function findV3Series(deps: Deps, containerId: number) {
  const series = await findContainer(deps.db, containerId);
  if (!series || series.type !== "series" || !isVisible(series)) throw notFound();
  return series;
}

/** A series' normal episodes in number order. */
export const listEpisodes = (deps: Deps, seriesId: number, offset: number, limit: number) =>
  listContainerVideos(deps.db, { containerId: seriesId, state: "normal", type: "episode", direction: "asc", offset, limit });

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

/**
 * The listed containers matching the query, ranked, at most V3_SEARCH_LIMIT, with each film's main movie.
 * A query without words is a 400 naming `query`.
 */
export async function searchV3(deps: Deps, query: string, licence: LicenceFilter) {
  const match = ftsQuery(query);
  if (!match) throw ApiError.field("query", "the query has no words to search for");
  const candidates = await searchContainers(deps.db, match, V3_SEARCH_CANDIDATES);
  // doc.regions (every region with a licence) is a free first cut, so only plausible candidates are probed
  // for the exact region and platform licence.
  const plausible = (row: Row) => !licence.watchableIn || (row.doc?.regions ?? []).includes(licence.watchableIn);
  const listed = rankResults(candidates, query.toLowerCase()).filter(
    (row) => isVisible(row) && row.hosted && row.licensed && plausible(row),
  );
  const byId = new Map(listed.map((row) => [row.id, row]));
  const rows = (await firstLicensed(deps.db, [...byId.keys()], licence, V3_SEARCH_LIMIT)).map((id) => byId.get(id)!);
  const movies = await mainMovies(
    deps.db,
    rows.filter((r) => r.type === "film").map((r) => r.id),
  );
  return { rows, movies };
}

/**
 * The OAuth client: an application by its id (`12a`, or the bare number older clients send) whose secret
 * matches, compared in constant time; undefined otherwise.
 */
export async function oauthClient(deps: Deps, clientId: string, secret: string) {
  const id = tryParseId(clientId, "a") ?? (/^[1-9]\d{0,14}$/.test(clientId) ? Number(clientId) : null);
  const application = id === null ? undefined : await findApplication(deps.db, id);
  return application && timingSafeEqual(application.secret, secret) ? application : undefined;
}
