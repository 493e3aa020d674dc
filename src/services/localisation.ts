import type { DB } from "../db/client";
import {
  captionInWindow,
  insertCaptionSuggestion,
  subtitleIdRange,
  videoAtSubtitle,
  type CaptionCandidate,
  type TargetDraw,
} from "../db/queries/captions";
import {
  allTranslations,
  containerTranslations,
  findSubtitleContext,
  languageTotals,
  languageTranslations,
  videoTranslations,
  type LanguageTotals,
  type TranslationWalk,
} from "../db/queries/translations";
import { ApiError } from "../lib/errors";
import { formatId, tryParseId } from "../lib/ids";
import type { User } from "../types";
import { isVisible } from "./access";
import { visibleContainer, visibleVideo as visibleVideoAndContainer } from "./catalogue";
import type { Deps } from "./deps";

/** A video's origin language: its own, else its container's. Translations are subtitles in any other. */
export const originLanguage = (video: { originLanguage: string }, container: { originLanguage: string }) =>
  video.originLanguage || container.originLanguage;

/**
 * A video the caller may see, as on the catalogue reads: pending or blocked videos (and videos of
 * containers not in the normal state) are 404 except to the container's managers and staff.
 */
export async function visibleVideo(deps: Deps, user: User | undefined, videoId: number) {
  const { video, container } = await visibleVideoAndContainer(deps, user, videoId);
  return { video, container, origin: originLanguage(video, container) };
}

/** A subtitle of a visible video (3 primary-key reads); anything else is 404. */
export async function visibleSubtitle({ db }: Deps, id: number) {
  const s = await findSubtitleContext(db, id);
  if (!s || !isVisible({ state: s.container_state }, { state: s.video_state })) throw ApiError.notFound();
  return s;
}

/**
 * Originals and translations per language, shared by the translation and caption language lists: the rows of
 * the trigger-kept counts (one per language), so a read costs the number of languages and is always current.
 */
export async function currentLanguageTotals({ db }: Deps): Promise<LanguageTotals[]> {
  return (await languageTotals(db)).map((r) => ({
    language: r.language,
    originals: Number(r.originals),
    translations: Number(r.translations),
  }));
}

/** `[{language, count}]`, most first, languages with a zero count left out. */
export function languageCounts(totals: LanguageTotals[], which: "originals" | "translations") {
  return totals
    .filter((t) => t[which] > 0)
    .map((t) => ({ language: t.language, count: t[which] }))
    .sort((a, b) => b.count - a.count || a.language.localeCompare(b.language));
}

/** The translation list's filters, validated by the contract (ids well-formed, `from` differs from `to`). */
export interface TranslationFilters {
  from?: string;
  to?: string;
  video_id?: string;
  container_id?: string;
}

/**
 * The walk a filter set lists, or undefined when it cannot hold anything (a video whose origin is `to`, or
 * not `from`). An unknown or hidden video or container is 404. No filter: every translation, newest first.
 */
export async function translationWalk(deps: Deps, f: TranslationFilters): Promise<TranslationWalk | undefined> {
  if (f.video_id !== undefined) {
    const { video, origin } = await visibleVideo(deps, undefined, tryParseId(f.video_id, "v")!);
    return (!f.from || f.from === origin) && f.to !== origin ? videoTranslations({ id: video.id, origin }, f.to) : undefined;
  }
  if (f.container_id !== undefined) {
    const container = await visibleContainer(deps, undefined, tryParseId(f.container_id, "c")!);
    return containerTranslations({ id: container.id, origin: container.originLanguage }, f.to!, f.from);
  }
  return f.to ? languageTranslations(f.to, f.from) : allTranslations();
}

export { CAPTION_WINDOW } from "../db/queries/captions";

/** Windows tried before answering 404: two random starts, then the start of the index. */
export const CAPTION_ATTEMPTS = 3;

/** Without `to` this is the other target a draw can fall back on when the catalogue has one language. */
const FALLBACK_TARGET = "en";

/**
 * The languages a caption without `to` may lack: those with subtitles on visible videos (the language counts,
 * one row per language), plus English so there are always two.
 */
async function targetLanguages(db: DB): Promise<string[]> {
  const languages = (await languageTotals(db)).map((t) => t.language);
  return [...new Set([...languages, FALLBACK_TARGET])].sort();
}

/**
 * A random caption to work on: an original subtitle (in `from` when given) whose segment has no subtitle
 * in `to`; without `to`, each candidate is judged against a target drawn from the catalogue's languages
 * (never its own), and the answer names it. Each attempt examines one window of CAPTION_WINDOW subtitles
 * from a random subtitle id (for `from`, from that subtitle's video in the language's index), so a request
 * reads at most CAPTION_ATTEMPTS windows whatever the table size. When every window comes up empty the
 * answer is 404, even if a rare candidate exists elsewhere; asking again draws new windows.
 */
export async function randomCaption(
  { db }: Deps,
  from: string | undefined,
  to: string | undefined,
  random: () => number = Math.random,
): Promise<CaptionCandidate | undefined> {
  const range = await subtitleIdRange(db);
  if (!range?.lo || !range.hi) return undefined;
  const { lo, hi } = range;
  const languages = to ? [] : await targetLanguages(db);
  for (let attempt = 0; attempt < CAPTION_ATTEMPTS; attempt++) {
    // The last window starts at the very beginning of the walk, so the first candidates are always reachable.
    const id = attempt === CAPTION_ATTEMPTS - 1 ? 0 : lo + Math.floor(random() * (hi - lo + 1));
    const videoId = from && id ? await videoAtSubtitle(db, id) : 0;
    if (videoId === undefined) continue;
    const target: string | TargetDraw = to ?? { languages, salt: Math.floor(random() * languages.length) };
    const found = await captionInWindow(db, { videoId, id }, from, target);
    if (found) return found;
  }
  return undefined;
}

/**
 * A user's suggested translation of an original subtitle of a visible video (unknown or hidden: 404). A
 * translation as the origin, or a suggestion in the original's own language, is a 400.
 */
export async function suggestCaption(deps: Deps, userId: number, input: { originSubtitleId: number; language: string; content: string }) {
  const origin = await visibleSubtitle(deps, input.originSubtitleId);
  if (origin.language !== origin.origin) {
    throw ApiError.field("origin_subtitle_id", `${formatId(origin.id, "s")} is a translation, not an original subtitle`);
  }
  if (input.language === origin.language) {
    throw ApiError.field("language", `the suggestion must be in another language than the original's (${origin.language})`);
  }
  return insertCaptionSuggestion(deps.db, { originSubtitleId: origin.id, language: input.language, userId, content: input.content });
}
