import { env } from "cloudflare:workers";
import { and, gt, inArray } from "drizzle-orm";
import { expect } from "vitest";
import { jobs } from "../../src/db/schema";
import { registeredRoutes } from "../../src/lib/route-registry";
import { type CacheScope } from "../../src/lib/route-properties";
import { bumpGenerations } from "../../src/services/edge-cache";
import { invalidateCatalogueListings } from "../../src/services/kv-cache";
import { invalidateSubtitleTrack } from "../../src/services/subtitle-tracks";
import { SELF } from "cloudflare:test";
import { ORIGIN, api, db, type ApiInit } from ".";

/**
 * What the public reads of test/middleware/cache-writes.test.ts are about: the objects whose ids fill the path parameters of
 * every `cache: "public"` GET (docs/decisions.md, "Edge cache").
 */
export interface ReadTargets {
  /** Wire ids: a container of each type (the series for /v4/containers/...), a video of the series, a list, a contributor. */
  containers: { series: string; film: string; news: string; artist: string };
  video: string;
  list: string;
  user: string;
  /** Numeric ids, as v3 paths name them: the series, and the film's movie. */
  containerN: number;
  movieN: number;
  /** The v3 client-credentials token public v3 reads are shared under. */
  v3Token: string;
  /** Who may read a subtitle track file (a manager, with the official application). */
  trackReader: { token: string; app: string };
}

/** One read the test compares: the route it stands for (`GET <registry path>`), and the request. */
export interface Read {
  route: string;
  path: string;
  init?: ApiInit;
}

/** A word of the scene's en subtitle lines (`createSubtitles` writes "en 0", "en 1"). */
const SCENE_SUBTITLE_WORD = "en";

/** The languages whose subtitle tracks of `video` the test reads, and drops from KV when it forces everything fresh. */
export const TRACK_LANGUAGES = ["ko", "en", "fr"] as const;

/** The container type each pseudo path shows (`/v4/films/<id>` answers 404 for a series). */
const TYPE_OF_PREFIX: Record<string, keyof ReadTargets["containers"]> = { films: "film", news: "news", artists: "artist" };

export const fill = (path: string, t: ReadTargets) =>
  path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    if (name === "container_id") return t.containers[TYPE_OF_PREFIX[path.split("/")[2]] ?? "series"];
    if (name === "video_id") return t.video;
    if (name === "language_or_id") return "en";
    if (name === "list_id") return t.list;
    if (name === "user_id") return t.user;
    if (name === "id") return String(path.startsWith("/api/v3/movies/") ? t.movieN : t.containerN);
    throw new Error(`no value for the path parameter ${name} of ${path}: add it to fill() in test/helpers/public-reads.ts`);
  });

/** The query a read needs to answer 200 (search terms); v3 reads are shared only under a client-credentials token. */
function queryOf(path: string, t: ReadTargets): Record<string, string> {
  if (path === "/v4/search") return { term: "Invalidation" };
  if (path === "/v4/search/subtitles") return { q: SCENE_SUBTITLE_WORD };
  if (path.startsWith("/api/v3/") || path.startsWith("/v3/"))
    return { access_token: t.v3Token, ...(path === "/api/v3/search" ? { query: "Invalidation" } : {}) };
  return {};
}

/**
 * Every registered `cache: "public"` GET, once, with its parameters filled from `t`; then the subtitle track files of
 * the video, which are not edge-cached (they need a token) but are kept in KV for every reader alike.
 */
export function publicReads(t: ReadTargets): Read[] {
  const edge = registeredRoutes()
    .filter((r) => r.method === "GET" && r.properties.cache === "public")
    // A path that names its own file (`glossary.csv`) is read as it is, without `.json`.
    .map((r) => ({
      route: `GET ${r.path}`,
      path: `${fill(r.path, t)}${r.properties.ownExtension ? "" : ".json"}`,
      init: { query: queryOf(r.path, t) },
    }));
  const tracks = TRACK_LANGUAGES.map((language) => ({
    route: "GET /v4/videos/:video_id/subtitle_tracks/:file",
    path: `/v4/videos/${t.video}/subtitle_tracks/${language}.srt`,
    init: t.trackReader,
  }));
  return [...edge, ...tracks];
}

