import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { forgetIsolateTier } from "../src/middleware/cache";
import { forgetGenerations } from "../src/services/edge-cache";

/**
 * Runs before each test file. All files share one runner (vitest.config.ts, `isolate: false`), so the
 * modules and the runtime start once; this gives each file what a fresh runtime would: the real
 * migrations on an empty D1, and empty KV and R2. Tests that list "everything" rely on that.
 */

type Row = Record<string, unknown>;

/** Drops every table, view and trigger the migrations made (D1's own `_cf_` tables and SQLite's stay). */
async function dropSchema(db: D1Database) {
  const { results } = await db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid DESC")
    .all<{ type: string; name: string; sql: string | null }>();
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  // A virtual table owns its shadow tables; dropping those first would break the DROP of the virtual table.
  const virtual = results.filter((r) => r.type === "table" && r.sql?.startsWith("CREATE VIRTUAL TABLE")).map((r) => r.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const tables = results.filter((r) => r.type === "table" && !virtual.includes(r.name) && !shadow(r.name)).map((r) => r.name);
  const drops = [
    ...results.filter((r) => r.type === "trigger").map((r) => `DROP TRIGGER IF EXISTS ${quote(r.name)}`),
    ...results.filter((r) => r.type === "view").map((r) => `DROP VIEW IF EXISTS ${quote(r.name)}`),
    ...virtual.map((name) => `DROP TABLE IF EXISTS ${quote(name)}`),
    ...(await childrenFirst(db, tables)).map((name) => `DROP TABLE IF EXISTS ${quote(name)}`),
  ];
  if (!drops.length) return;
  // The deferred check runs at commit, when no rows are left to violate anything.
  await db.batch([db.prepare("PRAGMA defer_foreign_keys = ON"), ...drops.map((sql) => db.prepare(sql))]);
}

/** Tables ordered so that each comes before the tables its foreign keys reference (a table's DROP needs its parents). */
async function childrenFirst(db: D1Database, tables: string[]) {
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

/**
 * A message an earlier file left in the queue (a retry, the dead-letter queue) names a job id; ids carry on
 * past the earlier files' so it finds no job and is acked, instead of running this file's job of that id.
 */
async function keepIdsGrowing(db: D1Database, before: Row[]) {
  const carried = before.filter((r) => r.name !== "d1_migrations");
  if (!carried.length) return;
  await db.batch(
    carried.flatMap(({ name, seq }) => [
      db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?2) WHERE name = ?1").bind(name, seq),
      db
        .prepare("INSERT INTO sqlite_sequence (name, seq) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)")
        .bind(name, seq),
    ]),
  );
}

async function emptyKv(kv: KVNamespace) {
  let cursor: string | undefined;
  do {
    const page = await kv.list({ cursor });
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

async function emptyR2(bucket: R2Bucket) {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

const hasSequence = await env.DB.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").first();
const sequences = hasSequence ? (await env.DB.prepare("SELECT name, seq FROM sqlite_sequence").all<Row>()).results : [];
await dropSchema(env.DB);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await keepIdsGrowing(env.DB, sequences);
await Promise.all([emptyKv(env.CACHE), emptyR2(env.SUBTITLES)]);
forgetGenerations();
forgetIsolateTier();
