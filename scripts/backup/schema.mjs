// What a backup carries and what a restore rebuilds, read from the database itself (sqlite_master and
// PRAGMA table_list), so a new table, trigger or full-text index needs no change here (docs/decisions.md, "Backups").
import { D1Error, execute } from "../admin/d1.mjs";
import { BackupError } from "./target.mjs";

/** A quoted SQL identifier. */
export const id = (name) => `"${name.replaceAll('"', '""')}"`;

/**
 * The source's shape in one `wrangler d1 execute`:
 *   tables     every ordinary table with its columns and primary key (`pk`, empty when it has none), D1's own `_cf_*` tables and the shadow tables of virtual tables left out; `sqlite_sequence` kept, so
 *              AUTOINCREMENT never reuses an id after a restore;
 *   fts        every fts5 table, `external` (content='table') or `contentless` (content=''): its triggers refill it;
 *   triggers   each with its SQL and `index: true` when it writes only to fts5 tables (it keeps an index in step);
 *   migrations the names in d1_migrations, in order, and that table's CREATE statement (`migrationsTable`).
 * Any other virtual table, and an fts5 table keeping its own content, is refused: its rows are in no ordinary table.
 */
export function inspect(target) {
  let results;
  try {
    results = execute(
      target,
      [
        "PRAGMA table_list",
        // D1 does not let its own _cf_ tables be read, not even their columns.
        "SELECT m.name AS tbl, p.name AS col, p.type AS type, p.pk AS pk FROM sqlite_master m JOIN pragma_table_info(m.name) p " +
          "WHERE m.type = 'table' AND m.name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY m.name, p.cid",
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND sql IS NOT NULL ORDER BY rowid",
        "SELECT name FROM d1_migrations ORDER BY id",
      ].join(";\n"),
    );
  } catch (err) {
    if (err instanceof D1Error && err.message.includes("no such table: d1_migrations")) {
      throw new BackupError("the database has no d1_migrations table: no migration was ever applied to it");
    }
    throw err;
  }
  const [list, columns, master, migrations] = results;
  const sqlOf = new Map(master.map((m) => [m.name, m.sql]));
  const main = list.filter((t) => t.schema === "main");

  const fts = [];
  for (const t of main.filter((t) => t.type === "virtual")) {
    const sql = sqlOf.get(t.name) ?? "";
    const module = /\bUSING\s+(\w+)/i.exec(sql)?.[1]?.toLowerCase();
    const content = /[(,]\s*content\s*=\s*(?:'((?:[^']|'')*)'|"((?:[^"]|"")*)"|(\w+))/i.exec(sql);
    if (module !== "fts5" || !content) {
      throw new BackupError(
        `${t.name} is a virtual table (${module ?? "unknown module"}) that keeps its own rows: ` +
          "a backup carries ordinary tables and refills external-content and contentless fts5 indexes only",
      );
    }
    const source = content[1] ?? content[2] ?? content[3];
    fts.push({ name: t.name, kind: source === "" ? "contentless" : "external" });
  }
  const ftsNames = new Set(fts.map((f) => f.name.toLowerCase()));

  const tables = main
    .filter((t) => t.type === "table" && !t.name.startsWith("_cf_") && (!t.name.startsWith("sqlite_") || t.name === "sqlite_sequence"))
    .map((t) => {
      const cols = columns.filter((c) => c.tbl === t.name);
      const pk = cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.col);
      // INTEGER-affinity columns hold no text (an integer that is not one is refused by the app's schema).
      const text = cols.filter((c) => !/INT/i.test(c.type)).map((c) => c.col);
      return { name: t.name, columns: cols.map((c) => c.col), pk, text };
    })
    // sqlite_sequence last: the dump writes it last, after the inserts that would otherwise move it.
    .sort((a, b) => (a.name === "sqlite_sequence") - (b.name === "sqlite_sequence"));

  const triggers = master
    .filter((m) => m.type === "trigger")
    .map((m) => {
      const targets = writeTargets(m.sql);
      return { name: m.name, sql: m.sql, index: targets.length > 0 && targets.every((t) => ftsNames.has(t.toLowerCase())) };
    });

  return { tables, fts, triggers, migrations: migrations.map((m) => m.name), migrationsTable: sqlOf.get("d1_migrations") };
}

