import { insertReport } from "../db/queries/subtitle-reports";
import {
  allTranslations,
  castVote,
  containerTranslations,
  hydrateTranslations,
  languageTranslations,
  videoTranslations,
  walkCount,
  walkPage,
  type PageEntry,
  type TranslationRow,
  type TranslationWalk,
  type VoteCounts,
  type WalkAfter,
} from "../db/queries/translations";
import type { ShardDB } from "../db/shards";
import type { Cursor, CursorList } from "../lib/cursor";
import { ApiError } from "../lib/errors";
import { formatId, tryParseId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import type { Deps } from "./deps";
import { originLanguage, visibleContainerPlacement, visibleSubtitle } from "./localisation";
import { keysetAcrossShards, pageAcrossShards, shardMap, type ShardPart, readShard, writeShard, visibleVideoPlacement } from "./shards";

/** The translation list's filters, validated by the contract (ids well-formed, `from` differs from `to`). */
interface TranslationFilters {
  from?: string;
  to?: string;
  video_id?: string;
  container_id?: string;
}

/** One shard's walk of a list. */
interface ShardWalk {
  db: ShardDB;
  walk: TranslationWalk;
}

/**
 * What a filter set lists: one walk on the shard of the video or container it names, or a walk on every shard (a
 * language's translations, every translation) merged in the list's order (docs/decisions.md, "Subtitles on the
 * shards").
 */
interface Listing {
  walks: ShardWalk[];
  /** The shards asked, for a list across shards. */
  parts: ShardPart[];
  /** The order across shards: for a language, video id then subtitle id; for every translation, newest (highest id) first. */
  compare?: (a: PageEntry, b: PageEntry) => number;
  /** The cursor list of a list across shards (docs/decisions.md, "Keyset paging across shards"). */
  list?: CursorList;
  /** Whether the walks start after a cursor: the page is then their first rows, merged. */
  keyset?: boolean;
  /** The walks a count reads when `walks` start after a cursor: the same lists from their start. */
  counted?: ShardWalk[];
}

/** An empty position (a video a language walk passed) sorts before its video's translations, as on its shard. */
const byVideoThenId = (a: PageEntry, b: PageEntry) => a.video_id - b.video_id || (a.id ?? 0) - (b.id ?? 0);
/** Newest first is by creation time, then id: ids come in ranges per shard (docs/decisions.md, "Subtitles on the shards"). */
const newestFirst = (a: PageEntry, b: PageEntry) => b.created_at - a.created_at || (b.id ?? 0) - (a.id ?? 0);

/** The sort key of a position, as the cursor of the page it ends (an empty position's subtitle id is 0: it sorts first). */
const positionOf = (list: CursorList, e: PageEntry): WalkAfter => (list === "l" ? [e.video_id, e.id ?? 0] : [e.created_at, e.id ?? 0]);

/**
 * The position a cursor names in the list the filters make: a list of one video or container pages by `page` only
 * (it is read on one shard), and a cursor of another list is not a position in this one; both are a 400 naming
 * `cursor`.
 */
function cursorPosition(f: TranslationFilters, cursor: Cursor | undefined): WalkAfter | undefined {
  if (!cursor) return undefined;
  if (f.video_id !== undefined || f.container_id !== undefined) {
    throw ApiError.field("cursor", "a cursor pages the lists across every video (to= alone, or no filter); page this one with page=");
  }
  if (cursor.list !== (f.to ? "l" : "t"))
    throw ApiError.field("cursor", "this cursor belongs to another list; send the cursor this list answered");
  return cursor.key;
}

/**
 * The walks a filter set lists, or undefined when it cannot hold anything (a video whose origin is `to`, or
 * not `from`). An unknown or hidden video or container is 404: its catalogue rows and placement are one batch, then
 * its shard. No filter: every translation, newest first. A cursor starts each shard's walk after its position.
 */
async function translationListing(deps: Deps, f: TranslationFilters, cursor?: Cursor): Promise<Listing | undefined> {
  const after = cursorPosition(f, cursor);
  if (f.video_id !== undefined) {
    const { video, container, placement } = await visibleVideoPlacement(deps, undefined, tryParseId(f.video_id, "v")!);
    const origin = originLanguage(video, container);
    if ((f.from && f.from !== origin) || f.to === origin) return undefined;
    return { walks: [{ db: readShard(deps, placement), walk: videoTranslations({ id: video.id, origin }, f.to) }], parts: [] };
  }
  if (f.container_id !== undefined) {
    const { container, placement } = await visibleContainerPlacement(deps, undefined, tryParseId(f.container_id, "c")!);
    const walk = containerTranslations({ id: container.id, origin: container.originLanguage }, f.to!, f.from);
    return { walks: [{ db: readShard(deps, placement), walk }], parts: [] };
  }
  const parts = await shardMap(deps);
  const to = f.to;
  const keyset = after !== undefined;
  const walk = to
    ? (p: ShardPart, at?: WalkAfter) => languageTranslations(to, f.from, p.leftOut, at)
    : (p: ShardPart, at?: WalkAfter) => allTranslations(p.leftOut, at);
  return {
    walks: parts.map((p) => ({ db: p.db, walk: walk(p, after) })),
    // The count is the whole list's, wherever the page starts.
    counted: keyset ? parts.map((p) => ({ db: p.db, walk: walk(p) })) : undefined,
    parts,
    compare: to ? byVideoThenId : newestFirst,
    list: to ? "l" : "t",
    keyset,
  };
}

/** The page's entries, each with the database that holds it. */
async function pageEntries(listing: Listing, p: Paging): Promise<Array<PageEntry & { db: ShardDB }>> {
  const [only] = listing.walks;
  if (listing.walks.length === 1 && only) {
    return (await walkPage(only.db, only.walk, p.offset, p.limit)).map((e) => ({ ...e, db: only.db }));
  }
  const walks = new Map(listing.walks.map((w) => [w.db, w.walk]));
  const read = async (part: ShardPart, limit: number) =>
    (await walkPage(part.db, walks.get(part.db)!, 0, limit)).map((e) => ({ ...e, db: part.db }));
  // An empty position stands for its video (one per video in a language walk).
  const key = (e: PageEntry) => e.id ?? `v${e.video_id}`;
  const compare = listing.compare ?? newestFirst;
  return listing.keyset
    ? keysetAcrossShards(listing.parts, read, compare, p.limit, key)
    : pageAcrossShards(listing.parts, read, compare, p.offset, p.limit, key);
}

/**
 * One page of the translation list (`p.limit` positions, the extra one only telling `more`) with each row's vote
 * counts, and the list's count for `with_paging` (the sum of each shard's, each capped). A position is null where the
 * page has nothing to show: a video a language walk passed without a translation (the walk's bound, docs/decisions.md,
 * "Translations and captions") or a row gone since the walk; `listEnvelope` leaves it out and still counts it for
 * `more`. Filters that cannot hold anything give an empty page. The page is hydrated on the shards that hold its rows,
 * in parallel. `next` is the cursor of the page's last position, on the lists across shards when another page exists.
 */
export async function translationPage(deps: Deps, filters: TranslationFilters, p: Paging) {
  const listing = await translationListing(deps, filters, p.cursor);
  const entries = listing ? await pageEntries(listing, p) : [];
  const last = entries.length > p.perPage ? entries[p.perPage - 1] : undefined;
  const next: Cursor | undefined = listing?.list && last ? { list: listing.list, key: positionOf(listing.list, last) } : undefined;
  // The walk's extra row (it only tells `more`) is hydrated too: one row more, and no gaps if a row vanished.
  const byDb = new Map<ShardDB, Array<PageEntry & { id: number }>>();
  for (const e of entries) if (e.id !== null) byDb.set(e.db, [...(byDb.get(e.db) ?? []), { ...e, id: e.id }]);
  const hydrated = (await Promise.all([...byDb].map(([db, page]) => hydrateTranslations(db, page)))).flat();
  const byId = new Map(hydrated.map((r) => [r.id, r]));
  const rows: Array<TranslationRow | null> = entries.map((e) => (e.id === null ? null : (byId.get(e.id) ?? null)));
  const votes = new Map<number, VoteCounts>(hydrated.map((r) => [r.id, { likes: Number(r.likes), dislikes: Number(r.dislikes) }]));
  return {
    rows,
    votes,
    next,
    count: async () =>
      listing
        ? (await Promise.all((listing.counted ?? listing.walks).map((w) => walkCount(w.db, w.walk)))).reduce((sum, n) => sum + n, 0)
        : 0,
  };
}

/**
 * A user's like (1) or dislike (-1) of a translation of a visible video; an original is a 400. The vote and the
 * counts are one batch on the container's shard, beside the subtitle.
 */
export async function voteOnTranslation(deps: Deps, userId: number, subtitleId: number, value: 1 | -1) {
  const subtitle = await visibleSubtitle(deps, subtitleId);
  if (subtitle.language === subtitle.origin) {
    throw ApiError.field("subtitle_id", `${formatId(subtitle.id, "s")} is an original subtitle, not a translation`);
  }
  const { db } = writeShard(deps, subtitle.placement);
  const counts = await castVote(db, {
    userId,
    subtitleId: subtitle.id,
    containerId: subtitle.container.id,
    videoId: subtitle.video.id,
    value,
  });
  return { subtitleId: subtitle.id, counts };
}

/**
 * A user's report of an original subtitle of a visible video (a translation is a 400). True when it was
 * stored, false when this user had already reported it. The report keeps where the subtitle sits, its text now, its
 * track's last version and the reporter's name, for the moderators of its container (src/services/subtitle-reports.ts).
 */
export async function reportOriginal(deps: Deps, user: Pick<User, "id" | "username">, subtitleId: number, reason: string) {
  const subtitle = await visibleSubtitle(deps, subtitleId);
  if (subtitle.language !== subtitle.origin) {
    throw ApiError.field("subtitle_id", `${formatId(subtitle.id, "s")} is a translation; report its original subtitle`);
  }
  const { db, shard } = writeShard(deps, subtitle.placement);
  return insertReport(db, shard, { userId: user.id, username: user.username, subtitleId: subtitle.id, reason });
}
