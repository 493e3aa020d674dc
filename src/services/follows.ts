import type { DB } from "../db/client";
import {
  deleteFollow,
  findAllFollowRefs,
  findFollow,
  findFollowCounts,
  findFollowPage,
  insertFollow,
  loadByIds,
  type FollowRef,
  type FollowRow,
  type FollowTable,
} from "../db/queries/follows";
import { markers, subscriptions } from "../db/schema";
import { ApiError } from "../lib/errors";
import { formatId, tryParseResourceId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { ContainerRow, VideoRow } from "../db/schema";
import { isVisible } from "./access";

/** A user holds at most this many subscriptions, so `ids=true` (which answers them all, unpaged) stays bounded. */
export const MAX_SUBSCRIPTIONS = 10_000;

/** Subscriptions (official applications) and markers: the same rules on two tables. */
export type FollowKind = "subscriptions" | "markers";
const TABLE: Record<FollowKind, FollowTable> = { subscriptions, markers };

type FollowEntry = { kind: "c"; container: ContainerRow } | { kind: "v"; video: VideoRow; container: ContainerRow };
export interface FollowItem {
  entry: FollowEntry;
  /** Unix seconds: when the user subscribed or marked it. */
  at: number;
}

export const followWireId = (ref: FollowRef) => formatId(ref.id, ref.kind);

const isNormal = (e: FollowEntry) => isVisible(e.container, e.kind === "v" ? e.video : undefined);

/**
 * The containers and videos behind some refs, in two batches of primary-key reads (the refs, then the
 * videos' containers not already loaded): about one row per ref.
 */
async function loadEntries(db: DB, refs: FollowRef[]) {
  const loaded = await loadByIds(
    db,
    refs.filter((r) => r.kind === "c").map((r) => r.id),
    refs.filter((r) => r.kind === "v").map((r) => r.id),
  );
  const byId = new Map(loaded.containers.map((c) => [c.id, c]));
  const missing = [...new Set(loaded.videos.map((v) => v.containerId).filter((id) => !byId.has(id)))];
  for (const c of (await loadByIds(db, missing, [])).containers) byId.set(c.id, c);
  const entries = new Map<string, FollowEntry>();
  for (const c of loaded.containers) entries.set(formatId(c.id, "c"), { kind: "c", container: c });
  for (const v of loaded.videos) {
    const container = byId.get(v.containerId);
    if (container) entries.set(formatId(v.id, "v"), { kind: "v", video: v, container });
  }
  return entries;
}

/**
 * The resource a body names: it must exist and be in the normal state (a video's container too), as public
 * reads show it. Malformed ids are refused by the contract (400); anything else is a 404 naming the field.
 */
async function followable(db: DB, raw: string, field = "resource_id") {
  const ref = tryParseResourceId(raw);
  if (!ref) throw ApiError.field(field, "not a container or video id such as 12c or 40v");
  const entry = (await loadEntries(db, [ref])).get(followWireId(ref));
  if (!entry || !isNormal(entry)) throw ApiError.notFoundField(field, `no container or video ${raw}`);
  return { ref, entry };
}

/**
 * Subscribes or marks. Doing it twice is harmless: the first time answers `created: true` (201), later
 * times `created: false` (200) and keep the first time. Subscriptions stop at MAX_SUBSCRIPTIONS (400).
 */
export async function follow(db: DB, kind: FollowKind, userId: number, raw: string): Promise<FollowItem & { created: boolean }> {
  const { ref, entry } = await followable(db, raw);
  const table = TABLE[kind];
  const existing = await findFollow(db, table, userId, ref);
  if (existing) return { entry, at: existing.createdAt, created: false };
  const max = kind === "subscriptions" ? { column: kind, limit: MAX_SUBSCRIPTIONS } : undefined;
  const inserted = await insertFollow(db, table, userId, ref, max);
  if (inserted) return { entry, at: inserted.createdAt, created: true };
  // Nothing inserted: either a concurrent request added it, or the user is at the limit.
  const raced = await findFollow(db, table, userId, ref);
  if (raced) return { entry, at: raced.createdAt, created: false };
  throw ApiError.field("resource_id", `at most ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from something first`);
}

/** Unsubscribes or unmarks; a malformed id or one the user does not follow is a 404. */
export async function unfollow(db: DB, kind: FollowKind, userId: number, raw: string) {
  const ref = tryParseResourceId(raw);
  if (!ref || !(await deleteFollow(db, TABLE[kind], userId, ref))) throw ApiError.notFound();
}

/**
 * One page, newest first: `per_page + 1` refs from the index, then the page's containers and videos. Items
 * deleted or no longer in the normal state have no entry and are left out of the page (the follow stays
 * until it is removed); `count` is the number of follows.
 */
export async function readFollowPage(db: DB, kind: FollowKind, userId: number, p: Paging) {
  const rows = await findFollowPage(db, TABLE[kind], userId, p.offset, p.limit);
  const count = () => countFollows(db, kind, userId);
  if (p.onlyIds) return { rows, items: new Map<string, FollowItem>(), count };
  const page = rows.slice(0, p.perPage);
  const entries = await loadEntries(db, page);
  const items = new Map<string, FollowItem>();
  for (const row of page) {
    const entry = entries.get(followWireId(row));
    if (entry && isNormal(entry)) items.set(followWireId(row), { entry, at: row.createdAt });
  }
  return { rows, items, count };
}

/** The number of follows, from the trigger-kept follow_counts row (one row read). */
export async function countFollows(db: DB, kind: FollowKind, userId: number) {
  return (await findFollowCounts(db, userId))[kind];
}

/** `ids=true`: every subscribed id, newest first, unpaged (at most MAX_SUBSCRIPTIONS). */
export async function allSubscriptionIds(db: DB, userId: number) {
  return (await findAllFollowRefs(db, subscriptions, userId)).map(followWireId);
}

export type { FollowRow };
