/**
 * The sorts of a container listing (`sort=`). The wire contract offers them and `db/queries/container-listing`
 * maps each to the `container_facets` column its walk follows (a `satisfies` there makes a missing one a type
 * error), so both read this list rather than one importing the other.
 */
export const CONTAINER_SORTS = [
  "views",
  "views_recent",
  "trending",
  "newest_video",
  "average_rating",
  "release_date",
  "viki_air_time",
  "title",
  "number",
] as const;
export type ContainerSort = (typeof CONTAINER_SORTS)[number];
