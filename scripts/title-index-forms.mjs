// Fills `titles.search_text` (migration 0040) for titles written before their writers set it: the index form v4 title
// search reads (docs/decisions.md, "Search (v4)"). SQL cannot compute the form (it sets characters of Chinese,
// Japanese, Korean and other unspaced scripts apart and folds width), so the caller passes `indexForm` of
// src/domain/search-text.ts and a way to run SQL: `npm run admin -- search index-titles` through wrangler, the large
// seed (scripts/seed-large.mjs) and the budget tests' seed (test/helpers/large-catalogue.ts) on a D1 binding.
//
// Each page reads TITLE_PAGE titles in rowid order and writes UPDATEs for those whose stored form differs; the
// triggers of src/db/triggers/search.sql re-index each changed title's container or video. A title whose text
// changed between the read and the write is left alone (its writer set its form). Safe to run again: a second run
// reads every title and writes nothing.
//
// Plain ESM, no imports: it must load in Node and in the workerd test runtime alike.

/** Titles read per page (one SELECT, then an UPDATE per UPDATE_BYTES of changed titles). */
export const TITLE_PAGE = 500;
/**
 * Bytes of changed titles one UPDATE carries: D1 takes statements up to 100 KB, and a shell argument (wrangler's
 * `--command`) is cut at 128 KB. A page of 500 long Chinese titles holds about 900 KB of them.
 */
export const UPDATE_BYTES = 60_000;

/** A JSON document as an SQL string literal: JSON escapes control characters, so the literal holds none. */
const jsonLiteral = (value) => `'${JSON.stringify(value).replaceAll("'", "''")}'`;

/** The page of titles after rowid `after`. */
export const titlePageSql = (after) =>
  `SELECT rowid AS r, text AS t, search_text AS s FROM titles WHERE rowid > ${Math.trunc(after)} ORDER BY rowid LIMIT ${TITLE_PAGE}`;

/** One UPDATE setting each `{ r, t, f }`'s form `f` where the row still has the text `t`. */
export const titleFormsUpdateSql = (changes) =>
  `UPDATE titles SET search_text = json_extract(j.value, '$.f') FROM json_each(${jsonLiteral(changes)}) j
   WHERE titles.rowid = json_extract(j.value, '$.r') AND titles.text = json_extract(j.value, '$.t')`;

const utf8 = new TextEncoder();

/** Changes in runs of at most UPDATE_BYTES (their JSON), each at least one change. */
function bySize(changes) {
  const parts = [];
  let part = [];
  let bytes = 0;
  for (const change of changes) {
    const size = utf8.encode(JSON.stringify(change)).length + 1;
    if (part.length && bytes + size > UPDATE_BYTES) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(change);
    bytes += size;
  }
  if (part.length) parts.push(part);
  return parts;
}

/**
 * Walks every title: `run(sql)` answers a statement's rows (a Promise or not). Answers `{ read, written }`, the
 * titles read and the forms written.
 */
export async function fillTitleIndexForms(run, indexForm, onPage = () => {}) {
  let after = 0;
  let read = 0;
  let written = 0;
  for (;;) {
    const rows = await run(titlePageSql(after));
    if (!rows.length) return { read, written };
    const changes = [];
    for (const row of rows) {
      const form = indexForm(row.t);
      if (form !== (row.s ?? null)) changes.push({ r: row.r, t: row.t, f: form });
    }
    for (const part of bySize(changes)) await run(titleFormsUpdateSql(part));
    read += rows.length;
    written += changes.length;
    after = rows[rows.length - 1].r;
    onPage({ read, written });
  }
}
