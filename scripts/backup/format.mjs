// The backup file and the SQL a restore runs (docs/decisions.md, "Backups").
//
// A backup is a .sql file: two comment lines (what it is, then `-- backup: {json}` with the migrations it was taken
// at, its tables, full-text indexes and triggers), then wrangler's data-only dump of every ordinary table, then the
// UPDATEs of textFixups (scripts/backup/schema.mjs). Plain SQL, so it can also be read, grepped or loaded by hand.
import { id } from "./schema.mjs";
import { BackupError } from "./target.mjs";

const FORMAT = 1;
const HEADER = "-- backup: ";

export function writeBackup({ source, binding, schema, dump, fixups }) {
  const meta = {
    format: FORMAT,
    created_at: new Date().toISOString(),
    source,
    // Which database of the environment it is (DB, SHARD_<n>); a backup without it is the catalogue's.
    binding,
    migrations: schema.migrations,
    migrations_table: schema.migrationsTable,
    tables: schema.tables.map((t) => t.name),
    fts: schema.fts,
    triggers: schema.triggers,
  };
  return [
    "-- media-catalogue D1 backup (npm run db:backup); load it with npm run db:restore -- --file <this file>",
    HEADER + JSON.stringify(meta),
    dump.trimEnd(),
    ...fixups,
    "",
  ].join("\n");
}

/** The metadata and the data statements of a backup file; throws BackupError when it is not one. */
export function readBackup(text) {
  const lines = text.split("\n", 2);
  if (!lines[1]?.startsWith(HEADER)) throw new BackupError("not a backup written by npm run db:backup (no `-- backup:` line)");
  let meta;
  try {
    meta = JSON.parse(lines[1].slice(HEADER.length));
  } catch {
    throw new BackupError("the `-- backup:` line of the file is not valid JSON: the file is damaged");
  }
  if (meta.format !== FORMAT) throw new BackupError(`backup format ${meta.format}; this checkout reads format ${FORMAT}`);
  const body = text.slice(lines[0].length + lines[1].length + 2);
  return { meta, body };
}

/** Rows per table of a dump: its INSERT lines. */
export function countRows(dump) {
  const counts = new Map();
  for (const m of dump.matchAll(/^INSERT INTO "((?:[^"]|"")+)"/gm)) {
    const name = m[1].replaceAll('""', '"');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/**
 * The restore as one SQL file, run by one `wrangler d1 execute --file`: one transaction locally (a restore that
 * fails leaves the target as it was), one import remotely:
 *  0. the backup's migrations the target lacks (`migrations`: their SQL, in order), and the d1_migrations table
 *     as the source had it; its rows come from the backup, so names and applied_at are the source's;
 *  1. every trigger dropped, so that emptying the tables and loading rows runs no trigger (a count trigger would
 *     add each loaded child to a count the backup already holds);
 *  2. every table emptied (the migrations' reference rows, or an old database's rows with --force) and every
 *     full-text index with it ('delete-all');
 *  3. the index triggers (those that write only to fts5 tables) created again, so that loading a row indexes it
 *     exactly as the application's own insert did. Not fts5's 'rebuild': it indexes every row of the content
 *     table, and titles_fts indexes container titles only (its triggers' WHEN); nor could it refill a contentless
 *     index, which keeps no text to rebuild from;
 *  4. the rows, then the text repairs (their UPDATEs re-index what they repair, as an edit would);
 *  5. sqlite_sequence as the source had it (the inserts of step 4 have just written their own rows into it);
 *  6. every other trigger created again.
 * Foreign keys are checked once, at the end (defer_foreign_keys), as the dump's own order is not the keys' order.
 */
export function restoreSql(meta, body, migrations) {
  const data = mergeInserts(body.replace(/^PRAGMA defer_foreign_keys=TRUE;\n?/m, "")).split("\n");
  const isSequence = (line) => line.startsWith('INSERT INTO "sqlite_sequence" ');
  // A file whose last statement has no `;` would run into the next file's first.
  const terminated = (sql) => (/;\s*(?:--[^\n]*\s*)*$/.test(sql) ? sql.trimEnd() : `${sql.trimEnd()};`);
  return [
    "PRAGMA defer_foreign_keys=TRUE;",
    ...migrations.map(terminated),
    `${meta.migrations_table.replace(/^CREATE TABLE\s+(?!IF NOT EXISTS)/i, "CREATE TABLE IF NOT EXISTS ")};`,
    ...meta.triggers.map((t) => `DROP TRIGGER IF EXISTS ${id(t.name)};`),
    ...meta.tables.map((t) => `DELETE FROM ${id(t)};`),
    ...meta.fts.map((f) => `INSERT INTO ${id(f.name)}(${id(f.name)}) VALUES('delete-all');`),
    ...meta.triggers.filter((t) => t.index).map((t) => `${t.sql};`),
    ...data.filter((line) => !isSequence(line)),
    ...(meta.tables.includes("sqlite_sequence") ? ['DELETE FROM "sqlite_sequence";', ...data.filter(isSequence)] : []),
    ...meta.triggers.filter((t) => !t.index).map((t) => `${t.sql};`),
    "",
  ].join("\n");
}

/**
 * The dump's one INSERT per row as multi-row INSERTs (consecutive rows of a table, up to 200 rows or 50 KB, well
 * under D1's 100 KB statement limit): a local restore runs each statement as its own step, and a row a statement
 * took most of its time. The dump writes each row on one line (line breaks inside texts are escaped), so a line is
 * a row.
 */
export function mergeInserts(data, { rows = 200, bytes = 50_000 } = {}) {
  const out = [];
  let head = null;
  let tuples = [];
  let size = 0;
  const flush = () => {
    if (head) out.push(`${head} ${tuples.join(",")};`);
    head = null;
    tuples = [];
    size = 0;
  };
  for (const line of data.split("\n")) {
    const m = /^(INSERT INTO "(?:[^"]|"")+" \((?:[^)"]|"(?:[^"]|"")*")*\) VALUES)(\(.*\));$/.exec(line);
    if (!m) {
      flush();
      out.push(line);
      continue;
    }
    if (m[1] !== head || tuples.length >= rows || size + m[2].length > bytes) flush();
    head = m[1];
    tuples.push(m[2]);
    size += m[2].length + 1;
  }
  flush();
  return out.join("\n");
}
