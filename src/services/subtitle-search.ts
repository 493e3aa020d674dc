import { containerPlacementQuery, type Placement, shardMapQuery, videoPlacementQuery } from "../db/queries/shards";
import { type SubtitleMatch, searchableVideosQuery, subtitleMatchesQuery } from "../db/queries/subtitle-search";
import { batchWith } from "../db/rider";
import type { ShardDB } from "../db/shards";
import type { ContainerRow, VideoRow } from "../db/schema";
import { watchableIn } from "../domain/licence";
import { containsPhrase, highlights } from "../domain/search-highlight";
import { type ParsedQuery, parseQuery } from "../domain/search-text";
import { ApiError } from "../lib/errors";
import { log } from "../lib/log";
import { type Deps, shardDb } from "./deps";
import { type ShardPart, shardTargets } from "./shards";

/**
 * Search inside subtitle lines across the shards (docs/decisions.md, "Subtitle search"). Each shard's index is walked
 * newest line first and only its first SUBTITLE_SEARCH_CANDIDATES matches are ranked: FTS5's bm25 and any ORDER BY over
 * the matches would read every match of a common word or character, so the bound on rows read is this limit, not the
 * query. A query that matches more ranks its newest matches only; narrowing (a language, a container, more words)
 * reaches older ones.
 */
export const SUBTITLE_SEARCH_CANDIDATES = 60;
/**
 * The rows a shard may read for one search, whatever the query (docs/api.md, "Subtitle search (v4)"): each candidate
 * reads its subtitle, segment and two facts rows, and one more with `viewer_language`, so the walk's limit keeps a
 * shard under this. The budget tests hold the shard query to it on 3,000 lines (vitest) and on 2 million
 * (`npm run bench:search -- --check`, in CI).
 */
export const SUBTITLE_SEARCH_ROW_BUDGET = 400;
/** The same bound over every shard a search asks, with the two shards of the local environment. */
export const SUBTITLE_SEARCH_ROW_BUDGET_IN_ALL = 1000;
/** How long a shard may take before the answer goes without it (`incomplete`). */
export const SUBTITLE_SEARCH_SHARD_TIMEOUT_MS = 3000;

export interface SubtitleSearchRequest {
  q: string;
  /** The language of the lines searched; all when absent. */
  language?: string;
  /** The language of `viewer`: the same segment's line in it. */
  viewerLanguage?: string;
  containerId?: number;
  videoId?: number;
  /** Video or container types kept (`type=`); all when absent. */
  types?: readonly string[];
  familyFriendly: boolean;
  watchableIn?: string;
}

export interface SubtitleHit extends SubtitleMatch {
  video: VideoRow;
  container: ContainerRow;
  /** Code-unit ranges of the match in `text`. */
  highlight: Array<[number, number]>;
}

/** A language code as the index's scope token holds it (`zh-TW` is `lzhtw`); the translation memory's too. */
export const languageToken = (language: string) => `l${language.toLowerCase().replace(/-/g, "")}`;

/** The FTS5 expression: the query over the line's text, the scope tokens over `scope`. */
export function scopedMatch(parsed: ParsedQuery, req: SubtitleSearchRequest) {
  const scope = [
    req.language !== undefined ? languageToken(req.language) : undefined,
    req.containerId !== undefined ? `c${req.containerId}` : undefined,
    req.videoId !== undefined ? `v${req.videoId}` : undefined,
  ].filter((t): t is string => t !== undefined);
  return [`{body} : (${parsed.match})`, ...scope.map((t) => `{scope} : "${t}"`)].join(" AND ");
}

/** A shard to ask, its database opened when asked (a shard the map names but the Worker cannot open is a failure). */
export type Target = Omit<ShardPart, "db">;

/**
 * The shards to ask: the one that holds the container (or the video's container) of a scoped search, else every
 * shard of the map. One catalogue batch, with the session check of a token-bearing read. An unknown container or
 * video is a 404 naming the parameter.
 */
