import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { COUNT_LIMIT } from "../../lib/paging";
import type { DB } from "../client";
import { CONTAINER_TYPES, containers } from "../schema";
import type { ListItemFilter } from "./lists";

/** The container flag a derived list follows. */
export type DerivedFacet = "on_air" | "upcoming";

/**
 * Membership: normal-state, public (hosted and licensed) containers with the flag. Literal SQL, word for word
 * the WHERE of the partial indexes of migration 0013 (a bound `?` would not let SQLite prove the index's
 * condition), so the walk reads only members, already in list order.
 */
const MEMBERS: Record<DerivedFacet, SQL> = {
  on_air: sql.raw("on_air = 1 AND state = 'normal' AND hosted = 1 AND licensed = 1"),
  upcoming: sql.raw("upcoming = 1 AND state = 'normal' AND hosted = 1 AND licensed = 1"),
};

/**
 * The order of each list, the column order of its index: on air by recent views, so what people watch now
 * comes first (all-time views would put long-finished hits first; ties newest id first); upcoming by release
 * date, soonest first and undated first, ties by id (the v3 coming-soon order).
 */
const ORDER: Record<DerivedFacet, SQL[]> = {
  on_air: [desc(containers.viewsRecent), desc(containers.id)],
  upcoming: [asc(containers.releaseDate), asc(containers.id)],
};

const isContainerType = (t: string) => (CONTAINER_TYPES as readonly string[]).includes(t);

/**
 * Filters read the walked row itself (its columns and its derived doc), so they cost no extra rows, with the
 * curated lists' meaning: genres and origin of the container, its own completion at least `threshold`.
 * Derived lists hold containers only: a video type keeps nothing.
 */
function where(facet: DerivedFacet, f: ListItemFilter): SQL {
  const terms: SQL[] = [MEMBERS[facet]];
  if (f.type) terms.push(isContainerType(f.type) ? eq(containers.type, f.type as (typeof CONTAINER_TYPES)[number]) : sql`0`);
  if (f.originCountry) terms.push(eq(containers.originCountry, f.originCountry));
  if (f.genreId !== undefined) {
    terms.push(sql`EXISTS (SELECT 1 FROM json_each(${containers.doc}, '$.genres') WHERE value = ${f.genreId})`);
  }
  if (f.subtitleLanguage) {
    // Validated as [a-z]{2,3}(-[a-z0-9]{2,8})? before it reaches here; quoted for the hyphen.
    const path = `$.subtitle_completions."${f.subtitleLanguage}"`;
    terms.push(sql`json_extract(${containers.doc}, ${path}) >= ${f.threshold}`);
  }
  return and(...terms)!;
}

/** One page (`limit` = per_page + 1) of container rows in list order: one statement, index-ordered. */
export const derivedPageQuery = (db: DB, facet: DerivedFacet, f: ListItemFilter, offset: number, limit: number) =>
  db
    .select()
    .from(containers)
    .where(where(facet, f))
    .orderBy(...ORDER[facet])
    .limit(limit)
    .offset(offset);

/** The same page as ids only, for `only_ids=true`. */
export const derivedIdPageQuery = (db: DB, facet: DerivedFacet, f: ListItemFilter, offset: number, limit: number) =>
  db
    .select({ id: containers.id })
    .from(containers)
    .where(where(facet, f))
    .orderBy(...ORDER[facet])
    .limit(limit)
    .offset(offset);

/** Total for `with_paging=true`: walks the list's members only, up to the paging ceiling's `COUNT_LIMIT`. */
export const derivedCountQuery = (db: DB, facet: DerivedFacet, f: ListItemFilter) =>
  db.select({ n: count() }).from(
    db
      .select({ one: sql`1`.as("one") })
      .from(containers)
      .where(where(facet, f))
      .limit(COUNT_LIMIT)
      .as("capped"),
  );
