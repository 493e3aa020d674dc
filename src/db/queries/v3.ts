import { type SQL, and, desc, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "../client";
import { findContainersByIds } from "./catalogue";
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

/** One genre set in listing order (index genres_set_position). */
export const genresOfSet = (db: DB, set: GenreSet) =>
  db.select({ id: genres.id, name: genres.nameEn }).from(genres).where(eq(genres.set, set)).orderBy(genres.position).all();

export const generalGenres = (db: DB) => genresOfSet(db, "general");

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

/**
 * The first `limit` of `ids` (in their order) that the licence filter keeps, by the same probe as the listings;
 * without `watchable_in`, the first `limit` ids. The ids go in as one JSON parameter, so only licence rows are
 * read, and the walk stops at `limit` hits. Search uses it on its ranked candidates: filtering inside the
 * full-text walk would read on past them to fill the candidates.
 */
export async function firstLicensed(db: DB, ids: number[], f: LicenceFilter, limit: number): Promise<number[]> {
  if (!f.watchableIn || !ids.length) return ids.slice(0, limit);
  const rows = await db.all<{ id: number }>(
    sql`SELECT value AS id FROM json_each(${JSON.stringify(ids)}) WHERE ${licensedSql(sql`value`, f)} ORDER BY key LIMIT ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** Upcoming films and/or series, soonest release first, one page (+1 row to tell whether more exist). */
export function comingSoon(db: DB, f: LicenceFilter & { types: Array<"film" | "series">; offset: number; limit: number }) {
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
    .offset(f.offset)
    .all();
}

/**
 * v3 movies: normal-state `movie` videos, newest first, of normal, public films. Two queries (page of
 * videos, then their containers) since one select may not repeat column names (docs/decisions.md).
 */
export async function movieVideos(db: DB, offset: number, limit: number) {
  const page = await db
    .select({ video: videos })
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
    .offset(offset)
    .all();
  const byId = new Map((await findContainersByIds(db, [...new Set(page.map((r) => r.video.containerId))])).map((c) => [c.id, c]));
  return page.map(({ video }) => ({ video, container: byId.get(video.containerId)! }));
}

/** The main `movie` video of each film container (lowest number), for v3 movie resources. */
export async function mainMovies(db: DB, containerIds: number[]) {
  if (!containerIds.length) return new Map<number, typeof videos.$inferSelect>();
  const rows = await db
    .select()
    .from(videos)
    .where(and(inArray(videos.containerId, containerIds), eq(videos.state, "normal"), eq(videos.type, "movie")))
    .orderBy(videos.containerId, videos.number)
    .all();
  const byContainer = new Map<number, typeof videos.$inferSelect>();
  for (const v of rows) if (!byContainer.has(v.containerId)) byContainer.set(v.containerId, v);
  return byContainer;
}

/** The FTS5 index of migration 0011, declared here only to join it (drizzle-kit does not manage it). */
const titlesFts = sqliteTable("titles_fts", { text: text("text") });

/**
 * Containers whose titles (any language) match the FTS5 query, in index order, joined in one statement
 * (one row per match from `titles`, one from `containers`). No `ORDER BY rank`: bm25 reads a size row for
 * every match, so a common word would read thousands of rows; the caller ranks the few candidates itself.
 */
export async function searchContainers(db: DB, match: string, candidates: number) {
  const rows = await db
    .select({ container: containers })
    .from(titlesFts)
    .innerJoin(titles, sql`${titles}.rowid = ${titlesFts}.rowid`)
    .innerJoin(containers, eq(containers.id, titles.resourceId))
    .where(sql`${titlesFts} MATCH ${match}`)
    .limit(candidates)
    .all();
  const unique = new Map(rows.map((r) => [r.container.id, r.container]));
  return [...unique.values()];
}
