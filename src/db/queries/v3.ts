import { type SQL, and, desc, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "../client";
import { prefixed } from "./prefixed";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { FACET_KINDS, facet } from "../../domain/facets";
import { containers, genres, titles, videos, type CONTAINER_TYPES } from "../schema";

export interface LicenceFilter {
  watchableIn?: string;
  platform?: string;
}

/** `EXISTS` on the licences primary key (container, region, platform): one probe per candidate. */
function licensedSql(containerIdColumn: SQL, f: LicenceFilter) {
  if (!f.watchableIn) return sql`1`;
  const platform = f.platform ? sql` AND l.platform = ${f.platform}` : sql``;
  return sql`EXISTS (SELECT 1 FROM licenses l WHERE l.container_id = ${containerIdColumn} AND l.region = ${f.watchableIn}${platform})`;
}

type GenreSet = (typeof genres.$inferSelect)["set"];

/** One genre set in listing order (index genres_set_position). Batchable. */
export const genresOfSetQuery = (db: DB, set: GenreSet) =>
  db.select({ id: genres.id, name: genres.nameEn }).from(genres).where(eq(genres.set, set)).orderBy(genres.position);

export const genresOfSet = (db: DB, set: GenreSet) => genresOfSetQuery(db, set).all();

/**
 * The genres of `set` that have at least one listable container of `type` matching the filters. Each genre
 * is an `EXISTS` that stops at its first match, walking that genre's facet rows. The set must be the one the
 * type carries (artists carry only the music set), or no genre can match.
 */
export async function genresWithResources(
  db: DB,
  f: LicenceFilter & {
    set: GenreSet;
    type: (typeof CONTAINER_TYPES)[number];
    originCountry?: string;
    subtitleLanguage?: string;
    minCompletion: number;
  },
) {
  const has = (name: string) => sql`EXISTS (SELECT 1 FROM container_facets x WHERE x.container_id = f.container_id AND x.facet = ${name})`;
  // Plain facet names belong to public (hosted and licensed) containers only (migration 0012).
  const conditions = [has(facet.type(f.type))];
  if (f.originCountry) conditions.push(has(facet.country(f.originCountry)));
  if (f.subtitleLanguage) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM subtitle_completions sc WHERE sc.resource_kind = 'c' AND sc.resource_id = f.container_id AND sc.language = ${f.subtitleLanguage} AND sc.percent >= ${f.minCompletion})`,
    );
  }
  conditions.push(licensedSql(sql`f.container_id`, f));
  // SQL text rather than a parameter: the prefix is the module's constant, never input.
  const genreFacet = sql.raw(`'${FACET_KINDS.genre}' || g.id`);
  return db.all<{ id: number; name: string }>(sql`
    SELECT g.id AS id, g.name_en AS name FROM genres g
    WHERE g.${sql.raw('"set"')} = ${f.set}
      AND EXISTS (SELECT 1 FROM container_facets f WHERE f.facet = ${genreFacet} AND ${sql.join(conditions, sql` AND `)})
    ORDER BY g.position`);
}

/** Upcoming films and/or series, soonest release first, one page (+1 row to tell whether more exist). Batchable. */
export function comingSoonQuery(db: DB, f: LicenceFilter & { types: Array<"film" | "series">; offset: number; limit: number }) {
  return db
    .select()
    .from(containers)
    .where(
      and(
        eq(containers.upcoming, true),
        inArray(containers.type, f.types),
        eq(containers.state, "normal"),
        licensedSql(sql`${containers.id}`, f),
      ),
    )
    .orderBy(containers.releaseDate, containers.id)
    .limit(f.limit)
    .offset(f.offset);
}

const containerFields = prefixed(containers, "c_");

/**
 * v3 movies: normal-state `movie` videos, newest first, of normal, public films, each with its film: one statement
 * (the film is prefixed, since one select may not repeat column names: docs/decisions.md). Batchable.
 */
export const movieVideosQuery = (db: DB, offset: number, limit: number) =>
  db
    .select({ video: videos, container: containerFields })
    .from(videos)
    .innerJoin(containers, eq(containers.id, videos.containerId))
    .where(
      and(
        eq(videos.type, "movie"),
        eq(videos.state, "normal"),
        eq(containers.state, "normal"),
        eq(containers.hosted, true),
        eq(containers.licensed, true),
      ),
    )
    .orderBy(desc(videos.id))
    .limit(limit)
    .offset(offset);

const movieFields = prefixed(videos, "m_");

/** The FTS5 index of migration 0011, declared here only to join it (drizzle-kit does not manage it). */
const titlesFts = sqliteTable("titles_fts", { text: text("text") });

/**
 * Containers whose titles (any language) match the FTS5 query, in index order (one row per matching title), with
 * what search needs of each beyond the row, in the same statement so that search is one round trip: with
 * `watchable_in`, whether a listed container (normal, hosted, licensed) is licensed there (a primary-key probe,
 * which D1 counts only when it hits), and for a listed film that is not upcoming (and licensed there) its main
 * `movie` video (lowest number: one index entry and one row). No `ORDER BY rank`: bm25 reads a size row for every
 * match, so a common word would read thousands of rows; the caller ranks the few candidates itself. Batchable.
 */
export function searchQuery(db: DB, match: string, candidates: number, f: LicenceFilter) {
  const listed = sql`${containers.state} = 'normal' AND ${containers.hosted} = 1 AND ${containers.licensed} = 1`;
  const licensed = licensedSql(sql`${containers.id}`, f);
  const mainMovie = sql`CASE WHEN ${listed} AND ${containers.type} = 'film' AND ${containers.upcoming} = 0 AND ${licensed} THEN (
    SELECT mv.id FROM videos mv WHERE mv.container_id = ${containers.id} AND mv.state = 'normal' AND mv.type = 'movie'
    ORDER BY mv.number, mv.id LIMIT 1) END`;
  const licensedHere = sql<number>`CASE WHEN ${listed} THEN ${licensed} ELSE 0 END`.as("licensed_here");
  return db
    .select({ container: containers, movie: movieFields, licensedHere })
    .from(titlesFts)
    .innerJoin(titles, sql`${titles}.rowid = ${titlesFts}.rowid`)
    .innerJoin(containers, eq(containers.id, titles.resourceId))
    .leftJoin(videos, sql`${videos.id} = ${mainMovie}`)
    .where(sql`${titlesFts} MATCH ${match}`)
    .limit(candidates);
}
