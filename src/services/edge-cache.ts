import { log } from "../lib/log";
import { CREDENTIAL_PARAMS } from "../lib/paging";
import { tryParseId } from "../lib/ids";
import type { CacheScope } from "../lib/route-properties";
import type { MatchedRoute } from "../lib/route-registry";

/**
 * The edge cache of public reads (docs/decisions.md, "Edge cache"): keys, generations and their bumps. The
 * middleware that serves from `caches.default` is `edgeCache` in src/middleware/cache.ts.
 *
 * A key is the request's URL with its query sorted and its credentials removed, under a path prefix that carries
 * what the answer varies on besides the URL (the viewer's region) and the generations of the data it shows. A
 * write bumps a generation in KV, so the next read computes a key nothing is stored under: fresh at once in the
 * location that wrote (KV reads its own writes there), and within KV's propagation (about 60 s) everywhere else.
 */

/** How long a stored answer is served as fresh, then stale while one request refreshes it (Cache-Control). */
export const EDGE_MAX_AGE_SECONDS = 60;
export const EDGE_STALE_SECONDS = 300;

/** `catalogue`: every public catalogue read. `video:<id>`: a video's timed comments, which any user writes. */
type Scope = CacheScope;

const genKey = (scope: Scope) => `gen:${scope}`;

/** Never the same twice, also across a KV that was emptied (tests, a new namespace): a stale entry is never reached. */
const newGeneration = () => `${Date.now().toString(36)}${crypto.getRandomValues(new Uint32Array(1))[0].toString(36)}`;

/**
 * The generations a read depends on: what its route (the request's `route`, src/middleware/context.ts) declares
 * (`cacheScope`, src/lib/route-properties.ts), else all of the catalogue.
 */
export function scopesOf(matched: MatchedRoute | undefined): Scope[] {
  const cacheScope = matched?.route.properties.cacheScope;
  return cacheScope ? cacheScope(matched.params) : ["catalogue"];
}

/** All of the catalogue, and a video's own generation (its timed comments, which any user writes). */
export function videoScopes(wireVideoId: string | undefined): Scope[] {
  const videoId = wireVideoId === undefined ? null : tryParseId(wireVideoId, "v");
  return videoId === null ? ["catalogue"] : ["catalogue", `video:${videoId}`];
}

/**
 * How long an isolate reuses the generations it read. A hit then costs one Cache API lookup and no KV read (the KV
 * read measured about a fifth of a hit's time locally). A bump updates the memo of the isolate that made
 * it at once; the other isolates of the location see it within this bound (docs/decisions.md, "Edge cache").
 */
export const GENERATION_MEMO_MS = 1000;

const memo = new Map<Scope, { gen: string; until: number }>();

/** One entry per video whose comments were read in the last second: bounded by clearing when it grows. */
const MEMO_MAX_ENTRIES = 1000;

function remember(scope: Scope, gen: string, now: number) {
  if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
  memo.set(scope, { gen, until: now + GENERATION_MEMO_MS });
}

/** Test setup empties KV between files: the isolate must not keep generations read from an earlier namespace. */
export function forgetGenerations() {
  memo.clear();
}

/**
 * One KV read per scope not in the memo, in parallel. A missing catalogue generation is created, so that entries
 * stored under an earlier namespace's are never read; a missing video generation is "0" (the catalogue one already
 * tells them apart).
 */
export async function generations(kv: KVNamespace, scopes: Scope[]): Promise<string[]> {
  const now = Date.now();
  return Promise.all(
    scopes.map(async (scope) => {
      const known = memo.get(scope);
      if (known && known.until > now) return known.gen;
      let gen = await kv.get(genKey(scope));
      if (gen === null && scope === "catalogue") {
        gen = newGeneration();
        await kv.put(genKey(scope), gen);
      }
      gen ??= "0";
      remember(scope, gen, now);
      return gen;
    }),
  );
}

/**
 * Called by the write services (and job handlers) after a write that changes what public reads show. KV takes one
 * write a second per key: a refused bump is logged and the write still succeeds; the stored answers then age out
 * within EDGE_MAX_AGE_SECONDS + EDGE_STALE_SECONDS.
 */
export async function bumpGenerations(env: Pick<Env, "CACHE">, ...scopes: Scope[]) {
  await Promise.all(
    scopes.map(async (scope) => {
      const gen = newGeneration();
      remember(scope, gen, Date.now());
      await env.CACHE.put(genKey(scope), gen).catch((err: unknown) =>
        log("error", { event: "edge-cache", message: "edge cache generation not bumped", scope, error: String(err) }),
      );
    }),
  );
}

/** Signature and credential parameters never split (or reach) a key; `sig` requests are not looked up at all. */
const NOT_IN_KEY = new Set(CREDENTIAL_PARAMS);

/**
 * The cache key of a shareable request: the same for any order of the parameters and with or without credentials,
 * different for each region and each generation. The prefix is a path, which no client's path can reach. The
 * values of a repeated parameter keep the order they were sent in: a handler reads the last of a repeated scalar
 * (`?page=3&page=2` is page 2), so sorting them would let `?page=2&page=3` be served page 2 (docs/decisions.md,
 * "Paging ceiling and repeated parameters").
 */
export function edgeKey(url: string, variant: { region?: string }, gens: string[]): string {
  const u = new URL(url);
  const params = [...u.searchParams].filter(([name]) => !NOT_IN_KEY.has(name));
  // Array.prototype.sort is stable: equal names stay in the order sent.
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  return `${u.origin}/__edge/${gens.join(".")}/${variant.region ?? "-"}${u.pathname}${query ? `?${query}` : ""}`;
}

/** fresh: serve; stale: serve and refresh once in the background; expired: a miss (the Cache API also drops it). */
export function freshness(storedAtMs: number, nowMs = Date.now()): "fresh" | "stale" | "expired" {
  const age = (nowMs - storedAtMs) / 1000;
  if (age <= EDGE_MAX_AGE_SECONDS) return "fresh";
  return age <= EDGE_MAX_AGE_SECONDS + EDGE_STALE_SECONDS ? "stale" : "expired";
}
