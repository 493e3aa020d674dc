import { type SQL, and, asc, count, eq, getTableColumns, sql } from "drizzle-orm";
import type { DB } from "../client";
import { type GlossaryTermRow, glossaryTerms, videos } from "../schema";

/**
 * A series' glossary (docs/decisions.md, "Glossary"). Every read walks `glossary_terms_container` (container, id);
 * a term is always looked up with its container, so a term id of another series is not found.
 */

/** What a writer sets of a term (its container and times are the queries' own). */
export type GlossaryTermValues = Pick<GlossaryTermRow, "term" | "language" | "translations" | "status" | "note" | "caseSensitive">;

const ofContainer = (containerId: number) => eq(glossaryTerms.containerId, containerId);
const theTerm = (containerId: number, termId: number) => and(ofContainer(containerId), eq(glossaryTerms.id, termId));

/** One page of a series' terms, oldest first. */
export const glossaryPageQuery = (db: DB, containerId: number, offset: number, limit: number) =>
  db.select().from(glossaryTerms).where(ofContainer(containerId)).orderBy(asc(glossaryTerms.id)).limit(limit).offset(offset);

/** Every term of a series (at most GLOSSARY_MAX_TERMS), oldest first: the CSV export and the checks. */
export const allGlossaryTermsQuery = (db: DB, containerId: number) =>
  db.select().from(glossaryTerms).where(ofContainer(containerId)).orderBy(asc(glossaryTerms.id));

/**
 * Every term of a video's series, found from the video (its primary key, then glossary_terms_container): what a
 * track's writer reads for the glossary checks, in the catalogue batch it already sends. Batchable.
 */
export const videoGlossaryQuery = (db: DB, videoId: number) =>
  db
    .select()
    .from(glossaryTerms)
    .where(eq(glossaryTerms.containerId, sql`(SELECT ${videos.containerId} FROM ${videos} WHERE ${videos.id} = ${videoId})`))
    .orderBy(asc(glossaryTerms.id));

export const countGlossaryQuery = (db: DB, containerId: number) =>
  db.select({ n: count() }).from(glossaryTerms).where(ofContainer(containerId));

export const glossaryTermQuery = (db: DB, containerId: number, termId: number) =>
  db.select().from(glossaryTerms).where(theTerm(containerId, termId));

/**
 * Inserts a term only while the series holds fewer than `limit`: the count and the insert are one statement, so two
 * managers adding at once cannot pass the limit together. No row returned means the limit was reached.
 */
export function insertTermWithinLimit(db: DB, containerId: number, v: GlossaryTermValues, limit: number) {
  const values: Record<string, SQL> = {
    id: sql`NULL`,
    containerId: sql`${containerId}`,
    term: sql`${v.term}`,
    language: sql`${v.language}`,
    translations: sql`${JSON.stringify(v.translations)}`,
    status: sql`${v.status}`,
    note: sql`${v.note}`,
    caseSensitive: sql`${v.caseSensitive ? 1 : 0}`,
    createdAt: sql`unixepoch()`,
    updatedAt: sql`unixepoch()`,
  };
  // drizzle names every column of the table in schema order: the values follow that order by name.
  const list = sql.join(
    Object.keys(getTableColumns(glossaryTerms)).map((key) => values[key]),
    sql`, `,
  );
  const below = sql`(SELECT count(*) FROM ${glossaryTerms} WHERE ${glossaryTerms.containerId} = ${containerId}) < ${limit}`;
  return db
    .insert(glossaryTerms)
    .select(sql`SELECT ${list} WHERE ${below}`)
    .returning();
}

export const updateTermQuery = (db: DB, containerId: number, termId: number, set: Partial<GlossaryTermValues>) =>
  db
    .update(glossaryTerms)
    .set({ ...set, updatedAt: sql`unixepoch()` })
    .where(theTerm(containerId, termId))
    .returning();

export const deleteTermQuery = (db: DB, containerId: number, termId: number) =>
  db.delete(glossaryTerms).where(theTerm(containerId, termId)).returning({ id: glossaryTerms.id });

/** A CSV import with `mode=replace` starts from an empty glossary, in the same batch as its inserts. */
export const deleteGlossaryStatement = (containerId: number) =>
  sql`DELETE FROM ${glossaryTerms} WHERE ${glossaryTerms.containerId} = ${containerId}`;

/** JSON of the rows one upsert statement carries at most (one bound value), under D1's statement and value sizes. */
const UPSERT_CHUNK_CHARS = 256 * 1024;

/**
 * Inserts terms, or rewrites the ones the series already has for the same (language, term): the rows of a CSV import
 * as a few statements (one bound JSON array each, split by size), for one batch with the rest of the import.
 */
export function upsertTermsStatements(containerId: number, rows: readonly GlossaryTermValues[]): SQL[] {
  const statements: SQL[] = [];
  let chunk: string[] = [];
  let size = 0;
  const flush = () => {
    if (!chunk.length) return;
    statements.push(sql`INSERT INTO glossary_terms (container_id, term, language, translations, status, note, case_sensitive)
      SELECT ${containerId}, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json(json_extract(value, '$[2]')),
        json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]')
      FROM json_each(${`[${chunk.join(",")}]`}) WHERE true
      ON CONFLICT (container_id, language, term) DO UPDATE SET translations = excluded.translations,
        status = excluded.status, note = excluded.note, case_sensitive = excluded.case_sensitive, updated_at = unixepoch()`);
    chunk = [];
    size = 0;
  };
  for (const r of rows) {
    const item = JSON.stringify([r.term, r.language, r.translations, r.status, r.note, r.caseSensitive ? 1 : 0]);
    if (size + item.length > UPSERT_CHUNK_CHARS) flush();
    chunk.push(item);
    size += item.length + 1;
  }
  flush();
  return statements;
}
