/**
 * Dropping a D1's whole schema: test/setup.ts replays the migrations after it, and a test of a migration
 * (test/db/subtitle-contract.test.ts) applies the migrations before it to an empty D1.
 */

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Drops every table, view and trigger the migrations made, and planner statistics (D1's `_cf_` tables and sqlite_sequence stay). */
export async function dropSchema(db: D1Database) {
  const { results } = await db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid DESC")
    .all<{ type: string; name: string; sql: string | null }>();
  const stats = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sqlite_stat%'")
    .all<{ name: string }>();
  // A virtual table owns its shadow tables; dropping those first would break the DROP of the virtual table.
  const virtual = results.filter((r) => r.type === "table" && r.sql?.startsWith("CREATE VIRTUAL TABLE")).map((r) => r.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const tables = results.filter((r) => r.type === "table" && !virtual.includes(r.name) && !shadow(r.name)).map((r) => r.name);
  const drops = [
    ...results.filter((r) => r.type === "trigger").map((r) => `DROP TRIGGER IF EXISTS ${quote(r.name)}`),
    ...results.filter((r) => r.type === "view").map((r) => `DROP VIEW IF EXISTS ${quote(r.name)}`),
    ...virtual.map((name) => `DROP TABLE IF EXISTS ${quote(name)}`),
    ...(await childrenFirst(db, tables)).map((name) => `DROP TABLE IF EXISTS ${quote(name)}`),
    // A fresh D1 has no statistics; left over from an ANALYZE, they would change the query plans.
    ...stats.results.map(({ name }) => `DROP TABLE IF EXISTS ${quote(name)}`),
  ];
  if (!drops.length) return;
  // The deferred check runs at commit, when no rows are left to violate anything.
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = ON"), ...drops.map((sql) => db.prepare(sql))]);
}

/** Tables ordered so that each comes before the tables its foreign keys reference (a table's DROP needs its parents). */
export async function childrenFirst(db: D1Database, tables: string[]) {
  const { results } = await db
    .prepare(
      "SELECT DISTINCT m.name AS child, f.\"table\" AS parent FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%'",
    )
    .all<{ child: string; parent: string }>();
  const parents = new Map(
    tables.map((t) => [t, results.filter((r) => r.child === t && r.parent !== t && tables.includes(r.parent)).map((r) => r.parent)]),
  );
  const order: string[] = [];
  const visit = (t: string) => {
    if (order.includes(t)) return;
    for (const [child, ps] of parents) if (ps.includes(t)) visit(child);
    if (!order.includes(t)) order.push(t);
  };
  tables.forEach(visit);
  return order;
}
