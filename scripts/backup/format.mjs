// The backup file and the SQL a restore runs (docs/decisions.md, "Backups"), both streamed a line at a time
// (scripts/backup/lines.mjs): memory stays bounded whatever the database's size, up to D1's 10 GB.
//
// A backup is a .sql file: two comment lines (what it is, then `-- backup: {json}` with the migrations it was taken
// at, its tables, full-text indexes and triggers), then wrangler's data-only dump of every ordinary table, then the
// UPDATEs of textFixups (scripts/backup/schema.mjs). Plain SQL, so it can also be read, grepped or loaded by hand.
import { readLines, writeTexts } from "./lines.mjs";
import { id } from "./schema.mjs";
import { BackupError } from "./target.mjs";

const FORMAT = 1;
const TITLE = "-- media-catalogue D1 backup (npm run db:backup); load it with npm run db:restore -- --file <this file>";
const HEADER = "-- backup: ";
const INSERT = /^INSERT INTO "((?:[^"]|"")+)"/;

/** Counts a dump line in `rows` (a Map of table → rows) when it is a row: the dump writes each row as one INSERT line. */
function countRow(rows, line) {
  const m = INSERT.exec(line);
  if (!m) return;
  const name = m[1].replaceAll('""', '"');
  rows.set(name, (rows.get(name) ?? 0) + 1);
}

/**
 * Writes the backup file `out` (mode 0600) from wrangler's dump (`dumpFile`) and the text repairs (`fixups`, an
 * iterable of UPDATE statements, read as they are written); answers the rows per table and the number of repairs.
 */
export async function writeBackup(out, { source, binding, schema, dumpFile, fixups }) {
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
  const rows = new Map();
  let repaired = 0;
  async function* text() {
    yield `${TITLE}\n${HEADER}${JSON.stringify(meta)}\n`;
    // Blank lines are held until a line follows: the dump's trailing ones are dropped.
    let blank = 0;
    for await (const line of readLines(dumpFile)) {
      if (!line.trim()) {
        blank++;
        continue;
      }
      if (blank) yield "\n".repeat(blank);
      blank = 0;
      countRow(rows, line);
      yield `${line}\n`;
    }
    for (const update of fixups) {
      repaired++;
      yield `${update}\n`;
    }
  }
  await writeTexts(out, text());
  return { rows, repaired };
}

/** The metadata of a backup file (its first two lines, the rest unread); throws BackupError when it is not one. */
export async function readBackupMeta(path) {
  const head = [];
  for await (const line of readLines(path)) {
    head.push(line);
    if (head.length === 2) break;
  }
  if (!head[1]?.startsWith(HEADER)) throw new BackupError("not a backup written by npm run db:backup (no `-- backup:` line)");
  let meta;
  try {
    meta = JSON.parse(head[1].slice(HEADER.length));
  } catch {
    throw new BackupError("the `-- backup:` line of the file is not valid JSON: the file is damaged");
  }
  if (meta.format !== FORMAT) throw new BackupError(`backup format ${meta.format}; this checkout reads format ${FORMAT}`);
  return meta;
}

/** The data statements of a backup file: every line after its two header lines. */
async function* backupBody(path) {
  let n = 0;
  for await (const line of readLines(path)) if (n++ >= 2) yield line;
}

/**
 * Writes the restore of the backup file `file` as one SQL file `out`, run by one `wrangler d1 execute --file`: one
 * transaction locally (a restore that fails leaves the target as it was), one import remotely; answers the rows per
 * table it loads. Its parts:
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
 * The file is read once, as it is written: only sqlite_sequence's rows (one per AUTOINCREMENT table) are held back.
 */
export async function writeRestoreSql(out, { file, meta, migrations }) {
  const rows = new Map();
  // A file whose last statement has no `;` would run into the next file's first.
  const terminated = (sql) => (/;\s*(?:--[^\n]*\s*)*$/.test(sql) ? sql.trimEnd() : `${sql.trimEnd()};`);
  const isSequence = (line) => line.startsWith('INSERT INTO "sqlite_sequence" ');
  async function* data() {
    let pragma = false;
    for await (const line of backupBody(file)) {
      // The dump's own PRAGMA (its first) is the restore's first line already.
      if (!pragma && line === "PRAGMA defer_foreign_keys=TRUE;") {
        pragma = true;
        continue;
      }
      countRow(rows, line);
      yield line;
    }
  }
  async function* text() {
    const lines = [
      "PRAGMA defer_foreign_keys=TRUE;",
      ...migrations.map(terminated),
      `${meta.migrations_table.replace(/^CREATE TABLE\s+(?!IF NOT EXISTS)/i, "CREATE TABLE IF NOT EXISTS ")};`,
      ...meta.triggers.map((t) => `DROP TRIGGER IF EXISTS ${id(t.name)};`),
      ...meta.tables.map((t) => `DELETE FROM ${id(t)};`),
      ...meta.fts.map((f) => `INSERT INTO ${id(f.name)}(${id(f.name)}) VALUES('delete-all');`),
      ...meta.triggers.filter((t) => t.index).map((t) => `${t.sql};`),
    ];
    for (const line of lines) yield `${line}\n`;
    const sequence = [];
    for await (const line of mergeInserts(data())) {
      if (isSequence(line)) sequence.push(line);
      else yield `${line}\n`;
    }
    if (meta.tables.includes("sqlite_sequence")) for (const line of ['DELETE FROM "sqlite_sequence";', ...sequence]) yield `${line}\n`;
    for (const t of meta.triggers.filter((t) => !t.index)) yield `${t.sql};\n`;
  }
  await writeTexts(out, text());
  return rows;
}

/**
 * The dump's one INSERT per row as multi-row INSERTs (consecutive rows of a table, up to 200 rows or 50 KB, well
 * under D1's 100 KB statement limit): a local restore runs each statement as its own step, and a row a statement
 * took most of its time. The dump writes each row on one line (line breaks inside texts are escaped), so a line is
 * a row. `lines`: an async iterable of lines; yields the statements (and every other line as it is), one line each.
 */
export async function* mergeInserts(lines, { rows = 200, bytes = 50_000 } = {}) {
  let head = null;
  let tuples = [];
  let size = 0;
  const flush = () => {
    const statement = head ? `${head} ${tuples.join(",")};` : null;
    head = null;
    tuples = [];
    size = 0;
    return statement;
  };
  for await (const line of lines) {
    const m = /^(INSERT INTO "(?:[^"]|"")+" \((?:[^)"]|"(?:[^"]|"")*")*\) VALUES)(\(.*\));$/.exec(line);
    if (!m) {
      const statement = flush();
      if (statement) yield statement;
      yield line;
      continue;
    }
    if (m[1] !== head || tuples.length >= rows || size + m[2].length > bytes) {
      const statement = flush();
      if (statement) yield statement;
    }
    head = m[1];
    tuples.push(m[2]);
    size += m[2].length + 1;
  }
  const statement = flush();
  if (statement) yield statement;
}
