/**
 * The kinds and states of containers and videos, and the path words clients use for them. They sit here, below the
 * schema, so that facets, views and middleware read one vocabulary without importing a layer above them; the schema
 * types its columns with these lists.
 */
export const CONTAINER_TYPES = ["film", "series", "news", "artist"] as const;
export const VIDEO_TYPES = ["episode", "movie", "clip", "trailer", "music_video", "news_clip"] as const;
export const VIDEO_STATES = ["normal", "pending", "blocked"] as const;
export const CONTAINER_STATES = ["normal", "pending", "blocked"] as const;

export type ContainerType = (typeof CONTAINER_TYPES)[number];
export type VideoType = (typeof VIDEO_TYPES)[number];

/** Pseudo-type path segment of each container type. */
export const PSEUDO_TYPE = { film: "films", series: "series", news: "news", artist: "artists" } as const;

/** The child-count key of each video type, as clients read it. */
export const CHILD_KEY = {
  episode: "episodes",
  movie: "movies",
  news_clip: "news_clips",
  music_video: "music_videos",
  clip: "clips",
  trailer: "trailers",
} as const;