async function shardsToAsk(deps: Deps, req: SubtitleSearchRequest): Promise<Target[]> {
  const { db } = deps;
  if (req.videoId !== undefined || req.containerId !== undefined) {
    const placementQuery = req.videoId !== undefined ? videoPlacementQuery(db, req.videoId) : containerPlacementQuery(db, req.containerId!);
    const [rows] = await batchWith(db, deps.session, [placementQuery]);
    const placement = (rows as Placement[])[0];
    if (!placement || (req.containerId !== undefined && placement.containerId !== req.containerId)) {
      const field = req.videoId !== undefined ? "video_id" : "container_id";
      const what =
        field === "video_id"
          ? `no video with this id${req.containerId !== undefined ? " in this container" : ""}`
          : "no container with this id";
      throw ApiError.notFoundField(field, what);
    }
    // Reads follow the directory's shard throughout a move (docs/decisions.md, "Online moves").
    return [{ shard: placement.shard, leftOut: [] }];
  }
  const [map] = await batchWith(db, deps.session, [shardMapQuery(db)]);
  return shardTargets(map);
}

/**
 * One shard's answer, or null when it failed or took longer than the timeout (logged with the shard under `event`).
 * Also the translation memory's (src/services/translation-memory.ts): a read across shards that goes without a slow one.
 */
export async function askShard<T>(
  target: Target,
  openShard: (shard: number) => ShardDB,
  read: (db: ShardDB, target: Target) => Promise<T>,
  event = "subtitle-search",
): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), SUBTITLE_SEARCH_SHARD_TIMEOUT_MS)));
  try {
    const result = await Promise.race([read(openShard(target.shard), target), timeout]);
    if (result === "timeout") {
      log("warn", { event, shard: target.shard, error: `no answer within ${SUBTITLE_SEARCH_SHARD_TIMEOUT_MS} ms` });
      return null;
    }
    return result;
  } catch (err) {
    log("warn", { event, shard: target.shard, error: String(err) });
    return null;
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

/**
 * The order of the answer (docs/api.md, "Subtitle search (v4)"): a line holding the query as one phrase first, then bm25,
 * then the video's views (most first), then video, time, language and id, so equal lines keep one order.
 */
const compareHits = (phrase: Map<number, boolean>) => (a: SubtitleHit, b: SubtitleHit) =>
  +phrase.get(b.id)! - +phrase.get(a.id)! ||
  a.rank - b.rank ||
  b.video.views - a.video.views ||
  a.videoId - b.videoId ||
  a.startMs - b.startMs ||
  (a.language < b.language ? -1 : a.language > b.language ? 1 : 0) ||
  a.id - b.id;

/**
 * Every ranked hit of a query (at most SUBTITLE_SEARCH_CANDIDATES per shard asked), and whether a shard is missing
 * from them. Three round trips: the catalogue (the shards to ask), the shards in parallel, the catalogue (the hits'
 * videos, which the public rule, the filters and the ranking read). `q` that is not a query is a 400 naming it.
 */
export async function searchSubtitles(deps: Deps, req: SubtitleSearchRequest): Promise<{ hits: SubtitleHit[]; incomplete: boolean }> {
  const parsed = parseQuery(req.q);
  if ("error" in parsed) throw ApiError.field("q", parsed.error);
  const parts = await shardsToAsk(deps, req);
  const match = scopedMatch(parsed, req);
  const open = (shard: number) => shardDb(deps, shard);
  const answers = await Promise.all(
    parts.map((part) =>
      askShard(part, open, (db, p) =>
        subtitleMatchesQuery(db, { match, candidates: SUBTITLE_SEARCH_CANDIDATES, viewerLanguage: req.viewerLanguage, leftOut: p.leftOut }),
      ),
    ),
  );
  const incomplete = answers.some((a) => a === null);
  const byId = new Map<number, SubtitleMatch>();
  for (const rows of answers) for (const row of rows ?? []) if (!byId.has(row.id)) byId.set(row.id, row);
  if (!byId.size) return { hits: [], incomplete };

  const videoIds = [...new Set([...byId.values()].map((m) => m.videoId))];
  const found = await searchableVideosQuery(deps.db, videoIds, { types: req.types, familyFriendly: req.familyFriendly }).all();
  const videos = new Map(found.map((r) => [r.video.id, { video: r.video, container: r.container as ContainerRow }]));
  const watchable = (c: ContainerRow) => watchableIn(c, req.watchableIn);
  const hits: SubtitleHit[] = [];
  const phrase = new Map<number, boolean>();
  for (const m of byId.values()) {
    const v = videos.get(m.videoId);
    if (!v || !watchable(v.container)) continue;
    phrase.set(m.id, containsPhrase(m.text, parsed));
    hits.push({ ...m, ...v, highlight: [] });
  }
  hits.sort(compareHits(phrase));
  for (const hit of hits) hit.highlight = highlights(hit.text, parsed);
  return { hits, incomplete };
}
