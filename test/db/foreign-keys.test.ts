// Every foreign key has an index leading on its column(s) (docs/decisions.md, "Every foreign key leads an index").
// Without one, deleting (or re-keying) a parent row makes SQLite scan the whole child table to cascade or check it:
// deleting one empty video read all of subtitle_histories, twice (then in the catalogue; the table is on the shards now). Walks the migrated schema, so a new table or
// migration is covered.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

type ForeignKey = { id: number; seq: number; table: string; from: string };
type IndexEntry = { name: string };
type IndexColumn = { seqno: number; name: string | null };
type TableColumn = { name: string; type: string; pk: number };

const all = async <T>(sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;

async function userTables() {
  const rows = await all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  );
  // Virtual tables (FTS) and their shadow tables carry no foreign keys.
  return rows.filter((r) => !r.sql.startsWith("CREATE VIRTUAL TABLE")).map((r) => r.name);
}

/** The leading columns of every index of a table, plus the rowid alias (a single INTEGER PRIMARY KEY), which is no index. */
async function indexPrefixes(table: string) {
  const prefixes: string[][] = [];
  for (const { name } of await all<IndexEntry>("SELECT name FROM pragma_index_list(?)", table)) {
    const cols = await all<IndexColumn>("SELECT seqno, name FROM pragma_index_info(?) ORDER BY seqno", name);
    prefixes.push(cols.map((c) => c.name ?? "<expr>"));
  }
  const pk = (await all<TableColumn>("SELECT name, type, pk FROM pragma_table_info(?)", table)).filter((c) => c.pk > 0);
  if (pk.length === 1 && pk[0].type.toUpperCase() === "INTEGER") prefixes.push([pk[0].name]);
  return prefixes;
}

/** "table.col" (or "table.(a, b)") for every foreign key whose columns are not the leading columns of an index. */
async function unindexedForeignKeys() {
  const missing: string[] = [];
  for (const table of await userTables()) {
    const keys = await all<ForeignKey>('SELECT id, seq, "table", "from" FROM pragma_foreign_key_list(?) ORDER BY id, seq', table);
    if (!keys.length) continue;
    const prefixes = await indexPrefixes(table);
    const byKey = new Map<number, string[]>();
    for (const k of keys) byKey.set(k.id, [...(byKey.get(k.id) ?? []), k.from]);
    for (const columns of byKey.values()) {
      // The key's columns, in any order, must be the first columns of one index.
      const led = prefixes.some((p) => p.length >= columns.length && columns.every((c) => p.slice(0, columns.length).includes(c)));
      if (!led) missing.push(`${table}.${columns.length === 1 ? columns[0] : `(${columns.join(", ")})`}`);
    }
  }
  return missing.sort();
}

describe("foreign keys of the migrated schema", () => {
  it("the walk sees the schema (tables with foreign keys exist)", async () => {
    const keys = await all<{ n: number }>(
      "SELECT count(*) AS n FROM sqlite_master m, pragma_foreign_key_list(m.name) WHERE m.type = 'table' AND m.name = 'notifications'",
    );
    expect(keys[0].n).toBeGreaterThanOrEqual(3);
  });

  it("every foreign-key column leads an index", async () => {
    expect(await unindexedForeignKeys()).toEqual([]);
  });
});
