import {
  captionInWindow,
  insertCaptionSuggestion,
  subtitleIdSpans,
  suggestionTargetQuery,
  type CaptionCandidate,
  type IdSpan,
  type TargetDraw,
} from "../db/queries/captions";
import { containerQuery, videoWithContainer, videoWithContainerQuery } from "../db/queries/catalogue";
import { containerPlacementQuery, videoPlacementQuery } from "../db/queries/shards";
import { findSubtitleContext, languageTotals, type LanguageTotals } from "../db/queries/translations";
import { batchWith } from "../db/rider";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { User } from "../types";
import { caller, isVisible, requireVisibleContainer } from "./access";
import { type Deps, viewer } from "./deps";
import { findOnShards, shardMap, type ShardPart, writeShard } from "./shards";

/**
 * Translations and captions over the shards (docs/decisions.md, "Translations and captions" and "Subtitles on the
 * shards"): the catalogue says what is visible and where a container's subtitles live; the shards hold them.
 */

/** A video's origin language: its own, else its container's. Translations are subtitles in any other. */
export const originLanguage = (video: { originLanguage: string }, container: { originLanguage: string }) =>
  video.originLanguage || container.originLanguage;

/** A container the caller may see and its placement: one catalogue batch (the session check included). */
export async function visibleContainerPlacement(deps: Deps, user: User | undefined, containerId: number) {
  const { db } = deps;
  const [rows, placed] = await batchWith(db, deps.session, [containerQuery(db, containerId), containerPlacementQuery(db, containerId)]);
  const container = await requireVisibleContainer(caller(db, await viewer(deps, user)), rows[0]);
  if (!placed[0]) throw ApiError.notFound();
  return { container, placement: placed[0] };
}

/**
 * A subtitle named by its id alone, of a video everyone may see (hidden is 404 to all, managers included): asked of
 * the shard its id's range names, then of the others only if that one lacks it (`findOnShards`), then its video, container and placement from the catalogue in one batch
 * (the catalogue is the authority on origins and states). The shard it was found on is not where a write goes: that
 * is the placement's (docs/decisions.md, "Subtitles on the shards", "A row named by its id alone").
 */
export async function visibleSubtitle(deps: Deps, id: number) {
  const { db } = deps;
  const subtitle = await findOnShards(await shardMap(deps), id, (shard) => findSubtitleContext(shard, id));
  if (!subtitle) throw ApiError.notFound();
  const [found, placed] = await batchWith(db, deps.session, [
    videoWithContainerQuery(db, subtitle.video_id),
    videoPlacementQuery(db, subtitle.video_id),
  ]);
  const vc = videoWithContainer(found);
  if (!vc || !placed[0] || !isVisible(vc.container, vc.video)) throw ApiError.notFound();
  return { ...subtitle, origin: originLanguage(vc.video, vc.container), ...vc, placement: placed[0] };
}

/**
 * Originals and translations per language, shared by the translation and caption language lists: the sum of each
 * shard's trigger-kept counts (one row per language per shard, read in parallel), so a read costs the number of
 * languages times the shards and is always current.
 */
export async function currentLanguageTotals(deps: Deps): Promise<LanguageTotals[]> {
  return sumTotals(await Promise.all((await shardMap(deps)).map((part) => languageTotals(part.db, part.leftOut))));
}

function sumTotals(perShard: LanguageTotals[][]): LanguageTotals[] {
  const sums = new Map<string, LanguageTotals>();
  for (const row of perShard.flat()) {
    const sum = sums.get(row.language) ?? { language: row.language, originals: 0, translations: 0 };
    sum.originals += Number(row.originals);
    sum.translations += Number(row.translations);
    sums.set(row.language, sum);
  }
  return [...sums.values()].filter((t) => t.originals > 0 || t.translations > 0);
}

/** `[{language, count}]`, most first, languages with a zero count left out. */
export function languageCounts(totals: LanguageTotals[], which: "originals" | "translations") {
  return totals
    .filter((t) => t[which] > 0)
    .map((t) => ({ language: t.language, count: t[which] }))
    .sort((a, b) => b.count - a.count || a.language.localeCompare(b.language));
}

export { CAPTION_WINDOW } from "../db/queries/captions";

/** Windows tried before answering 404: two random starts, then the start of the index (of every shard). */
export const CAPTION_ATTEMPTS = 3;

/** Without `to` this is the other target a draw can fall back on when the catalogue has one language. */
const FALLBACK_TARGET = "en";

