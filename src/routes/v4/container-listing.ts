import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContainerDoc } from "../../db/schema";
import { LISTING_FILTERS } from "../../domain/facets";
import { formatId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import {
  allContainersAlphabetically,
  bulkContainers,
  cachedGenres,
  genreSetFor,
  listingPage,
  listingType,
} from "../../services/container-listing";
import { signedApplication } from "../../middleware/application";
import { depsOf } from "../../services/deps";
import type { ContainerType } from "../../domain/catalogue-types";
import { containerConcise, containerView } from "../../views/catalogue";
import type { AppEnv } from "../../types";
import {
  ConciseContainerList,
  ContainerList,
  ContainerListQuery,
  GenreList,
  GenresQuery,
  LISTING_LIMITS,
  MAX_BULK_IDS,
  PseudoListQuery,
  type ListingQuery,
} from "./contracts/container-listing";

const LISTING_DESCRIPTION =
  `With \`ids=\` (\`1c,2c\` or \`(1c,2c)\`, at most ${MAX_BULK_IDS}): those containers in the requested order, ` +
  "malformed, missing and non-normal-state ids omitted without an error. Otherwise a paged listing of normal-state " +
  "containers. Filters combine (AND): `type` (`film` or `films`, `artist` or `artists`, `series`, `news`), " +
  `${Object.keys(LISTING_FILTERS)
    .map((name) => `\`${name}\``)
    .join(", ")} (each described with its parameter). Only hosted ` +
  "and licensed containers are listed; `hosted=0` / `licensed=0` list fan channels instead, for signed requests of " +
  "applications with unhosted access only (ignored for others, and never edge-cached). Sorts: views (default), views_recent, trending, newest_video, " +
  "average_rating, release_date, viki_air_time (numeric, highest first), title (A to Z) and number (the count " +
  "of the container's main child videos, e.g. a series' episodes; highest first, `direction=asc` for lowest " +
  "first; `direction` is ignored with the other sorts); unknown sorts and " +
  `malformed filters are 400 naming the field. ${LISTING_LIMITS} Public: ETag and 304.`;

const list = withProperties(
  createRoute({
    method: "get",
    path: "/",
    summary: "List containers, or read up to 25 by id",
    description: LISTING_DESCRIPTION,
    request: { query: ContainerListQuery },
    responses: { 200: jsonResponse(ContainerList, "the v4 list envelope"), ...errorResponses(400) },
  }),
  { cache: "public", sessionInBatch: true, sharedWithUsers: true },
);

/** The listing under a pseudo-type prefix (`/v4/films.json`): `type` comes from the prefix. */
const pseudoList = (type: ContainerType) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/",
      summary: `List containers of type ${type} (as /v4/containers.json?type=${type})`,
      description:
        `${LISTING_DESCRIPTION} The type comes from the path; \`ids=\` keeps only containers of type ${type}, and a ` +
        "`type=` naming another type lists nothing.",
      request: { query: PseudoListQuery },
      responses: { 200: jsonResponse(ContainerList, "the v4 list envelope"), ...errorResponses(400) },
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true },
  );

const all = withProperties(
  createRoute({
    method: "get",
    path: "/all",
    summary: "Concise list of all containers, alphabetically",
    description:
      "Every normal-state container (`id`, `type`, `titles`, `url`) sorted by its English (else first) title " +
      "as people read it (case and accents ignored: apple, Banana, eagle, Ébène, Zebra), in one unpaged envelope. " +
      "Cached in KV and refreshed when containers, their titles, type or state change.",
    responses: { 200: jsonResponse(ConciseContainerList, "all containers") },
  }),
  { cache: "public" },
);

const genresRoute = withProperties(
  createRoute({
    method: "get",
    path: "/genres",
    summary: "Genres for containers",
    description:
      "Bare array of every genre containers carry, in listing order: the general set (films, series, news; 16 " +
      "before 15) then the music set (artists and music videos), each item with its `set`. `set=general|music` " +
      "keeps one set; `type=artist` (`artists`) the music set, another type the general set. Cached in KV.",
    request: { query: GenresQuery },
    responses: { 200: jsonResponse(GenreList, "the genres"), ...errorResponses(400) },
  }),
  { cache: "public" },
);

type ListBody = z.infer<typeof ContainerList>;

async function listContainers(c: Context<AppEnv>, q: ListingQuery, pathType?: ContainerType): Promise<ListBody> {
  const deps = depsOf(c);
  const ctx = viewContext(c);
  const p = paging(q);
  const type = listingType(pathType, q.type);
  if (type === null) {
    if (q.ids !== undefined) return { more: false, response: [] };
    return listEnvelope<number, never>(
      c.req.url,
      p,
      [],
      () => null,
      () => "",
      async () => 0,
    );
  }
  if (q.ids !== undefined) {
    const rows = await bulkContainers(deps, q.ids, type);
    return { more: false, response: p.onlyIds ? rows.map((r) => formatId(r.id, "c")) : rows.map((r) => containerView(r, ctx)) };
  }
  // Fan channels only for an application that proved itself: `app=` is public, so an unsigned one proves nothing, and
  // a signed request is never edge-cached (docs/decisions.md, "Public listings by facet name").
  const page = await listingPage(deps, { ...q, type }, signedApplication(c), p);
  return listEnvelope(
    c.req.url,
    p,
    page.ids,
    (id) => containerView(page.rows.get(id)!, ctx),
    (id) => formatId(id, "c"),
    page.count,
  );
}

export const containerListingRouter = routeGroup()
  .openapi(list, async (c) => c.json(await listContainers(c, c.req.valid("query")), 200))
  .openapi(all, async (c) => {
    const rows = await allContainersAlphabetically(depsOf(c));
    const ctx = viewContext(c);
    const response = rows.map((r) => containerConcise({ id: r.id, type: r.type, doc: { titles: r.titles } as ContainerDoc }, ctx));
    return c.json({ more: false, response }, 200);
  })
  .openapi(genresRoute, async (c) => {
    const set = genreSetFor(c.req.valid("query"));
    const body = await cachedGenres(depsOf(c), set, (g) => ({ id: formatId(g.id, "g"), name: { en: g.nameEn }, set: g.set }));
    return c.json(body, 200);
  });

/** Under a pseudo-type prefix (`/v4/films`, `/v4/series`, ...): the listing of that type. */
export const pseudoListingRouter = (type: ContainerType) =>
  routeGroup().openapi(pseudoList(type), async (c) => c.json(await listContainers(c, c.req.valid("query"), type), 200));
