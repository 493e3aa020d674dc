import type { BatchItem } from "drizzle-orm/batch";
import { containerMatchesQuery, videoMatchesQuery } from "../db/queries/search";
import { batchWith } from "../db/rider";
import type { ContainerRow, VideoRow } from "../db/schema";
import { CONTAINER_TYPES, VIDEO_TYPES, type ContainerType, type VideoType } from "../domain/catalogue-types";
import { watchableIn } from "../domain/licence";
import { matchTier, searchQuery, tierRank, type MatchTier } from "../domain/search";
import type { ParsedQuery } from "../domain/search-text";
import { ApiError } from "../lib/errors";
import { isVisible } from "./access";
import type { Deps } from "./deps";

/**
 * v4 search (docs/decisions.md, "Search (v4)"). The index is read in id order and only its first matches are
 * ranked: a common word matches thousands of titles, and neither FTS5's bm25 nor an ORDER BY over the matches can
 * stop early, so each kind reads at most this many index rows (two or three rows read per candidate).
 */
export const SEARCH_CONTAINER_CANDIDATES = 100;
export const SEARCH_VIDEO_CANDIDATES = 60;

interface SearchRequest {
  /** The words as the client sent them (trimmed, at most 200 characters). */
  term: string;
  /** The autocomplete form (`c=`): the last word is a prefix, films link to their movie. */
  short: boolean;
  /** Types kept (container and video types); every type when absent. */
  types?: ReadonlyArray<ContainerType | VideoType>;
  /** The viewer's language: titles in it rank first and are the ones shown. */
  language?: string;
  familyFriendly: boolean;
  /** Only what may be watched in this region (the licence rule of the objects' `blocking.geo`). */
  watchableIn?: string;
}

interface Ranked {
  /** The title the short form shows: in the viewer's language, else the best match (English first among equals). */
  title: string;
  inLanguage: boolean;
  tier: MatchTier;
  views: number;
}

export type SearchHit =
  | (Ranked & { kind: "c"; container: ContainerRow; movieId: number | null })
  | (Ranked & { kind: "v"; video: VideoRow; container: ContainerRow });

const isContainerType = (t: string): t is ContainerType => (CONTAINER_TYPES as readonly string[]).includes(t);
const isVideoType = (t: string): t is VideoType => (VIDEO_TYPES as readonly string[]).includes(t);

/** How a resource's titles match: the best tier, whether the viewer's language matched, and the title to show. */
function rank(titles: Record<string, string>, query: ParsedQuery, req: SearchRequest): Omit<Ranked, "views"> {
  const entries = Object.entries(titles).map(([language, text]) => ({ language, text, tier: matchTier(text, query) }));
  // English first among equal tiers, then by language code: the same title shows whatever order the doc holds.
  entries.sort(
    (a, b) => tierRank(a.tier) - tierRank(b.tier) || +(b.language === "en") - +(a.language === "en") || (a.language < b.language ? -1 : 1),
  );
  const best = entries[0];
  const own = req.language === undefined ? undefined : entries.find((e) => e.language === req.language);
  return {
    title: own?.text ?? best?.text ?? "",
    inLanguage: own !== undefined && own.tier !== "other",
    tier: best?.tier ?? "other",
  };
}

/**
 * The order of the answer: titles matching in the viewer's language first (with `language`), then the tier (exact
 * title, title starting with the term, every word in one title, words spread over several titles), then views
 * (most first), then containers before videos, then id: deterministic for equal everything.
 */
function compareHits(a: SearchHit, b: SearchHit) {
  return (
    +b.inLanguage - +a.inLanguage ||
    tierRank(a.tier) - tierRank(b.tier) ||
    b.views - a.views ||
    (a.kind === b.kind ? 0 : a.kind === "c" ? -1 : 1) ||
    (a.kind === "c" ? a.container.id : a.video.id) - (b.kind === "c" ? b.container.id : b.video.id)
  );
}

/**
 * Every ranked hit of a term (at most the two candidate limits together): public containers and normal videos of
 * public containers whose titles, in any language, hold every word (the last as a prefix in the short form). One D1
 * round trip: the two index walks (one when `types` names only one kind) travel in one batch, with the session check
 * of a token-bearing read. A term without words is a 400 naming `field`.
 */
export async function search(deps: Deps, req: SearchRequest, field: string): Promise<SearchHit[]> {
  const query = searchQuery(req.term, req.short);
  if (!query) throw ApiError.field(field, "the term has no words to search for (letters or digits)");
  const { match } = query;
  const containerTypes = req.types?.filter(isContainerType);
  const videoTypes = req.types?.filter(isVideoType);
  const base = { match, familyFriendly: req.familyFriendly };
  const withContainers = !containerTypes || containerTypes.length > 0;
  const withVideos = !videoTypes || videoTypes.length > 0;
  const statements: BatchItem<"sqlite">[] = [];
  if (withContainers) {
    statements.push(
      containerMatchesQuery(deps.db, { ...base, candidates: SEARCH_CONTAINER_CANDIDATES, types: containerTypes, withMovie: req.short }),
    );
  }
  if (withVideos) statements.push(videoMatchesQuery(deps.db, { ...base, candidates: SEARCH_VIDEO_CANDIDATES, types: videoTypes }));
  const results = (await batchWith(deps.db, deps.session, statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  const containerRows = (withContainers ? results[0] : []) as Array<{ container: ContainerRow; movieId: number | null }>;
  const videoRows = (withVideos ? results[withContainers ? 1 : 0] : []) as Array<{ video: VideoRow; container: unknown }>;

  const watchable = (c: ContainerRow) => watchableIn(c, req.watchableIn);
  const hits: SearchHit[] = [];
  for (const row of containerRows) {
    if (!isVisible(row.container) || !watchable(row.container)) continue;
    const ranked = rank(row.container.doc?.titles ?? {}, query, req);
    hits.push({ kind: "c", container: row.container, movieId: row.movieId, views: row.container.views, ...ranked });
  }
  for (const row of videoRows) {
    const container = row.container as ContainerRow;
    if (!isVisible(container, row.video) || !watchable(container)) continue;
    const ranked = rank(row.video.doc?.titles ?? {}, query, req);
    hits.push({ kind: "v", video: row.video, container, views: row.video.views, ...ranked });
  }
  return hits.sort(compareHits);
}
