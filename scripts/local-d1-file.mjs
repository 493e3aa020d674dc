// The test scripts' own reads and set-ups of a local D1 state, straight from its SQLite file (node:sqlite), where a
// `wrangler d1 execute` per statement starts wrangler and workerd again (about 2 s of CPU each; docs/development.md,
// "CI"). Miniflare keeps each database in WAL mode with SQLite's own locking, so a `wrangler dev` on the same state
// reads what is written here at its next statement, and this reads what it committed. What the checks test (the
// admin CLI, db:backup, db:restore) still goes through wrangler as an operator runs it.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The SQLite file of the catalogue (`DB`) in a local state: the one of Miniflare's D1 files that has `table`. */
export function localD1File(persistTo, table = "applications") {
  const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")) {
    const db = new DatabaseSync(join(dir, name), { readOnly: true });
    try {
      if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) return join(dir, name);
    } finally {
      db.close();
    }
  }
  throw new Error(`no local D1 in ${dir} has a table ${table}`);
}

/**
 * The rows of `sql` on the database file, as plain objects (what `d1 execute --json` answers for its first
 * statement). Several statements (`;` between them) run together in one transaction and answer no rows.
 */
export function fileRows(file, sql) {
  const db = new DatabaseSync(file);
  try {
    if (/;\s*\S/.test(sql.trim().replace(/;\s*$/, ""))) {
      db.exec(`BEGIN; ${sql}; COMMIT`);
      return [];
    }
    return db
      .prepare(sql)
      .all()
      .map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}
