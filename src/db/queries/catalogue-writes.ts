import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { indexForm } from "../../domain/search-text";
import type { DB } from "../client";
import {
  containerGenres,
  containerManagers,
  containers,
  descriptions,
  genres,
  licenses,
  titles,
  users,
  videos,
  type ResourceKind,
} from "../schema";

/**
 * Catalogue writes. Every function returns an unexecuted statement (or several), so a service can run one
 * write as one `db.batch` (one transaction, one round trip). Derived columns (`doc`, `sort_title`,
 * container_facets) are never written here: the triggers of migrations/0003 keep them.
 */
export type Statement = BatchItem<"sqlite">;

/** D1 binds at most 100 parameters per statement. */
const D1_MAX_PARAMS = 100;

/** Splits a multi-row insert so no statement binds more than D1 allows (`paramsPerRow` counts every bound value). */
function chunkRows<T>(rows: T[], paramsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / paramsPerRow));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/**
 * The id of the container (video) inserted earlier in the same batch. A D1 batch is one transaction on the
 * single-writer primary and ids only grow (AUTOINCREMENT), so the newest row is ours.
 */
export const newContainerId = sql<number>`(SELECT max(id) FROM containers)`;
export const newVideoId = sql<number>`(SELECT max(id) FROM videos)`;
type IdRef = number | SQL<number>;

const now = sql`(unixepoch())`;
const textTable = { title: titles, description: descriptions } as const;
export type TextKind = keyof typeof textTable;
/** The container or video a title or description belongs to. */
export type TextOwner = { kind: "c" | "v"; id: number };

// ---- reads that validate a write ----

export const findGenres = (db: DB, ids: number[]) =>
  ids.length ? db.select({ id: genres.id, set: genres.set }).from(genres).where(inArray(genres.id, ids)).all() : Promise.resolve([]);

export const findUserIds = (db: DB, ids: number[]) =>
  ids.length ? db.select({ id: users.id }).from(users).where(inArray(users.id, ids)).all() : Promise.resolve([]);

/** The video types a container holds (any state): a type change must keep fitting them. */
export async function containerVideoTypes(db: DB, containerId: number) {
  const rows = await db.selectDistinct({ type: videos.type }).from(videos).where(eq(videos.containerId, containerId)).all();
  return rows.map((r) => r.type);
}

// ---- containers ----

export const insertContainer = (db: DB, row: typeof containers.$inferInsert) => db.insert(containers).values(row);

export const updateContainerRow = (db: DB, id: number, set: Partial<typeof containers.$inferInsert>) =>
  db
    .update(containers)
    .set({ ...set, updatedAt: now })
    .where(eq(containers.id, id));

export const selectContainer = (db: DB, id: IdRef) => db.select().from(containers).where(eq(containers.id, id));

/** Videos, genres, licences, managers and facets go by foreign key; titles, list items, subscriptions and
 *  markers of the container and its videos by the cleanup triggers. */
export const deleteContainerRow = (db: DB, id: number) => db.delete(containers).where(eq(containers.id, id));

export function insertGenreLinks(db: DB, containerId: IdRef, genreIds: number[]): Statement[] {
  return chunkRows(genreIds, 2).map((ids) => db.insert(containerGenres).values(ids.map((genreId) => ({ containerId, genreId }))));
}
export const deleteGenreLinks = (db: DB, containerId: number) =>
  db.delete(containerGenres).where(eq(containerGenres.containerId, containerId));

export type LicenseRow = { region: string; platform: (typeof licenses.$inferInsert)["platform"] };
export function insertLicenses(db: DB, containerId: IdRef, rows: LicenseRow[]): Statement[] {
  return chunkRows(rows, 3).map((part) => db.insert(licenses).values(part.map((r) => ({ containerId, ...r }))));
}
export const deleteLicenses = (db: DB, containerId: number) => db.delete(licenses).where(eq(licenses.containerId, containerId));

export function insertManagers(db: DB, containerId: IdRef, userIds: number[]): Statement[] {
  return chunkRows(userIds, 2).map((ids) => db.insert(containerManagers).values(ids.map((userId) => ({ containerId, userId }))));
}
export const deleteManagers = (db: DB, containerId: number) =>
  db.delete(containerManagers).where(eq(containerManagers.containerId, containerId));

// ---- videos ----

export const insertVideo = (db: DB, row: typeof videos.$inferInsert) => db.insert(videos).values(row);

export const updateVideoRow = (db: DB, id: number, set: Partial<typeof videos.$inferInsert>) =>
  db
    .update(videos)
    .set({ ...set, updatedAt: now })
    .where(eq(videos.id, id));

export const selectVideo = (db: DB, id: IdRef) => db.select().from(videos).where(eq(videos.id, id));

/** Titles, descriptions, completions, list items, subscriptions and markers go with it (triggers). */
export const deleteVideoRow = (db: DB, id: number) => db.delete(videos).where(eq(videos.id, id));

// ---- titles and descriptions ----

/**
 * A title's columns besides its key: the text and its index form for v4 search, written together (the triggers of
 * src/db/triggers/search.sql index the form and refuse a new text with an old one; docs/decisions.md, "Search (v4)").
 * A description has no index form.
 */
const textColumns = (kind: TextKind, text: string) => (kind === "title" ? { text, searchText: indexForm(text) } : { text });

/** Multi-row insert of a language map (chunked: kind, language, text and a title's index form are bound per row, the id may be SQL). */
export function insertTexts(
  db: DB,
  kind: TextKind,
  resourceKind: ResourceKind,
  resourceId: IdRef,
  map: Record<string, string>,
): Statement[] {
  const table = textTable[kind];
  const rows = Object.entries(map).map(([language, text]) => ({ resourceKind, resourceId, language, ...textColumns(kind, text) }));
  return chunkRows(rows, 5).map((part) => db.insert(table).values(part));
}

/** Create or replace one text (upsert on the primary key: the update triggers rebuild the doc and the search index). */
export function upsertText(db: DB, kind: TextKind, owner: TextOwner, language: string, text: string) {
  const table = textTable[kind];
  return db
    .insert(table)
    .values({ resourceKind: owner.kind, resourceId: owner.id, language, ...textColumns(kind, text) })
    .onConflictDoUpdate({
      target: [table.resourceKind, table.resourceId, table.language],
      set: { ...textColumns(kind, text), updatedAt: now },
    });
}

/** Deletes one text; the returned rows say whether it existed. */
export function deleteText(db: DB, kind: TextKind, owner: TextOwner, language: string) {
  const table = textTable[kind];
  return db
    .delete(table)
    .where(and(eq(table.resourceKind, owner.kind), eq(table.resourceId, owner.id), eq(table.language, language)))
    .returning({ language: table.language });
}

/**
 * Bumps the `updated_at` of the container or video whose text changes. With `onlyIfLanguage`, only when
 * that text exists (so a DELETE of a missing title, which is a 404, changes nothing).
 */
export function touchResource(db: DB, owner: TextOwner, onlyIfText?: { kind: TextKind; language: string }) {
  const target = owner.kind === "c" ? containers : videos;
  let where: SQL | undefined = eq(target.id, owner.id);
  if (onlyIfText) {
    const t = textTable[onlyIfText.kind];
    const exists = sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.resourceKind} = ${owner.kind} AND ${t.resourceId} = ${owner.id}
      AND ${t.language} = ${onlyIfText.language})`;
    where = and(where, exists);
  }
  return db.update(target).set({ updatedAt: now }).where(where);
}
