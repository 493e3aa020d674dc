import type { BatchItem } from "drizzle-orm/batch";
import { findApplication } from "../db/queries/applications";
import { containerQuery, videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { containerVideosQuery } from "../db/queries/container-videos";
import {
  comingSoonQuery,
  genresOfSet,
  genresOfSetQuery,
  genresWithResources,
  movieVideosQuery,
  searchQuery,
  type LicenceFilter,
} from "../db/queries/v3";
import type { CONTAINER_TYPES, ContainerRow, VideoRow } from "../db/schema";
import { V3_SUBTITLE_THRESHOLD } from "../domain/facets";
import { timingSafeEqual } from "../lib/encoding";
import { ApiError } from "../lib/errors";
import { tryParseId } from "../lib/ids";
import { validSecrets } from "../lib/signature";
import { isVisible } from "./access";
import type { Deps } from "./deps";

/**
 * The v3 reads (docs/spec/paths.md, "v3 (deprecated)"): listings, single resources, search, and the OAuth client check. Each read is one
 * D1 round trip (docs/decisions.md, "One round trip per read"): its statements and the genre names its resources carry go in one batch.
 */

const notFound = () => ApiError.notFound("The resource couldn't be found");

/** genre id -> English name, for the general genres every v3 resource names its genres with. */
export type GenreNames = Map<number, string>;

/**
 * Genres are written only by migrations, so an isolate keeps their names a while (a migration that renames one shows
 * within this time, or at the deploy that ships it): the batch of a read then carries its own statements only.
 */
const GENRE_NAMES_TTL_MS = 5 * 60 * 1000;
let genreNamesMemo: { names: GenreNames; until: number } | undefined;

/**
 * `statements` in one batch, with the general genres' names in front when this isolate does not hold them: the
 * names, then each statement's rows. Typed loosely (drizzle's batch types need a literal tuple); each caller names
 * what it reads.
 */
async function withGenreNames(
  deps: Deps,
  ...statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]
): Promise<[GenreNames, ...unknown[][]]> {
  const { db } = deps;
  const now = Date.now();
  if (genreNamesMemo && genreNamesMemo.until > now) {
    return [genreNamesMemo.names, ...((await db.batch(statements)) as unknown as unknown[][])];
  }
  const [genres, ...rest] = (await db.batch([genresOfSetQuery(db, "general"), ...statements])) as unknown as [
    Array<{ id: number; name: string }>,
    ...unknown[][],
  ];
  const names: GenreNames = new Map(genres.map((g) => [g.id, g.name]));
  genreNamesMemo = { names, until: now + GENRE_NAMES_TTL_MS };
  return [names, ...rest];
}

interface V3GenreFilters extends LicenceFilter {
  originCountry?: string;
  subtitleLanguage?: string;
}

/** A genre set in listing order; with any filter, only the genres that have a matching container of `type`. */
export async function v3Genres(deps: Deps, kind: { type: (typeof CONTAINER_TYPES)[number]; set: "general" | "music" }, f: V3GenreFilters) {
  const unfiltered = !f.originCountry && !f.subtitleLanguage && !f.watchableIn;
  if (unfiltered) return genresOfSet(deps.db, kind.set);
  return genresWithResources(deps.db, { ...f, ...kind, minCompletion: V3_SUBTITLE_THRESHOLD });
}

export async function listComingSoon(deps: Deps, f: Parameters<typeof comingSoonQuery>[1]) {
  const [genreNames, rows] = await withGenreNames(deps, comingSoonQuery(deps.db, f));
  return { genreNames, rows: rows as ContainerRow[] };
}

export async function listMovieVideos(deps: Deps, offset: number, limit: number) {
  const [genreNames, rows] = await withGenreNames(deps, movieVideosQuery(deps.db, offset, limit));
  const movies = (rows as Array<{ video: VideoRow; container: unknown }>).map((r) => ({
    video: r.video,
    container: r.container as ContainerRow,
  }));
  return { genreNames, rows: movies };
}

/** A `movie` video with its container, both publicly visible; anything else is the v3 404. */
export async function findV3Movie(deps: Deps, videoId: number) {
  const [genreNames, rows] = await withGenreNames(deps, videoWithContainerQuery(deps.db, videoId));
  const found = videoWithContainer(rows as Parameters<typeof videoWithContainer>[0]);
  if (!found || found.video.type !== "movie" || !isVisible(found.container, found.video)) throw notFound();
  return { ...found, genreNames };
}

