import { and, asc, count, desc, eq, exists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { COUNT_LIMIT } from "../../lib/paging";
import type { DB } from "../client";
import type { ContainerSort } from "../../domain/container-sorts";
import { facet, inDrivingOrder } from "../../domain/facets";
import { containerFacets, containers, genres, type ContainerDoc } from "../schema";

const f = alias(containerFacets, "f");
const probe = alias(containerFacets, "f2");

/** The facet column each container sort walks. */
const SORT_COLUMN = {
  views: f.views,
  views_recent: f.viewsRecent,
  trending: f.trending,
  newest_video: f.newestVideoAt,
  average_rating: f.averageRating,
  release_date: f.releaseDate,
  viki_air_time: f.airTime,
  title: f.sortTitle,
  number: f.videoCount,
} as const satisfies Record<ContainerSort, unknown>;

interface FacetQuery {
  /** Every facet a container must carry (`public`, `type:series`, `genre:6`, ...). */
  facets: string[];
  sort: ContainerSort;
  /** Honoured by `number` only (default descending); the other sorts have one fixed direction. */
  direction?: "asc" | "desc";
}

/** The walk's key and direction: numeric sorts descending, title ascending, number either way. */
function ordering(q: FacetQuery) {
  const key = SORT_COLUMN[q.sort];
  const ascending = q.sort === "title" || (q.sort === "number" && q.direction === "asc");
  // Ties go by container id in the same direction, so one index (facet, key, container_id) serves either.
  return { key, ascending, order: ascending ? [asc(key), asc(f.containerId)] : [desc(key), desc(f.containerId)] };
}

/**
 * The driving facet and one primary-key probe per other facet. Public listings need no probe for "public":
 * the plain facet names only exist on public containers (fan channels carry `x:`-prefixed ones).
 */
function plan(db: DB, q: FacetQuery) {
  const [driver, ...others] = inDrivingOrder(q.facets.length ? q.facets : [facet.public]);
  const probeFor = (name: string) =>
    db
      .select({ one: sql`1` })
      .from(probe)
      .where(and(eq(probe.containerId, f.containerId), eq(probe.facet, name)));
  return and(eq(f.facet, driver), ...others.map((name) => exists(probeFor(name))))!;
}

/** One page of container ids carrying every facet, in sort order (see `ordering`). `limit` is per_page + 1. Batchable. */
export function containerIdsQuery(db: DB, q: FacetQuery & { offset: number; limit: number }) {
  const { order } = ordering(q);
  return db
    .select({ id: f.containerId })
    .from(f)
    .where(plan(db, q))
    .orderBy(...order)
    .limit(q.limit)
    .offset(q.offset);
}

/**
 * The same page as `containerIdsQuery`, with the container rows, in one statement: the facet walk (with its
 * LIMIT/OFFSET) is a subquery, and only its rows join `containers`, one row read each. The join does not
 * promise the subquery's order, so `inOrder` puts the rows back in it by the same key the walk sorted on.
 */
export function containerPageQuery(db: DB, q: FacetQuery & { offset: number; limit: number }) {
  const { key, ascending, order } = ordering(q);
  const page = db
    .select({ pid: f.containerId, k: sql<number | string>`${key}`.as("k") })
    .from(f)
    .where(plan(db, q))
    .orderBy(...order)
    .limit(q.limit)
    .offset(q.offset)
    .as("page");
  const query = db.select({ k: page.k, container: containers }).from(page).innerJoin(containers, eq(containers.id, page.pid));
  type Row = Awaited<ReturnType<typeof query.all>>[number];
  const cmp = (a: Row, b: Row) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) || a.container.id - b.container.id;
  const inOrder = (rows: Row[]) => rows.sort((a, b) => (ascending ? cmp(a, b) : cmp(b, a))).map((r) => r.container);
  return { query, inOrder };
}

/**
 * Total for `with_paging=true`: reads the rows of the driving facet (plus one probe per other facet) up to the paging
 * ceiling's `COUNT_LIMIT`, never the whole facet. Batchable.
 */
export const countContainersQuery = (db: DB, q: FacetQuery) =>
  db.select({ n: count() }).from(
    db
      .select({ one: sql`1`.as("one") })
      .from(f)
      .where(plan(db, q))
      .limit(COUNT_LIMIT)
      .as("capped"),
  );

export interface ConciseRow {
  id: number;
  type: (typeof containers.$inferSelect)["type"];
  titles: ContainerDoc["titles"];
}

/** all.json: every normal-state container, titles only; the service puts them in reading order. */
export async function listAllContainersConcise(db: DB): Promise<ConciseRow[]> {
  const rows = await db
    .select({ id: containers.id, type: containers.type, titles: sql<string | null>`json_extract(${containers.doc}, '$.titles')` })
    .from(containers)
    .where(eq(containers.state, "normal"))
    .all();
  return rows.map((r) => ({ id: r.id, type: r.type, titles: r.titles ? (JSON.parse(r.titles) as ContainerDoc["titles"]) : {} }));
}

/** One genre set, or both (general first), in listing order (index genres_set_position). */
export const listGenres = (db: DB, set?: (typeof genres.$inferSelect)["set"]) =>
  db
    .select({ id: genres.id, nameEn: genres.nameEn, set: genres.set })
    .from(genres)
    .where(set ? eq(genres.set, set) : undefined)
    .orderBy(asc(genres.set), asc(genres.position))
    .all();
