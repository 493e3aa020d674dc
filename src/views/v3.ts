import { countryName, v3Date } from "../lib/countries";
import type { ContainerRow, VideoRow } from "./catalogue";

export interface V3Context {
  origin: string;
  webOrigin: string;
  /** genre id -> English name */
  genreNames: Map<number, string>;
  /** `language=`: titles and descriptions in it, else English. */
  language?: string;
}

/** The text in the asked language, else English, else any; with the language actually used. */
function pick(map: Record<string, string> | undefined, language?: string): [string, string] {
  const m = map ?? {};
  for (const lang of [language, "en"]) if (lang && m[lang] !== undefined) return [m[lang], lang];
  const first = Object.entries(m)[0];
  return first ? [first[1], first[0]] : ["", ""];
}

function common(c: ContainerRow, ctx: V3Context) {
  const [title, titleLanguage] = pick(c.doc?.titles, ctx.language);
  const [description, descriptionLanguage] = pick(c.doc?.descriptions, ctx.language);
  return {
    id: c.id,
    title,
    title_language: titleLanguage,
    description,
    description_language: descriptionLanguage,
    web_uri: `${ctx.webOrigin}/${c.type === "film" ? "movies" : c.type}/${c.id}`,
    created_at: v3Date(c.createdAt),
    genres: (c.doc?.genres ?? []).filter((g) => ctx.genreNames.has(g)).map((g) => ({ id: g, name: ctx.genreNames.get(g)! })),
    origin_country: countryName(c.originCountry),
    image: c.posterUrl ?? "",
  };
}

export function v3ComingSoon(c: ContainerRow, ctx: V3Context) {
  return { ...common(c, ctx), type: c.type === "film" ? "movie" : "series" };
}

export function v3Series(c: ContainerRow, ctx: V3Context) {
  return {
    ...common(c, ctx),
    uri: `${ctx.origin}/api/v3/series/${c.id}.json`,
    episodes: { count: c.doc?.video_counts?.episode ?? 0, uri: `${ctx.origin}/api/v3/series/${c.id}/episodes.json` },
    subtitles: c.doc?.subtitle_completions ?? {},
  };
}

/** A v3 movie is a film's `movie` video, shown with its film's titles; `channel_id` is the film. */
export function v3Movie(v: VideoRow, c: ContainerRow, ctx: V3Context) {
  return {
    ...common(c, ctx),
    id: v.id,
    created_at: v3Date(v.createdAt),
    uri: `${ctx.origin}/api/v3/movies/${v.id}.json`,
    image: v.posterUrl ?? c.posterUrl ?? "",
    subtitles: v.doc?.subtitle_completions ?? {},
    formats: { flash_embed: `${ctx.webOrigin}/player/${v.id}v` },
    channel_id: c.id,
  };
}

/** Search item: `{type, resource}` with type series, movie, coming_soon or other. */
export function v3SearchItem(c: ContainerRow, movie: VideoRow | undefined, ctx: V3Context) {
  if (c.upcoming) return { type: "coming_soon", resource: { ...common(c, ctx), type: c.type === "film" ? "movie" : "other" } };
  if (c.type === "series") return { type: "series", resource: v3Series(c, ctx) };
  if (c.type === "film" && movie) return { type: "movie", resource: v3Movie(movie, c, ctx) };
  return { type: "other", resource: { ...common(c, ctx), subtitles: c.doc?.subtitle_completions ?? {} } };
}

/** An episode of a v3 series (the `episodes.uri` listing). */
export function v3Episode(v: VideoRow, series: ContainerRow, ctx: V3Context) {
  const [title] = pick(v.doc?.titles, ctx.language);
  return {
    id: v.id,
    number: v.number,
    title: title || `${pick(series.doc?.titles, ctx.language)[0]} ${v.number ?? ""}`.trim(),
    duration: v.duration,
    created_at: v3Date(v.createdAt),
    image: v.posterUrl ?? series.posterUrl ?? "",
    subtitles: v.doc?.subtitle_completions ?? {},
    formats: { flash_embed: `${ctx.webOrigin}/player/${v.id}v` },
    series_id: series.id,
  };
}
