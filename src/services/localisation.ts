import type { DB } from "../db/client";
import { captionInWindow, subtitleIdRange, videoAtSubtitle, type CaptionCandidate } from "../db/queries/captions";
import { findVideoWithContainer } from "../db/queries/catalogue";
import { findSubtitleContext, languageTotals, type LanguageTotals } from "../db/queries/translations";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import { canManageContainer } from "./catalogue-access";

/** A video's origin language: its own, else its container's. Translations are subtitles in any other. */
export const originLanguage = (video: { originLanguage: string }, container: { originLanguage: string }) =>
  video.originLanguage || container.originLanguage;

/**
 * A video the caller may see, as on the catalogue reads: pending or blocked videos (and videos of
 * containers not in the normal state) are 404 except to the container's managers and staff.
 */
export async function visibleVideo(db: DB, user: User | undefined, videoId: number) {
  const found = await findVideoWithContainer(db, videoId);
  if (!found) throw ApiError.notFound();
  const { video, container } = found;
  const hidden = video.state !== "normal" || container.state !== "normal";
  if (hidden && !(await canManageContainer(db, user, container.id))) throw ApiError.notFound();
  return { video, container, origin: originLanguage(video, container) };
}

/** A subtitle of a visible video (3 primary-key reads); anything else is 404. */
export async function visibleSubtitle(db: DB, id: number) {
  const s = await findSubtitleContext(db, id);
  if (!s || s.video_state !== "normal" || s.container_state !== "normal") throw ApiError.notFound();
  return s;
}

/** Language counts aggregate the whole subtitles table, so they are cached in KV for this long. */
export const LANGUAGE_COUNTS_TTL_SECONDS = 300;
const LANGUAGE_COUNTS_KEY = "localisation:language-totals:v1";

/**
 * Originals and translations per language, shared by the translation and caption language lists. Built by
 * one grouped query (about one row read per subtitle) at most once per TTL; nothing invalidates it early,
 * so a new language shows up within five minutes.
 */
export async function cachedLanguageTotals(kv: KVNamespace, db: DB): Promise<LanguageTotals[]> {
  const hit = await kv.get<LanguageTotals[]>(LANGUAGE_COUNTS_KEY, "json");
  if (hit !== null) return hit;
  const rows = (await languageTotals(db)).map((r) => ({
    language: r.language,
    originals: Number(r.originals),
    translations: Number(r.translations),
  }));
  await kv.put(LANGUAGE_COUNTS_KEY, JSON.stringify(rows), { expirationTtl: LANGUAGE_COUNTS_TTL_SECONDS });
  return rows;
}

/** `[{language, count}]`, most first, languages with a zero count left out. */
export function languageCounts(totals: LanguageTotals[], which: "originals" | "translations") {
  return totals
    .filter((t) => t[which] > 0)
    .map((t) => ({ language: t.language, count: t[which] }))
    .sort((a, b) => b.count - a.count || a.language.localeCompare(b.language));
}

/** Windows tried before answering 404: two random starts, then the start of the index. */
export const CAPTION_ATTEMPTS = 3;

/**
 * A random caption to work on: an original subtitle (in `from` when given) whose segment has no subtitle
 * in `to`. Each attempt examines one window of CAPTION_WINDOW subtitles from a random subtitle id (for
 * `from`, from that subtitle's video in the language's index), so a request reads at most
 * CAPTION_ATTEMPTS windows whatever the table size. When every window comes up empty the answer is 404,
 * even if a rare candidate exists elsewhere; asking again draws new windows.
 */
export async function randomCaption(
  db: DB,
  from: string | undefined,
  to: string,
  random: () => number = Math.random,
): Promise<CaptionCandidate | undefined> {
  const range = await subtitleIdRange(db);
  if (!range?.lo || !range.hi) return undefined;
  const { lo, hi } = range;
  for (let attempt = 0; attempt < CAPTION_ATTEMPTS; attempt++) {
    // The last window starts at the very beginning of the walk, so the first candidates are always reachable.
    const id = attempt === CAPTION_ATTEMPTS - 1 ? 0 : lo + Math.floor(random() * (hi - lo + 1));
    const videoId = from && id ? await videoAtSubtitle(db, id) : 0;
    if (videoId === undefined) continue;
    const found = await captionInWindow(db, { videoId, id }, from, to);
    if (found) return found;
  }
  return undefined;
}