/** The tables a trigger's body writes to (INSERT INTO, REPLACE INTO, UPDATE, DELETE FROM). */
function writeTargets(sql) {
  const body = sql.slice(sql.search(/\bBEGIN\b/i));
  const re = /\b(?:(?:INSERT|REPLACE)(?:\s+OR\s+\w+)?\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+(?:[`"[]([^`"\]]+)[`"\]]|(\w+))/gi;
  return [...body.matchAll(re)].map((m) => m[1] ?? m[2]);
}

/**
 * wrangler's dump writes a text with a line break as `replace('…\n…', '\n', char(10))` (and `\r` likewise), so a
 * text holding both a real line break and the two characters `\n` comes back with both as line breaks. This finds
 * such values (`wrangler d1 execute`, a statement per table, the texts with a backslash and a line break) and
 * yields UPDATE statements that put them back from their bytes (`CAST(X'…' AS TEXT)`), appended to the backup after
 * the inserts. A row is found by its primary key, as a restored table's implicit rowids need not be the source's; a
 * table without one by its columns left unrepaired. Read `page` rows per table at a time, in key order (the
 * primary key, or the rowid of a table without one), each round only for the tables whose last page was full, and
 * yielded as read: memory holds a round, whatever the number of such rows.
 */
export function* textFixups(target, tables, { page = 100 } = {}) {
  // Per table: the SQL literals of the last row read (its key's columns), or null before the first page.
  let pending = tables.filter((t) => t.text.length).map((t) => ({ table: t, after: null }));
  while (pending.length) {
    const statements = pending.map(({ table: t, after }) => {
      const values = t.columns.map((c, i) => `quote(${id(c)}) AS q${i}`);
      // Only a table without a primary key needs its rowid (and only such a table surely has one).
      if (!t.pk.length) values.unshift("quote(rowid) AS r");
      const keys = t.pk.length ? t.pk.map(id) : ["rowid"];
      const suspect = t.text.map((c) => `(instr(${id(c)}, '\\') AND (instr(${id(c)}, char(10)) OR instr(${id(c)}, char(13))))`);
      const from = after ? ` AND (${keys.join(", ")}) > (${after.join(", ")})` : "";
      return `SELECT ${values.join(", ")} FROM ${id(t.name)} WHERE (${suspect.join(" OR ")})${from} ORDER BY ${keys.join(", ")} LIMIT ${page}`;
    });
    const results = executeInChunks(target, statements);
    const next = [];
    for (const [i, { table: t }] of pending.entries()) {
      const rows = results[i];
      for (const row of rows) {
        const update = repairRow(t, row);
        if (update) yield update;
      }
      if (rows.length === page) {
        const last = rows.at(-1);
        next.push({ table: t, after: t.pk.length ? t.pk.map((k) => last[`q${t.columns.indexOf(k)}`]) : [last.r] });
      }
    }
    pending = next;
  }
}

/** The UPDATE that puts back a row's broken texts (`row`: its columns as SQL literals), or null when none is. */
function repairRow(t, row) {
  const repaired = t.columns.map((_, i) => {
    const q = row[`q${i}`];
    if (typeof q !== "string" || !q.startsWith("'")) return null;
    const text = q.slice(1, -1).replaceAll("''", "'");
    const broken = (text.includes("\\n") && text.includes("\n")) || (text.includes("\\r") && text.includes("\r"));
    return broken ? Buffer.from(text, "utf8").toString("hex") : null;
  });
  if (repaired.every((r) => r === null)) return null;
  const sets = t.columns.flatMap((c, i) => (repaired[i] ? [`${id(c)} = CAST(X'${repaired[i]}' AS TEXT)`] : []));
  const keys = t.pk.length ? t.pk : t.columns.filter((_, i) => !repaired[i]);
  const where = keys.length ? keys.map((k) => `${id(k)} IS ${row[`q${t.columns.indexOf(k)}`]}`).join(" AND ") : `rowid = ${row.r}`;
  return `UPDATE ${id(t.name)} SET ${sets.join(", ")} WHERE ${where};`;
}

/**
 * `execute` over many statements, in as few `wrangler d1 execute --command` runs as fit: a single argument may not
 * pass 128 KiB on Linux, so each run carries at most about 90 KB of SQL.
 */
function executeInChunks(target, statements, limit = 90_000) {
  const results = [];
  let chunk = [];
  let size = 0;
  const flush = () => {
    if (chunk.length) results.push(...execute(target, chunk.join(";\n")));
    chunk = [];
    size = 0;
  };
  for (const s of statements) {
    if (size + s.length > limit) flush();
    chunk.push(s);
    size += s.length + 2;
  }
  flush();
  return results;
}
