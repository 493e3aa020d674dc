import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias, type SQLiteSelect } from "drizzle-orm/sqlite-core";
import { indexForm } from "../../domain/search-text";
import type { DB } from "../client";
import { inChunks } from "./chunks";
import { prefixed } from "./prefixed";
import { CONTAINER_TYPES, containers, listItems, lists, titles, videos, type VIDEO_TYPES } from "../schema";

export type ListRow = typeof lists.$inferSelect;
type ContainerType = (typeof CONTAINER_TYPES)[number];
type VideoType = (typeof VIDEO_TYPES)[number];
const isContainerType = (t: string): t is ContainerType => (CONTAINER_TYPES as readonly string[]).includes(t);
type ListItemKind = "c" | "v";
export interface ListItemRef {
  kind: ListItemKind;
  id: number;
}

/** D1 allows 100 bound parameters per statement: 20 rows of 4 columns stay well inside it. */
const ITEM_ROWS_PER_INSERT = 20;

export const findList = (db: DB, id: number) => db.select().from(lists).where(eq(lists.id, id)).get();

/**
 * A list and its titles in one statement (one row per title; one row with null title fields when it has
 * none; no row when the list does not exist), so a read can batch it with the page.
 */
export const listHeadQuery = (db: DB, id: number) =>
  db
    .select({ id: lists.id, createdAt: lists.createdAt, updatedAt: lists.updatedAt, language: titles.language, text: titles.text })
    .from(lists)
    .leftJoin(titles, and(eq(titles.resourceKind, "l"), eq(titles.resourceId, lists.id)))
    .where(eq(lists.id, id));

export type ListHeadRow = Awaited<ReturnType<ReturnType<typeof listHeadQuery>["all"]>>[number];

/** The list row and its titles map from the rows of `listHeadQuery`; null when the list does not exist. */
export function listHead(rows: ListHeadRow[]): { list: ListRow; titles: Record<string, string> } | null {
  if (!rows.length) return null;
  const { id, createdAt, updatedAt } = rows[0];
  const byLanguage: Record<string, string> = {};
  for (const r of rows) if (r.language !== null && r.text !== null) byLanguage[r.language] = r.text;
  return { list: { id, createdAt, updatedAt }, titles: byLanguage };
}

/**
 * Creates a list and its titles atomically (one D1 batch is one transaction). The titles find the new id
 * as the largest list id: AUTOINCREMENT ids only grow and the batch runs alone on the primary.
 */
export async function insertList(db: DB, listTitles: Record<string, string>) {
  const newId = sql`(SELECT max(${lists.id}) FROM ${lists})`;
  const [[list]] = await db.batch([
    db.insert(lists).values({}).returning(),
    db.insert(titles).values(
      Object.entries(listTitles).map(([language, text]) => ({
        resourceKind: "l" as const,
        resourceId: newId,
        language,
        text,
        // Lists are not searched; every title row keeps its index form all the same (docs/decisions.md, "Search (v4)").
        searchText: indexForm(text),
      })),
    ),
  ]);
  return list;
}

/**
 * Replaces a list's items in one D1 batch (a transaction): delete them all, then insert the new ones in
 * chunks of ITEM_ROWS_PER_INSERT rows, positions 1..n. Readers see the old list or the new one, never a
 * mix, and running it twice leaves the same rows.
 */
export async function replaceListItems(db: DB, listId: number, items: ListItemRef[]) {
  const inserts = [];
  for (let i = 0; i < items.length; i += ITEM_ROWS_PER_INSERT) {
    const chunk = items.slice(i, i + ITEM_ROWS_PER_INSERT);
    inserts.push(
      db.insert(listItems).values(chunk.map((it, j) => ({ listId, position: i + j + 1, resourceKind: it.kind, resourceId: it.id }))),
    );
  }
  await db.batch([
    db.delete(listItems).where(eq(listItems.listId, listId)),
    ...inserts,
    db
      .update(lists)
      .set({ updatedAt: sql`(unixepoch())` })
      .where(eq(lists.id, listId)),
  ]);
}

/** States of the given containers: one statement, primary-key lookups. */
export async function containerStates(db: DB, ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const rows = await inChunks(ids, (chunk) =>
    db.select({ id: containers.id, state: containers.state }).from(containers).where(inArray(containers.id, chunk)).all(),
  );
  return new Map(rows.map((r) => [r.id, r.state]));
}

/** States of the given videos and of their containers: a video shows only when both are normal. */
export async function videoStates(db: DB, ids: number[]) {
  if (!ids.length) return new Map<number, { state: string; containerState: string }>();
  const rows = await inChunks(ids, (chunk) =>
    db
      .select({ id: videos.id, state: videos.state, containerState: sql<string>`${containers.state}`.as("container_state") })
      .from(videos)
      .innerJoin(containers, eq(containers.id, videos.containerId))
      .where(inArray(videos.id, chunk))
      .all(),
  );
  return new Map(rows.map((r) => [r.id, { state: r.state, containerState: r.containerState }]));
}

