import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CONTAINER_STATES, CONTAINER_TYPES, VIDEO_STATES, VIDEO_TYPES } from "../../domain/catalogue-types";
import { createdAt, flag, updatedAt } from "./columns";

/** The parts of a container document that live in other tables, denormalised onto the row. */
export interface ContainerDoc {
  titles: Record<string, string>;
  descriptions: Record<string, string>;
  genres: number[];
  subtitle_completions: Record<string, number>;
  managers: Array<{ id: number; username: string }>;
  /** Normal-state videos by video type. */
  video_counts: Record<string, number>;
  /** Regions with a licence; empty means not geo-restricted. */
  regions: string[];
}

interface VideoDoc {
  titles: Record<string, string>;
  descriptions: Record<string, string>;
  subtitle_completions: Record<string, number>;
}

export { CONTAINER_STATES, CONTAINER_TYPES, VIDEO_STATES, VIDEO_TYPES };
/** Resources that titles, descriptions, subscriptions and markers point at. */
const RESOURCE_KINDS = ["c", "v", "l"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export const containers = sqliteTable(
  "containers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type", { enum: CONTAINER_TYPES }).notNull(),
    originCountry: text("origin_country").notNull().default(""),
    originLanguage: text("origin_language").notNull().default(""),
    hosted: flag("hosted").default(true),
    licensed: flag("licensed").default(true),
    adult: flag("adult"),
    onAir: flag("on_air"),
    upcoming: flag("upcoming"),
    state: text("state", { enum: CONTAINER_STATES }).notNull().default("normal"),
    posterUrl: text("poster_url"),
    // Lower-cased English (or first) title, kept in step by the title writers: drives sort=title and all.json.
    sortTitle: text("sort_title").notNull().default(""),
    views: integer("views").notNull().default(0),
    viewsRecent: integer("views_recent").notNull().default(0),
    trending: integer("trending").notNull().default(0),
    averageRating: real("average_rating").notNull().default(0),
    ratingCount: integer("rating_count").notNull().default(0),
    releaseDate: text("release_date"),
    airTime: integer("air_time"),
    newestVideoAt: integer("newest_video_at"),
    // Derived by SQL triggers (src/db/triggers/documents.sql) from titles, descriptions, genres, completions, managers,
    // licenses and videos, so reading a container costs one row. Never written by hand.
    doc: text("doc", { mode: "json" }).$type<ContainerDoc>(),
    // Bumped by triggers (src/db/triggers/documents.sql) when a source of `doc` or of the facets changes.
    docVersion: integer("doc_version").notNull().default(0),
    facetVersion: integer("facet_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("containers_type_views").on(t.type, t.views),
    index("containers_views").on(t.views),
    index("containers_sort_title").on(t.sortTitle),
    index("containers_origin_country_views").on(t.originCountry, t.views),
    // v3 coming soon: upcoming titles of a type, soonest release first.
    index("containers_upcoming_release").on(t.upcoming, t.type, t.releaseDate),
    // The derived built-in lists (migration 0013): only their members, in list order. Queries must repeat the
    // WHERE literally (src/db/queries/derived-lists.ts) for SQLite to use them.
    index("containers_on_air_list")
      .on(t.onAir, t.viewsRecent, t.id)
      .where(sql`on_air = 1 AND state = 'normal' AND hosted = 1 AND licensed = 1`),
    index("containers_upcoming_list")
      .on(t.upcoming, t.releaseDate, t.id)
      .where(sql`upcoming = 1 AND state = 'normal' AND hosted = 1 AND licensed = 1`),
  ],
);

export const videos = sqliteTable(
  "videos",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    type: text("type", { enum: VIDEO_TYPES }).notNull(),
    number: integer("number"),
    duration: integer("duration").notNull().default(0),
    state: text("state", { enum: VIDEO_STATES }).notNull().default("normal"),
    originLanguage: text("origin_language").notNull().default(""),
    hd: flag("hd"),
    posterUrl: text("poster_url"),
    views: integer("views").notNull().default(0),
    // Derived titles, descriptions and completions (see containers.doc).
    doc: text("doc", { mode: "json" }).$type<VideoDoc>(),
    docVersion: integer("doc_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("videos_container_state_type_number").on(t.containerId, t.state, t.type, t.number),
    index("videos_container_state_number").on(t.containerId, t.state, t.number),
    // v3 /movies.json: every normal-state movie, newest first.
    index("videos_type_state").on(t.type, t.state, t.id),
  ],
);

/** A text of a container (c), video (v) or list (l) in one language: titles and descriptions alike. */
const localisedText = () => ({
  resourceKind: text("resource_kind", { enum: RESOURCE_KINDS }).notNull(),
  resourceId: integer("resource_id").notNull(),
  language: text("language").notNull(),
  text: text("text").notNull(),
  updatedAt: updatedAt(),
});

