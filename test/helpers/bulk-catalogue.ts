import { env } from "cloudflare:workers";
import { containerGenres, subtitleCompletions, titles } from "../../src/db/schema";
import { db } from ".";
import { catalogueChanged } from "./catalogue";
import { indexForm } from "../../src/domain/search-text";

/** What a listing test needs to know about a container to predict listings (an in-memory oracle). */
export interface ModelContainer {
  id: number;
  type: "film" | "series" | "news" | "artist";
  country: string;
  hosted: boolean;
  licensed: boolean;
  adult: boolean;
  state: "normal" | "pending" | "blocked";
  views: number;
  viewsRecent: number;
  trending: number;
  averageRating: number;
  releaseDate: string | null;
  airTime: number | null;
  newestVideoAt: number | null;
  title: string;
  genres: number[];
  /** Container completion percent by language. */
  subs: Record<string, number>;
}

export type ModelInput = Omit<ModelContainer, "id">;

const TYPES = ["series", "film", "news", "artist"] as const;
const COUNTRIES = ["kr", "jp", "cn", "us", "tw"];
const WORDS = ["amber", "Boulder", "cedar", "delta", "Ember", "falcon", "garnet", "harbor", "iris", "juniper", "kestrel"];

/** The i-th container of a deterministic, varied catalogue (sort keys deliberately not in id order). */
export function bulkSpec(i: number, tag: string): ModelInput {
  return {
    type: TYPES[i % 4],
    country: COUNTRIES[i % 5],
    hosted: i % 25 !== 7,
    licensed: i % 30 !== 11,
    adult: i % 10 === 3,
    state: i % 40 === 5 ? "pending" : "normal",
    views: (i * 7919) % 1000,
    viewsRecent: (i * 104729) % 500,
    trending: (i * 31) % 97,
    averageRating: ((i * 13) % 100) / 10,
    releaseDate: i % 6 === 0 ? null : `20${10 + (i % 13)}-0${1 + (i % 9)}-1${i % 10}`,
    airTime: i % 4 === 0 ? null : 1_600_000_000 + ((i * 6007) % 100_000),
    newestVideoAt: i % 3 === 0 ? null : 1_700_000_000 + ((i * 7001) % 50_000),
    title: `${WORDS[(i * 7) % WORDS.length]} ${tag} ${i}`,
    genres: [...new Set([(i % 5) + 1, (i % 22) + 1, ((i * 7) % 22) + 1])].sort((a, b) => a - b),
    // 50 is exactly the listing threshold (kept), 49 just under it (not kept).
    subs: i % 3 === 0 ? { en: i % 9 === 0 ? 50 : 80 } : i % 3 === 1 ? { en: 49, es: 50 } : {},
  };
}

const CONTAINER_COLUMNS = [
  "type",
  "origin_country",
  "origin_language",
  "hosted",
  "licensed",
  "adult",
  "state",
  "views",
  "views_recent",
  "trending",
  "average_rating",
  "release_date",
  "air_time",
  "newest_video_at",
];

function chunks<T>(rows: T[], params: number, perRow: number): T[][] {
  const size = Math.max(1, Math.floor(params / perRow));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Bulk inserts (multi-row, at most 90 bound parameters per statement); the triggers build docs and facets. */
export async function insertCatalogue(specs: ModelInput[]): Promise<ModelContainer[]> {
  const made: ModelContainer[] = [];
  // Raw SQL here: drizzle binds every defaulted column too (20 per container row), so only 4 rows would fit.
  for (const part of chunks(specs, 90, CONTAINER_COLUMNS.length)) {
    const placeholders = part.map(() => `(${CONTAINER_COLUMNS.map(() => "?").join(", ")})`).join(", ");
    const values = part.flatMap((s) => [
      s.type,
      s.country,
      "ko",
      s.hosted ? 1 : 0,
      s.licensed ? 1 : 0,
      s.adult ? 1 : 0,
      s.state,
      s.views,
      s.viewsRecent,
      s.trending,
      s.averageRating,
      s.releaseDate,
      s.airTime,
      s.newestVideoAt,
    ]);
    const { results } = await env.DB.prepare(`INSERT INTO containers (${CONTAINER_COLUMNS.join(", ")}) VALUES ${placeholders} RETURNING id`)
      .bind(...values)
      .all<{ id: number }>();
    results.forEach((r, i) => made.push({ ...part[i], id: r.id }));
  }
  const titleRows = made.map((m) => ({
    resourceKind: "c" as const,
    resourceId: m.id,
    language: "en",
    text: m.title,
    searchText: indexForm(m.title),
  }));
  for (const part of chunks(titleRows, 90, 6)) await db().insert(titles).values(part);
  const genreRows = made.flatMap((m) => m.genres.map((genreId) => ({ containerId: m.id, genreId })));
  for (const part of chunks(genreRows, 90, 2)) await db().insert(containerGenres).values(part);
  const subRows = made.flatMap((m) =>
    Object.entries(m.subs).map(([language, percent]) => ({ resourceKind: "c" as const, resourceId: m.id, language, percent })),
  );
  for (const part of chunks(subRows, 90, 5)) await db().insert(subtitleCompletions).values(part);
  await catalogueChanged();
  return made;
}

type Sort = "views" | "views_recent" | "trending" | "newest_video" | "average_rating" | "release_date" | "viki_air_time" | "title";

const KEY: Record<Exclude<Sort, "title">, (m: ModelContainer) => number | string> = {
  views: (m) => m.views,
  views_recent: (m) => m.viewsRecent,
  trending: (m) => m.trending,
  newest_video: (m) => m.newestVideoAt ?? 0,
  average_rating: (m) => m.averageRating,
  release_date: (m) => m.releaseDate ?? "",
  viki_air_time: (m) => m.airTime ?? 0,
};

const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);

/** The wire ids a listing should answer, in order: numeric sorts descending (ties id descending), title ascending. */
export function expectedOrder(model: ModelContainer[], filter: (m: ModelContainer) => boolean, sort: Sort = "views") {
  const rows = model.filter((m) => m.state === "normal" && filter(m));
  if (sort === "title") rows.sort((a, b) => cmp(a.title.toLowerCase(), b.title.toLowerCase()) || a.id - b.id);
  else rows.sort((a, b) => cmp(KEY[sort](b), KEY[sort](a)) || b.id - a.id);
  return rows.map((m) => `${m.id}c`);
}