/** `hit`, `stale` or `miss` from Server-Timing; null when the edge cache was not consulted. */
export const cacheOf = (res: Response) => /cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? null;

export interface Answer {
  status: number;
  body: string;
  cache: string | null;
}

/** An error answer names its request (`request_id`), which differs on every request: left out of the comparison. */
function withoutRequestId(body: string) {
  if (!body.includes('"request_id"')) return body;
  try {
    const { request_id: _, ...rest } = JSON.parse(body) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return body;
  }
}

const queryString = (query: Record<string, string> | undefined) =>
  query && Object.keys(query).length ? `?${new URLSearchParams(query)}` : "";

const BATCH = 8;
/** Reads every read, a few at a time; the answers by path. */
export async function readAll(reads: Read[]): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (let i = 0; i < reads.length; i += BATCH) {
    await Promise.all(
      reads.slice(i, i + BATCH).map(async (r) => {
        // Anonymous reads go straight to the worker (no contract check: the answers are compared, not validated).
        const res = r.init?.token ? await api(r.path, r.init) : await SELF.fetch(`${ORIGIN}${r.path}${queryString(r.init?.query)}`);
        const body = withoutRequestId(new TextDecoder().decode(await res.arrayBuffer()));
        answers.set(r.path, { status: res.status, body, cache: cacheOf(res) });
      }),
    );
  }
  return answers;
}

/**
 * Makes the next read of everything compute its answer again, whatever the writers did: every edge cache generation
 * there is (the catalogue's, each video's) bumped, and the KV documents (catalogue listings, subtitle tracks) dropped.
 */
export async function forceFresh(videoIds: number[]) {
  const known = await env.CACHE.list({ prefix: "gen:" });
  const scopes = new Set<CacheScope>(["catalogue", ...videoIds.map((id) => `video:${id}` as const)]);
  for (const k of known.keys) scopes.add(k.name.slice("gen:".length) as CacheScope);
  await bumpGenerations(env, ...scopes);
  await invalidateCatalogueListings(env.CACHE);
  await Promise.all(videoIds.flatMap((id) => TRACK_LANGUAGES.map((language) => invalidateSubtitleTrack(env.CACHE, id, language))));
  for (const prefix of ["catalogue:", "subtitles:"]) {
    const { keys } = await env.CACHE.list({ prefix });
    await Promise.all(keys.map((k) => env.CACHE.delete(k.name)));
  }
}

/**
 * Waits until every job enqueued after job `since` (and the jobs those enqueue) has finished, run by the real queue
 * consumer, and fails if one failed: a write's effects are complete only when its jobs are.
 */
export async function settleJobs(since: number, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  for (let wait = 5; quiet < 2; wait = Math.min(wait * 2, 50)) {
    if (Date.now() > deadline) throw new Error(`${what}: its jobs did not finish`);
    const open = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(gt(jobs.id, since), inArray(jobs.status, ["queued", "running"])))
      .all();
    quiet = open.length ? 0 : quiet + 1;
    await new Promise((r) => setTimeout(r, wait));
  }
  const failed = await db()
    .select({ id: jobs.id, type: jobs.type, error: jobs.error })
    .from(jobs)
    .where(and(gt(jobs.id, since), inArray(jobs.status, ["failed"])))
    .all();
  expect(failed, `${what}: jobs that failed`).toEqual([]);
}

/** The reads whose answer through the cache (`cached`) differs from the one computed afresh (`fresh`). */
export function staleReads(reads: Read[], cached: Map<string, Answer>, fresh: Map<string, Answer>) {
  return reads
    .filter((r) => {
      const a = cached.get(r.path)!;
      const b = fresh.get(r.path)!;
      return a.status !== b.status || a.body !== b.body;
    })
    .map((r) => {
      const a = cached.get(r.path)!;
      const b = fresh.get(r.path)!;
      return `${r.path} (${r.route}): through the cache ${a.status} (${a.cache ?? "not edge-cached"}), afresh ${b.status}: ${around(a.body, b.body)}`;
    });
}

/** Where two bodies first differ, with a little on each side. */
function around(a: string, b: string) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `«…${a.slice(from, i + 80)}…» against «…${b.slice(from, i + 80)}…»`;
}
