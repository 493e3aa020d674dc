import type { DB } from "../db/client";
import { derivedCountQuery, derivedIdPageQuery, derivedPageQuery, type DerivedFacet } from "../db/queries/derived-lists";
import {
  containerStates,
  countListItemsQuery,
  findList,
  insertList,
  listHead,
  listHeadQuery,
  listItemPageQuery,
  listItemRowsQuery,
  replaceListItems,
  videoStates,
  type ListHeadRow,
  type ListItemFilter,
  type ListItemRef,
  type ListItemRow,
  type ListRow,
} from "../db/queries/lists";
import { batchWith, type Rider } from "../db/rider";
import { ApiError } from "../lib/errors";
import { formatId, tryParseResourceId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { ContainerRow, VideoRow } from "../db/schema";
import { isVisible } from "./access";

/** Lists are curated: a PUT may name at most this many ids, so a list never holds more items. */
export const MAX_LIST_ITEMS = 1000;
/** Id arrays whose JSON is larger than this go to R2 instead of the jobs row. */
export const INLINE_PAYLOAD_LIMIT = 8 * 1024;

type SkipReason = "malformed" | "not found" | "not normal" | "duplicate";
interface Skipped {
  id: string;
  reason: SkipReason;
}

export const createList = (db: DB, titles: Record<string, string>) => insertList(db, titles);

/** A list that exists and may be edited: 404 when missing, then 409 for a derived list (`assertEditable`). */
export async function editableList(db: DB, listId: number) {
  const list = await findList(db, listId);
  if (!list) throw ApiError.notFound();
  assertEditable(list.id);
  return list;
}

interface Candidate {
  index: number;
  raw: string;
  ref: ListItemRef;
}

/** Parses and de-duplicates ids in order: the first occurrence keeps its position. */
function planListEdit(ids: string[]) {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  const skipped: Array<Skipped & { index: number }> = [];
  ids.forEach((raw, index) => {
    const ref = tryParseResourceId(raw);
    if (!ref) skipped.push({ index, id: raw, reason: "malformed" });
    else if (seen.has(raw)) skipped.push({ index, id: raw, reason: "duplicate" });
    else {
      seen.add(raw);
      candidates.push({ index, raw, ref });
    }
  });
  return { candidates, skipped };
}

/**
 * The list-edit job: validates every id (exists, normal state; a video's container must be normal too),
 * then replaces the list's items with the valid ones, in the order given. Replacing the full set is
 * idempotent, so a replay after a crash leaves the same list.
 */
export async function applyListEdit(db: DB, listId: number, ids: string[], progress: (p: number) => Promise<void>) {
  const { candidates, skipped } = planListEdit(ids);
  const cIds = candidates.filter((c) => c.ref.kind === "c").map((c) => c.ref.id);
  const vIds = candidates.filter((c) => c.ref.kind === "v").map((c) => c.ref.id);
  const [cStates, vStates] = await Promise.all([containerStates(db, cIds), videoStates(db, vIds)]);
  await progress(50);

  const items: ListItemRef[] = [];
  for (const c of candidates) {
    let state: "missing" | "normal" | "hidden";
    if (c.ref.kind === "c") {
      const s = cStates.get(c.ref.id);
      state = s === undefined ? "missing" : isVisible({ state: s }) ? "normal" : "hidden";
    } else {
      const s = vStates.get(c.ref.id);
      state = s === undefined ? "missing" : isVisible({ state: s.containerState }, s) ? "normal" : "hidden";
    }
    if (state === "normal") items.push(c.ref);
    else skipped.push({ index: c.index, id: c.raw, reason: state === "missing" ? "not found" : "not normal" });
  }
  await replaceListItems(db, listId, items);
  await progress(90);
  skipped.sort((a, b) => a.index - b.index);
  return {
    list_id: formatId(listId, "l"),
    items: items.length,
    skipped: skipped.map(({ id, reason }) => ({ id, reason })),
  };
}

export type ListEntry = { kind: "c"; container: ContainerRow } | { kind: "v"; video: VideoRow; container: ContainerRow };

export const itemWireId = (ref: ListItemRef) => formatId(ref.id, ref.kind);

/**
 * Built-in lists read from the catalogue (interface: 2l on-air containers, 6l upcoming containers): a
 * container is in them while flagged, with no edit, and their list_items are never read.
 */
export const DERIVED_LISTS: ReadonlyMap<number, DerivedFacet> = new Map([
  [2, "on_air"],
  [6, "upcoming"],
]);
export type ListSource = "curated" | DerivedFacet;

/** PUT on a derived list: 409 naming it, since its items follow the container flags. */
export function assertEditable(listId: number) {
  const facet = DERIVED_LISTS.get(listId);
  if (facet) {
    throw ApiError.conflict(
      `list ${formatId(listId, "l")} is derived from the catalogue (containers flagged ${facet}) and cannot be edited; change the containers' flags.${facet} instead`,
    );
  }
}

interface ListPage {
  list: ListRow;
  titles: Record<string, string>;
  source: ListSource;
  refs: ListItemRef[];
  entries: Map<string, ListEntry>;
  /** The total, for `with_paging=true`. */
  count: () => Promise<number>;
}

/**
 * A list's head (row and titles) and one page of it; null when the list does not exist. One D1 batch, one round
 * trip: the head, the page with its rows (a derived list walks its partial index; a curated one walks its items,
 * probing each item's row and a video's container), the total with `with_paging`, and `rider` (the session check
 * of a token-bearing read) when given.
 */
export async function readList(db: DB, listId: number, filter: ListItemFilter, p: Paging, rider?: Rider): Promise<ListPage | null> {
  const facet = DERIVED_LISTS.get(listId);
  return facet ? readDerived(db, listId, facet, filter, p, rider) : readCurated(db, listId, filter, p, rider);
}

async function readDerived(
  db: DB,
  listId: number,
  facet: DerivedFacet,
  filter: ListItemFilter,
  p: Paging,
  rider?: Rider,
): Promise<ListPage | null> {
  const head = listHeadQuery(db, listId);
  const counter = derivedCountQuery(db, facet, filter);
  const entries = new Map<string, ListEntry>();
  let headRows: ListHeadRow[];
  let refs: ListItemRef[];
  let total: number | undefined;
  if (p.onlyIds) {
    const ids = derivedIdPageQuery(db, facet, filter, p.offset, p.limit);
    const results = p.withPaging ? await batchWith(db, rider, [head, ids, counter]) : await batchWith(db, rider, [head, ids]);
    headRows = results[0];
    refs = results[1].map((r) => ({ kind: "c" as const, id: r.id }));
    total = results[2]?.[0]?.n;
  } else {
    const page = derivedPageQuery(db, facet, filter, p.offset, p.limit);
    const results = p.withPaging ? await batchWith(db, rider, [head, page, counter]) : await batchWith(db, rider, [head, page]);
    headRows = results[0];
    refs = results[1].map((c) => ({ kind: "c" as const, id: c.id }));
    for (const c of results[1]) entries.set(formatId(c.id, "c"), { kind: "c", container: c });
    total = results[2]?.[0]?.n;
  }
  const found = listHead(headRows);
  if (!found) return null;
  return { ...found, source: facet, refs, entries, count: async () => total ?? 0 };
}

/** A page row as a list entry: the container item, or the video with its container. */
const entryOf = (row: ListItemRow): ListEntry =>
  row.kind === "c" ? { kind: "c", container: row.container } : { kind: "v", video: row.video as VideoRow, container: row.container };

async function readCurated(db: DB, listId: number, filter: ListItemFilter, p: Paging, rider?: Rider): Promise<ListPage | null> {
  const head = listHeadQuery(db, listId);
  const counter = countListItemsQuery(db, listId, filter);
  const entries = new Map<string, ListEntry>();
  let headRows: ListHeadRow[];
  let refs: ListItemRef[];
  let counted: Array<{ n: number }> | undefined;
  if (p.onlyIds) {
    const page = listItemPageQuery(db, listId, filter, p.offset, p.limit);
    [headRows, refs, counted] = p.withPaging ? await batchWith(db, rider, [head, page, counter]) : await batchWith(db, rider, [head, page]);
  } else {
    const page = listItemRowsQuery(db, listId, filter, p.offset, p.limit);
    let rows: ListItemRow[];
    [headRows, rows, counted] = p.withPaging ? await batchWith(db, rider, [head, page, counter]) : await batchWith(db, rider, [head, page]);
    refs = rows.map((r) => ({ kind: r.kind, id: r.id }));
    for (const r of rows) entries.set(formatId(r.id, r.kind), entryOf(r));
  }
  const found = listHead(headRows);
  if (!found) return null;
  const total = counted?.[0]?.n ?? 0;
  return { ...found, source: "curated", refs, entries, count: async () => total };
}