const requireV3Series = (series: ContainerRow | undefined) => {
  if (!series || series.type !== "series" || !isVisible(series)) throw notFound();
  return series;
};

/** A publicly visible `series` container; anything else is the v3 404. */
export async function findV3Series(deps: Deps, containerId: number) {
  const [genreNames, found] = await withGenreNames(deps, containerQuery(deps.db, containerId));
  return { series: requireV3Series((found as ContainerRow[])[0]), genreNames };
}

/** A publicly visible series and a page of its normal episodes in number order (read together, then checked). */
export async function listEpisodes(deps: Deps, seriesId: number, offset: number, limit: number) {
  const page = containerVideosQuery(deps.db, { containerId: seriesId, state: "normal", type: "episode", direction: "asc", offset, limit });
  const [genreNames, found, rows] = await withGenreNames(deps, containerQuery(deps.db, seriesId), page);
  return { series: requireV3Series((found as ContainerRow[])[0]), rows: rows as VideoRow[], genreNames };
}

/** Search answers at most this many items; they are ranked among the first `V3_SEARCH_CANDIDATES` matches. */
export const V3_SEARCH_LIMIT = 50;
export const V3_SEARCH_CANDIDATES = 120;

/**
 * A user's words as an FTS5 query: each word quoted (so FTS syntax in it is literal) and prefix-matched,
 * all words required. Control characters separate words like spaces: a NUL inside a quoted FTS5 string is a syntax
 * error, which would be a 500 (docs/decisions.md, "Real clients: a tolerant wire contract").
 */
function ftsQuery(query: string): string {
  const words = query
    .normalize("NFKC")
    .split(/[\s\p{P}\p{Cc}]+/u)
    .map((w) => w.replaceAll('"', ""))
    .filter(Boolean)
    .slice(0, 8);
  return words.map((w) => `"${w}"*`).join(" ");
}

type Row = ContainerRow;

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

type SearchRow = { container: ContainerRow; movie: Record<keyof VideoRow, unknown>; licensedHere: number };

/**
 * The listed containers matching the query, ranked, at most V3_SEARCH_LIMIT, with each film's main movie: one
 * statement (`searchQuery` reads the movie and the licence with each candidate). A query without words is a 400
 * naming `query`.
 */
export async function searchV3(deps: Deps, query: string, licence: LicenceFilter) {
  const match = ftsQuery(query);
  if (!match) throw ApiError.field("query", "the query has no words to search for");
  const [genreNames, found] = await withGenreNames(deps, searchQuery(deps.db, match, V3_SEARCH_CANDIDATES, licence));
  const candidates = new Map<number, SearchRow>();
  for (const row of found as SearchRow[]) if (!candidates.has(row.container.id)) candidates.set(row.container.id, row);
  const movies = new Map<number, VideoRow>();
  for (const { container, movie } of candidates.values()) if (movie.id !== null) movies.set(container.id, movie as VideoRow);
  const rows = rankResults(
    [...candidates.values()].map((c) => c.container),
    query.toLowerCase(),
  )
    .filter((row) => isVisible(row) && row.hosted && row.licensed && (!licence.watchableIn || candidates.get(row.id)!.licensedHere))
    .slice(0, V3_SEARCH_LIMIT);
  return { rows, movies, genreNames };
}

/**
 * The OAuth client: an application by its id (`12a`, or the bare number older clients send) whose secret
 * matches, compared in constant time; undefined otherwise.
 */
export async function oauthClient(deps: Deps, clientId: string, secret: string) {
  const id = tryParseId(clientId, "a") ?? (/^[1-9]\d{0,14}$/.test(clientId) ? Number(clientId) : null);
  const application = id === null ? undefined : await findApplication(deps.db, id);
  if (!application) return undefined;
  // Either secret during a rotation's overlap (docs/decisions.md, "Secret rotation"); every one compared.
  const matches = validSecrets(application, Math.floor(Date.now() / 1000)).map((s) => timingSafeEqual(s, secret));
  return matches.includes(true) ? application : undefined;
}