export interface ListItemFilter {
  /** A container type keeps containers of that type; a video type keeps videos of that type. */
  type?: ContainerType | VideoType;
  genreId?: number;
  originCountry?: string;
  /** Language whose completion must reach `threshold`. */
  subtitleLanguage?: string;
  threshold: number;
}

/** The item's container: the item itself, or a video item's container (one primary-key probe either way). */
const ct = alias(containers, "ct");
const itemContainerId = sql`CASE ${listItems.resourceKind} WHEN 'c' THEN ${listItems.resourceId} ELSE ${videos.containerId} END`;

/**
 * The visible, matching items of a list, walked in position order from the list_items primary key with
 * one primary-key probe for a video item and one for the item's container. Filters read the derived
 * documents already on those rows: genres and origin country are the container's (a video's container
 * for a video), completion the item's own.
 */
function itemConditions(listId: number, f: ListItemFilter) {
  const where: SQL[] = [
    eq(listItems.listId, listId),
    eq(ct.state, "normal"),
    or(eq(listItems.resourceKind, "c"), eq(videos.state, "normal"))!,
  ];
  if (f.type) {
    const type = f.type;
    if (isContainerType(type)) where.push(and(eq(listItems.resourceKind, "c"), eq(ct.type, type))!);
    else where.push(and(eq(listItems.resourceKind, "v"), eq(videos.type, type))!);
  }
  if (f.originCountry) where.push(eq(ct.originCountry, f.originCountry));
  if (f.genreId !== undefined) {
    where.push(sql`EXISTS (SELECT 1 FROM json_each(${ct.doc}, '$.genres') WHERE value = ${f.genreId})`);
  }
  if (f.subtitleLanguage) {
    // The language is validated as [a-z]{2,3}(-[a-z0-9]{2,8})? before it reaches here; quoted for the hyphen.
    const path = `$.subtitle_completions."${f.subtitleLanguage}"`;
    where.push(
      sql`(CASE ${listItems.resourceKind} WHEN 'c' THEN json_extract(${ct.doc}, ${path}) ELSE json_extract(${videos.doc}, ${path}) END) >= ${f.threshold}`,
    );
  }
  return and(...where)!;
}

/** The visible, matching items of a walk over the list's items, in list order, one page of them. */
const visiblePage = <Q extends SQLiteSelect>(query: Q, listId: number, f: ListItemFilter, offset: number, limit: number) =>
  query.where(itemConditions(listId, f)).orderBy(asc(listItems.position)).limit(limit).offset(offset);

/** One page (`limit` = per_page + 1) of the visible, matching items, in list order: refs only. Batchable. */
export function listItemPageQuery(db: DB, listId: number, f: ListItemFilter, offset: number, limit: number) {
  const query = db
    .select({ kind: listItems.resourceKind, id: listItems.resourceId })
    .from(listItems)
    .leftJoin(videos, and(eq(listItems.resourceKind, "v"), eq(videos.id, listItems.resourceId)))
    .innerJoin(ct, eq(ct.id, itemContainerId))
    .$dynamic();
  return visiblePage(query, listId, f, offset, limit);
}

const videoFields = prefixed(videos, "v_");

/**
 * The same page with each item's rows (the container; for a video, the video and its container) in one statement:
 * the walk already reads those rows for its filters, so loading them costs nothing more. Batchable.
 */
export function listItemRowsQuery(db: DB, listId: number, f: ListItemFilter, offset: number, limit: number) {
  const query = db
    .select({ kind: listItems.resourceKind, id: listItems.resourceId, container: ct, video: videoFields })
    .from(listItems)
    .leftJoin(videos, and(eq(listItems.resourceKind, "v"), eq(videos.id, listItems.resourceId)))
    .innerJoin(ct, eq(ct.id, itemContainerId))
    .$dynamic();
  return visiblePage(query, listId, f, offset, limit);
}

export type ListItemRow = Awaited<ReturnType<ReturnType<typeof listItemRowsQuery>["all"]>>[number];

/** Total of visible, matching items, for `with_paging=true` (walks the whole list: at most the list maximum). Batchable. */
export const countListItemsQuery = (db: DB, listId: number, f: ListItemFilter) =>
  db
    .select({ n: count() })
    .from(listItems)
    .leftJoin(videos, and(eq(listItems.resourceKind, "v"), eq(videos.id, listItems.resourceId)))
    .innerJoin(ct, eq(ct.id, itemContainerId))
    .where(itemConditions(listId, f));
