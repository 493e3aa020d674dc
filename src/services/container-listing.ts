import { containersByIdsQuery } from "../db/queries/catalogue";
import {
  containerIdsQuery,
  containerPageQuery,
  countContainersQuery,
  listAllContainersConcise,
  listGenres,
  type ConciseRow,
} from "../db/queries/container-listing";
import { batchWith } from "../db/rider";
import type { CONTAINER_TYPES, GENRE_SETS } from "../db/schema";
import type { ContainerSort } from "../domain/container-sorts";
import { facet, filterFacets, inNamespace, type ListingFilterValues } from "../domain/facets";
import { tryParseId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { Application } from "../types";
import type { ContainerRow } from "../db/schema";
import { isVisible } from "./access";
import type { Deps } from "./deps";
import { KV_KEYS, cachedJson } from "./kv-cache";

type ContainerType = (typeof CONTAINER_TYPES)[number];
type GenreSet = (typeof GENRE_SETS)[number];

interface ListingFilters extends ListingFilterValues {
  type?: ContainerType;
  hosted?: boolean;
  licensed?: boolean;
}

/**
 * The facets (see `container_facets`) a listed container must carry. Everyone sees only public (hosted and
 * licensed) containers, whose facets are plain (`genre:6`); `hosted=0` / `licensed=0` ask for fan channels
 * instead (`unhosted` / `unlicensed`, with `x:`-prefixed facets), but only from an application with unhosted
 * access that signed the request (the caller passes only a signed application): for any other caller they are
 * silently ignored (migration 0012).
 */
export function listingFacets(q: ListingFilters, application: Application | undefined): string[] {
  const fanChannels = application?.unhostedAccess === true;
  const unhosted = fanChannels && q.hosted === false;
  const unlicensed = fanChannels && q.licensed === false;
  const filters = filterFacets(q);
  if (q.type) filters.push(facet.type(q.type));
  const facets = filters.map((f) => inNamespace(f, !unhosted && !unlicensed));
  if (unhosted) facets.push(facet.unhosted);
  if (unlicensed) facets.push(facet.unlicensed);
  if (!facets.length) facets.push(facet.public);
  return facets;
}

/**
 * The type a listing keeps: the pseudo-type path's, else `type=`. `null` when both are given and differ: the
 * filters combine with AND, so nothing matches, and answering that without walking a facet costs no rows.
 */
export function listingType(pathType: ContainerType | undefined, queryType: ContainerType | undefined) {
  if (pathType && queryType && pathType !== queryType) return null;
  return pathType ?? queryType;
}

/** Titles in reading order: case and accents do not count ("apple", "Banana", "eagle", "Ébène", "Zebra"). */
const READING_ORDER = new Intl.Collator("en", { sensitivity: "base" });

/** The title a container is alphabetised by: English, else the first language's (as `sort_title`). */
const sortingTitle = (titles: Record<string, string>) => {
  if (titles.en !== undefined) return titles.en;
  const first = Object.keys(titles).sort()[0];
  return first === undefined ? "" : titles[first];
};

/**
 * all.json: every normal-state container alphabetically as people read it. SQLite only has byte order
 * (`sort_title` puts "Ébène" after "zebra"), so the Worker sorts with ICU; the result is cached in KV, so the
 * sort runs once per catalogue change (the catalogue writes drop the key). Equal titles go by id.
 */
export async function allContainersAlphabetically({ db, env }: Deps): Promise<ConciseRow[]> {
  return cachedJson(env.CACHE, KV_KEYS.allContainers, async () => {
    const rows = (await listAllContainersConcise(db)).map((r) => ({ row: r, title: sortingTitle(r.titles) }));
    rows.sort((a, b) => READING_ORDER.compare(a.title, b.title) || a.row.id - b.row.id);
    return rows.map((r) => r.row);
  });
}

/**
 * The genre set(s) of `genres.json`: `set=` wins; else `type=artist` means the music set and another type the
 * general set; with neither, both sets (general first), every item saying its set.
 */
export function genreSetFor(q: { set?: GenreSet; type?: ContainerType }) {
  if (q.set) return q.set;
  if (q.type) return q.type === "artist" ? "music" : "general";
  return undefined;
}

type GenreRow = Awaited<ReturnType<typeof listGenres>>[number];

/**
 * genres.json of one set (or both), kept in KV as the document `toWire` makes of the rows, so a hit is the
 * answer as is. Genres change only by migration, which bumps the key's version.
 */
export async function cachedGenres<T>({ db, env }: Deps, set: GenreSet | undefined, toWire: (genre: GenreRow) => T) {
  return cachedJson(env.CACHE, KV_KEYS.genres(set ?? "all"), async () => (await listGenres(db, set)).map(toWire));
}

/**
 * `ids=`: the requested containers in request order, in one statement (at most MAX_BULK_IDS ids, so one `IN`).
 * Malformed, duplicate, missing and non-normal-state ids (and, on a pseudo-type path, containers of another type)
 * are dropped without an error.
 */
export async function bulkContainers(deps: Deps, tokens: string[], type?: ContainerRow["type"]) {
  const ids = [...new Set(tokens.map((t) => tryParseId(t, "c")).filter((id): id is number => id !== null))];
  if (!ids.length) return [];
  const [rows] = await batchWith(deps.db, deps.session, [containersByIdsQuery(deps.db, ids)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []).filter((r) => isVisible(r) && (!type || r.type === type));
}

interface ListingQuery extends ListingFilters {
  sort: ContainerSort;
  direction?: "asc" | "desc";
}

/**
 * One page of a paged listing: the container ids in sort order, their rows (none with `only_ids`), and the
 * total for `with_paging`. One round trip: without `only_ids` one statement walks the facet and joins the page's
 * rows, and the count (and a token-bearing read's session check) travel in the same batch.
 */
export async function listingPage(deps: Deps, q: ListingQuery, application: Application | undefined, p: Paging) {
  const { db } = deps;
  const facetQuery = { facets: listingFacets(q, application), sort: q.sort, direction: q.direction };
  const window = { ...facetQuery, offset: p.offset, limit: p.limit };
  const counter = countContainersQuery(db, facetQuery);
  let ids: number[];
  let rows: ContainerRow[] = [];
  let counted: Array<{ n: number }> | undefined;
  if (p.onlyIds) {
    const idsQuery = containerIdsQuery(db, window);
    const [found, n] = p.withPaging
      ? await batchWith(db, deps.session, [idsQuery, counter])
      : await batchWith(db, deps.session, [idsQuery]);
    ids = found.map((r) => r.id);
    counted = n;
  } else {
    const page = containerPageQuery(db, window);
    const [found, n] = p.withPaging
      ? await batchWith(db, deps.session, [page.query, counter])
      : await batchWith(db, deps.session, [page.query]);
    rows = page.inOrder(found);
    ids = rows.map((r) => r.id);
    counted = n;
  }
  const total = counted?.[0]?.n ?? 0;
  return { ids, rows: new Map(rows.map((r) => [r.id, r])), count: async () => total };
}
