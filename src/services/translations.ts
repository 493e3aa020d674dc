import { insertReport } from "../db/queries/subtitle-reports";
import { castVote, hydrateTranslations, voteCounts, walkCount, walkPage } from "../db/queries/translations";
import { ApiError } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { Deps } from "./deps";
import { translationWalk, visibleSubtitle, type TranslationFilters } from "./localisation";

/**
 * One page of the translation list (`p.limit` rows, the extra one only telling `more`) with each row's vote
 * counts, and the list's count for `with_paging`. Filters that cannot hold anything give an empty page.
 */
export async function translationPage(deps: Deps, filters: TranslationFilters, p: Paging) {
  const { db } = deps;
  const walk = await translationWalk(deps, filters);
  const page = walk ? await walkPage(db, walk, p.offset, p.limit) : [];
  // The walk's extra row (it only tells `more`) is hydrated too: one row more, and no gaps if a row vanished.
  const ids = page.map((e) => e.id);
  const [rows, votes] = await Promise.all([hydrateTranslations(db, page), voteCounts(db, ids)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    rows: ids.flatMap((id) => byId.get(id) ?? []),
    votes,
    count: async () => (walk ? walkCount(db, walk) : 0),
  };
}

/** A user's like (1) or dislike (-1) of a translation of a visible video; an original is a 400. */
export async function voteOnTranslation(deps: Deps, userId: number, subtitleId: number, value: 1 | -1) {
  const subtitle = await visibleSubtitle(deps, subtitleId);
  if (subtitle.language === subtitle.origin) {
    throw ApiError.field("subtitle_id", `${formatId(subtitle.id, "s")} is an original subtitle, not a translation`);
  }
  return { subtitleId: subtitle.id, counts: await castVote(deps.db, userId, subtitle.id, value) };
}

/**
 * A user's report of an original subtitle of a visible video (a translation is a 400). True when it was
 * stored, false when this user had already reported it. The report keeps where the subtitle sits, its text now and
 * its track's last version, for the moderators of its container (src/services/subtitle-reports.ts).
 */
export async function reportOriginal(deps: Deps, userId: number, subtitleId: number, reason: string) {
  const subtitle = await visibleSubtitle(deps, subtitleId);
  if (subtitle.language !== subtitle.origin) {
    throw ApiError.field("subtitle_id", `${formatId(subtitle.id, "s")} is a translation; report its original subtitle`);
  }
  return insertReport(deps.db, userId, subtitle.id, reason);
}