/** Titles of containers (c), videos (v) and lists (l), one row per language. */
export const titles = sqliteTable(
  "titles",
  {
    ...localisedText(),
    /**
     * The title as v4 search indexes it (`indexForm`, src/domain/search-text.ts): null when that is the text itself, as
     * for most Latin titles. Written with the text by the title writers (src/db/queries/catalogue-writes.ts, lists.ts);
     * src/db/triggers/search.sql indexes it and refuses a new text written with an old form (docs/decisions.md,
     * "Search (v4)").
     */
    searchText: text("search_text"),
  },
  (t) => [primaryKey({ columns: [t.resourceKind, t.resourceId, t.language] })],
);

export const descriptions = sqliteTable("descriptions", localisedText(), (t) => [
  primaryKey({ columns: [t.resourceKind, t.resourceId, t.language] }),
]);

export const GENRE_SETS = ["general", "music"] as const;

export const genres = sqliteTable(
  "genres",
  {
    id: integer("id").primaryKey(),
    set: text("set", { enum: GENRE_SETS }).notNull(),
    // Listing order inside the set: the interface lists id 16 before id 15.
    position: integer("position").notNull(),
    nameEn: text("name_en").notNull(),
  },
  (t) => [index("genres_set_position").on(t.set, t.position)],
);

export const containerGenres = sqliteTable(
  "container_genres",
  {
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    genreId: integer("genre_id")
      .notNull()
      .references(() => genres.id),
  },
  (t) => [primaryKey({ columns: [t.containerId, t.genreId] }), index("container_genres_genre").on(t.genreId, t.containerId)],
);

export const PLATFORMS = ["mobile", "web", "tv"] as const;

/** Where (region) and on what (platform) a container may be watched: drives watchable_in/platform. */
export const licenses = sqliteTable(
  "licenses",
  {
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    region: text("region").notNull(),
    platform: text("platform", { enum: PLATFORMS }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.containerId, t.region, t.platform] }),
    index("licenses_region_platform").on(t.region, t.platform, t.containerId),
  ],
);

export const lists = sqliteTable("lists", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

const LIST_ITEM_KINDS = ["c", "v"] as const;

export const listItems = sqliteTable(
  "list_items",
  {
    listId: integer("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    resourceKind: text("resource_kind", { enum: LIST_ITEM_KINDS }).notNull(),
    resourceId: integer("resource_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.position] }), uniqueIndex("list_items_resource").on(t.resourceKind, t.resourceId, t.listId)],
);

/**
 * One row per (facet, container) for every listable (normal-state) container, carrying the sort keys, so
 * any single-filter listing in any sort order is one index range scan: the page costs the same at 100
 * containers as at 100,000. Facets: `all`, `public` (hosted and licensed), `type:<t>`, `genre:<id>`,
 * `country:<cc>`, `sub:<lang>` (completion at or above the listing threshold), `family` (not adult),
 * `unhosted`, `unlicensed` (a fan channel's other facets are `x:`-prefixed). Rebuilt by the triggers of
 * src/db/triggers/facets.sql; named in TypeScript by src/domain/facets.ts.
 */
export const containerFacets = sqliteTable(
  "container_facets",
  {
    facet: text("facet").notNull(),
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    views: integer("views").notNull().default(0),
    viewsRecent: integer("views_recent").notNull().default(0),
    trending: integer("trending").notNull().default(0),
    newestVideoAt: integer("newest_video_at").notNull().default(0),
    averageRating: real("average_rating").notNull().default(0),
    releaseDate: text("release_date").notNull().default(""),
    airTime: integer("air_time").notNull().default(0),
    sortTitle: text("sort_title").notNull().default(""),
    // sort=number: normal-state videos of the container's main child type (episodes of a series, ...), from
    // doc.video_counts (the triggers of src/db/triggers/facets.sql).
    videoCount: integer("video_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.containerId, t.facet] }),
    index("facets_views").on(t.facet, t.views, t.containerId),
    index("facets_views_recent").on(t.facet, t.viewsRecent, t.containerId),
    index("facets_trending").on(t.facet, t.trending, t.containerId),
    index("facets_newest_video").on(t.facet, t.newestVideoAt, t.containerId),
    index("facets_average_rating").on(t.facet, t.averageRating, t.containerId),
    index("facets_release_date").on(t.facet, t.releaseDate, t.containerId),
    index("facets_air_time").on(t.facet, t.airTime, t.containerId),
    index("facets_title").on(t.facet, t.sortTitle, t.containerId),
    index("facets_video_count").on(t.facet, t.videoCount, t.containerId),
  ],
);

/** Rows as drizzle reads them: what services return and views render. */
export type ContainerRow = typeof containers.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;
