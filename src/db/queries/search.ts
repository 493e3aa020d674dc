import { and, eq, inArray, sql } from "drizzle-orm";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { ContainerType, VideoType } from "../../domain/catalogue-types";
import type { DB } from "../client";
import { containers, videos } from "../schema";
import { prefixed } from "./prefixed";

/**
 * The full-text indexes of migration 0025, declared here only to read their rowids (drizzle-kit does not manage
 * them): one row per container or video, its rowid the resource's id, its text every title of the resource.
 */
const containersFts = sqliteTable("search_containers_fts", { titles: text("titles") });
const videosFts = sqliteTable("search_videos_fts", { titles: text("titles") });

interface SearchFilter {
  /** An FTS5 query over the titles' index form (`searchQuery`, src/domain/search.ts). */
  match: string;
  /** Index matches read at most, in index (id) order: the bound on the statement's cost. */
  candidates: number;
  /** Types kept; all when absent. */
  types?: readonly string[];
  /** No adult containers (nor their videos). */
  familyFriendly: boolean;
}

/** Public: a normal-state, hosted and licensed container, as the listings show (docs/decisions.md, "Public listings by facet name (migration 0012)"). */
export const publicContainer = sql`${containers.state} = 'normal' AND ${containers.hosted} = 1 AND ${containers.licensed} = 1`;

const familySql = (f: SearchFilter) => (f.familyFriendly ? eq(containers.adult, false) : undefined);

/**
 * The first `candidates` resource ids the index matches: a LIMIT inside, so no more index rows are read. The queries
 * CROSS JOIN the rows to it, which SQLite keeps as the outer loop: with an inner join and `type IN (...)` it drove
 * from the type index instead and read 146,012 rows on the large seed (docs/decisions.md, "Search (v4)").
 */
const matchedIds = (db: DB, fts: typeof containersFts | typeof videosFts, f: SearchFilter) =>
  db
    .select({ id: sql<number>`rowid`.as("match_id") })
    .from(fts)
    .where(sql`${fts} MATCH ${f.match}`)
    .limit(f.candidates)
    .as("m");

/**
 * A film's main movie (lowest number, one index entry), for the short form's links, which lead to the movie as the
 * interface's search did; null for other containers, and when `withMovie` is off.
 */
const mainMovie = (withMovie: boolean) =>
  withMovie
    ? sql<number | null>`CASE WHEN ${containers.type} = 'film' THEN (
        SELECT mv.id FROM videos mv WHERE mv.container_id = ${containers.id} AND mv.state = 'normal' AND mv.type = 'movie'
        ORDER BY mv.number, mv.id LIMIT 1) END`.as("movie_id")
    : sql<number | null>`NULL`.as("movie_id");

/**
 * Public containers among the first `candidates` index matches, with the film's main movie when asked: per candidate
 * one index row and one container row (a film adds one index entry with `withMovie`). Unordered: the service ranks.
 * Batchable.
 */
export function containerMatchesQuery(db: DB, f: SearchFilter & { types?: readonly ContainerType[]; withMovie: boolean }) {
  const m = matchedIds(db, containersFts, f);
  return db
    .select({ container: containers, movieId: mainMovie(f.withMovie) })
    .from(m)
    .crossJoin(containers)
    .where(and(eq(containers.id, m.id), publicContainer, f.types ? inArray(containers.type, [...f.types]) : undefined, familySql(f)));
}

const containerFields = prefixed(containers, "c_");

/**
 * Normal-state videos of public containers among the first `candidates` index matches, each with its container
 * (prefixed: one select may not repeat column names, docs/decisions.md, "Rows read for drizzle selects"): per
 * candidate one index row, the video and its container. Unordered: the service ranks. Batchable.
 */
export function videoMatchesQuery(db: DB, f: SearchFilter & { types?: readonly VideoType[] }) {
  const m = matchedIds(db, videosFts, f);
  return db
    .select({ video: videos, container: containerFields })
    .from(m)
    .crossJoin(videos)
    .crossJoin(containers)
    .where(
      and(
        eq(videos.id, m.id),
        eq(containers.id, videos.containerId),
        eq(videos.state, "normal"),
        publicContainer,
        f.types ? inArray(videos.type, [...f.types]) : undefined,
        familySql(f),
      ),
    );
}