/** A shard's blocks of subtitle ids, for a random start weighted by how many ids each block spans. */
interface ShardSpans {
  part: ShardPart;
  spans: IdSpan[];
}

/** A random subtitle id on a random shard, each id of every block equally likely: ids are dense within a block. */
function randomStart(shards: ShardSpans[], random: () => number) {
  const width = (s: IdSpan) => Number(s.hi) - Number(s.lo) + 1;
  const total = shards.reduce((sum, s) => sum + s.spans.reduce((w, span) => w + width(span), 0), 0);
  let at = Math.floor(random() * total);
  for (const { part, spans } of shards) {
    for (const span of spans) {
      if (at < width(span)) return { part, id: Number(span.lo) + at };
      at -= width(span);
    }
  }
  return undefined;
}

/**
 * A random caption to work on: an original subtitle (in `from` when given) whose segment has no subtitle
 * in `to`; without `to`, each candidate is judged against a target drawn from the catalogue's languages
 * (never its own), and the answer names it. Each shard reports its blocks of subtitle ids (and, without `to`, its
 * language counts) in parallel; an attempt examines one window of CAPTION_WINDOW subtitles from a random subtitle
 * id of a shard chosen by its share of the ids (for `from`, from that subtitle's video in the language's index), and
 * the last one the start of every shard's walk at once. A request reads at most CAPTION_ATTEMPTS + shards - 1
 * windows whatever the table sizes. When every window comes up empty the answer is 404, even if a rare candidate
 * exists elsewhere; asking again draws new windows.
 */
export async function randomCaption(
  deps: Deps,
  from: string | undefined,
  to: string | undefined,
  random: () => number = Math.random,
): Promise<CaptionCandidate | undefined> {
  const parts = await shardMap(deps);
  const [shards, totals] = await Promise.all([
    Promise.all(parts.map(async (part) => ({ part, spans: await subtitleIdSpans(part.db) }))),
    to ? [] : Promise.all(parts.map((part) => languageTotals(part.db, part.leftOut))),
  ]);
  const held = shards.filter((s) => s.spans.length > 0);
  if (!held.length) return undefined;
  const languages = [...new Set([...sumTotals(totals).map((t) => t.language), FALLBACK_TARGET])].sort();
  const target = (): string | TargetDraw => to ?? { languages, salt: Math.floor(random() * languages.length) };
  for (let attempt = 0; attempt < CAPTION_ATTEMPTS - 1; attempt++) {
    const start = randomStart(held, random);
    if (!start) continue;
    const found = await captionInWindow(start.part.db, start.id, from, target(), start.part.leftOut);
    if (found) return found;
  }
  // The last window starts at the very beginning of each shard's walk, so the first candidates are always reachable.
  const draw = target();
  const found = await Promise.all(held.map(({ part }) => captionInWindow(part.db, 0, from, draw, part.leftOut)));
  const hits = found.filter((c): c is CaptionCandidate => c !== undefined);
  return hits.length ? hits[Math.floor(random() * hits.length)] : undefined;
}

/**
 * A user's suggested translation of an original subtitle of a visible video (unknown or hidden: 404). A
 * translation as the origin, or a suggestion in the original's own language, is a 400. Stored on the container's
 * shard, with an id from its range.
 */
export async function suggestCaption(deps: Deps, userId: number, input: { originSubtitleId: number; language: string; content: string }) {
  const origin = await visibleSubtitle(deps, input.originSubtitleId);
  if (origin.language !== origin.origin) {
    throw ApiError.field("origin_subtitle_id", `${formatId(origin.id, "s")} is a translation, not an original subtitle`);
  }
  if (input.language === origin.language) {
    throw ApiError.field("language", `the suggestion must be in another language than the original's (${origin.language})`);
  }
  const { db, shard } = writeShard(deps, origin.placement);
  return insertCaptionSuggestion(db, shard, {
    originSubtitleId: origin.id,
    containerId: origin.container.id,
    videoId: origin.video.id,
    language: input.language,
    userId,
    content: input.content,
  });
}

/**
 * A caption suggestion named by its id alone, with where it would go (the origin subtitle's video, container and
 * segment start), found by `findOnShards` (the issuing shard first); undefined when no shard holds it. The writer that applies it
 * reads the video's catalogue rows and placement itself.
 */
export async function findSuggestionTarget(deps: Deps, suggestionId: number) {
  return findOnShards(await shardMap(deps), suggestionId, (db) => suggestionTargetQuery(db, suggestionId).get());
}
