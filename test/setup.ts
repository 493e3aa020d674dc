import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { forgetIsolateTier } from "../src/middleware/cache";
import { forgetGenerations } from "../src/services/edge-cache";
import { childrenFirst, dropSchema, quote } from "./helpers/schema";

/**
 * Runs before each test file. All files share one runner (vitest.config.ts, `isolate: false`), so the
 * modules and the runtime start once; this gives each file what a fresh runtime would: the real
 * migrations on an empty D1, and empty KV and R2. Tests that list "everything" rely on that.
 *
 * Replaying the migrations takes about twenty batches; so the first file replays them and takes a snapshot of
 * the result (the schema, and the few rows the migrations insert), and each later file gets that state back in
 * one batch: the triggers dropped, every table emptied, the migrations' rows put back, the triggers recreated.
 * A D1 whose schema is not the snapshot's (a test added or dropped something, or left planner statistics), or
 * that holds too many rows to empty one by one, gets the full replay instead.
 */

type Row = Record<string, unknown>;
type Statement = { sql: string; binds: unknown[] };

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

/** Every schema object as one comparable line each (sorted: recreated triggers come last in `sqlite_master`). */
async function schemaOf(db: D1Database) {
  const { results } = await db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%'")
    .all<{ type: string; name: string; tbl_name: string; sql: string | null }>();
  return results.map((r) => JSON.stringify([r.type, r.name, r.tbl_name, r.sql])).sort();
}

/** A freshly migrated D1, and the one batch that makes any D1 of the same schema equal to it again. */
interface Fresh {
  schema: string[];
  restore: Statement[];
  /** The row count of every table (shadow tables of full-text indexes too), checked by the restore's last statement. */
  counts: Record<string, number>;
}

/**
 * Kept on the global object: this module runs again for every file, the isolate and its globals live for the
 * whole run. Null (replay every time) when the D1 holds something the restore does not handle.
 */
const FRESH = Symbol.for("catalogue tests: the freshly migrated D1s");
/** Per kind of database (the catalogue, a shard): every shard is migrated alike, so one snapshot serves them all. */
const store = globalThis as { [FRESH]?: Record<string, Fresh | null> };
const freshOf = (kind: string) => (store[FRESH] ??= {})[kind];

/** A column default that reads the clock: a migration's row relying on it gets it evaluated again. */
const CLOCK = /\b(unixepoch|julianday|datetime|date|time|strftime|timediff)\s*\(|\bCURRENT_(TIMESTAMP|DATE|TIME)\b/i;

/**
 * Takes the snapshot of a D1 the migrations have just been applied to, `seconds` after they started. Rows go
 * back with their rowids (the ids a fresh D1 gives them), except for clock defaults the migrations left to
 * the database: those are evaluated again at each restore, as a fresh replay would.
 */
async function snapshot(db: D1Database, seconds: number): Promise<Fresh | null> {
  const master = (
    await db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid")
      .all<{ type: string; name: string; sql: string | null }>()
  ).results;
  const virtual = master.filter((r) => r.type === "table" && r.sql?.startsWith("CREATE VIRTUAL TABLE"));
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v.name}_`));
  const tables = master.filter((r) => r.type === "table" && !virtual.includes(r) && !shadow(r.name));
  const counted = master.filter((r) => r.type === "table" && !virtual.includes(r)).map((r) => r.name);

  // An FTS5 index is emptied through its own commands: `delete-all` when it has external content (or none),
  // a plain DELETE when it keeps its own copy of the text. Any other kind of virtual table: replay instead.
  const emptyVirtual: string[] = [];
  for (const v of virtual) {
    if (!/\bUSING\s+fts5\s*\(/i.test(v.sql!)) return null;
    emptyVirtual.push(
      /\bcontent\s*=/i.test(v.sql!)
        ? `INSERT INTO ${quote(v.name)} (${quote(v.name)}) VALUES ('delete-all')`
        : `DELETE FROM ${quote(v.name)}`,
    );
  }

  type Column = { name: string; type: string; pk: number; hidden: number; dflt_value: string | null };
  const columns = await db.batch<Column>(tables.map((t) => db.prepare("SELECT * FROM pragma_table_xinfo(?)").bind(t.name)));
  const seeds: Statement[] = [];
  for (const [i, table] of tables.entries()) {
    const all = columns[i].results;
    const stored = all.filter((c) => c.hidden === 0);
    const pk = all.filter((c) => c.pk > 0);
    // A rowid table without an INTEGER PRIMARY KEY (the rowid under another name) keeps its rowid apart.
    const rowid = !/\bWITHOUT\s+ROWID\b/i.test(table.sql!) && !(pk.length === 1 && pk[0].type.toUpperCase() === "INTEGER");
    const names = [...(rowid ? ["rowid"] : []), ...stored.map((c) => c.name)];
    const rows = await db.prepare(`SELECT ${names.map(quote).join(", ")} FROM ${quote(table.name)}`).raw();
    if (!rows.length) continue;
    const clock = new Map<string, unknown>();
    for (const c of stored.filter((c) => c.dflt_value && CLOCK.test(c.dflt_value))) {
      clock.set(c.name, (await db.prepare(`SELECT (${c.dflt_value}) AS now`).first<{ now: unknown }>())!.now);
    }
    for (const row of rows) {
      if (row.some((v) => v !== null && typeof v === "object")) return null; // blobs: not worth a round trip here
      const kept = names.map((name, j) => [name, row[j]] as const).filter(([name, v]) => !defaulted(v, clock.get(name), seconds));
      seeds.push({
        sql: `INSERT INTO ${quote(table.name)} (${kept.map(([n]) => quote(n)).join(", ")}) VALUES (${kept.map(() => "?").join(", ")})`,
        binds: kept.map(([, v]) => v),
      });
    }
  }

  const triggers = master.filter((r) => r.type === "trigger");
  const counts = (await db.prepare(countsSql(counted)).first<Record<string, number>>())!;
  const order = await childrenFirst(
    db,
    tables.map((t) => t.name),
  );
  return {
    schema: await schemaOf(db),
    counts,
    restore: [
      "PRAGMA defer_foreign_keys = ON",
      // Emptying and refilling must not fire them (their derived rows would not be the migrations').
      ...triggers.map((t) => `DROP TRIGGER ${quote(t.name)}`),
      ...emptyVirtual,
      // sqlite_sequence is not emptied: ids keep growing across files (keepIdsGrowing).
      ...order.map((name) => `DELETE FROM ${quote(name)}`),
    ]
      .map((sql): Statement => ({ sql, binds: [] }))
      .concat(seeds)
      .concat(triggers.map((t) => ({ sql: t.sql!, binds: [] })))
      .concat({ sql: countsSql(counted), binds: [] }),
  };
}

/** Was this value the clock default (`now` at the snapshot), filled in while the migrations ran? */
function defaulted(value: unknown, now: unknown, seconds: number) {
  if (now === undefined || value === null || typeof value !== typeof now) return false;
  if (value === now) return true;
  const span = Math.ceil(seconds) + 1;
  if (typeof value === "number") return (now as number) - value > 0 && (now as number) - value <= span;
  const at = (s: unknown) => Date.parse(`${String(s).replace(" ", "T")}Z`);
  const ms = at(now) - at(value);
  return ms > 0 && ms <= span * 1000;
}

/** One row, a column per table holding its row count. */
const countsSql = (tables: string[]) => `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${quote(t)}) AS ${quote(t)}`).join(", ")}`;

async function restore(db: D1Database, fresh: Fresh) {
  const results = await db.batch<Record<string, number>>(fresh.restore.map((s) => db.prepare(s.sql).bind(...s.binds)));
  const counts = results.at(-1)!.results[0];
  const wrong = Object.entries(fresh.counts)
    .filter(([name, n]) => counts[name] !== n)
    .map(([name, n]) => `${name}: ${counts[name]} rows, ${n} after the migrations`);
  if (wrong.length) throw new Error(`test/setup.ts: the D1 restored is not the freshly migrated one:\n  ${wrong.join("\n  ")}`);
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

async function replay(db: D1Database, kind: Kind) {
  const hasSequence = await db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").first();
  const sequences = hasSequence ? (await db.prepare("SELECT name, seq FROM sqlite_sequence").all<Row>()).results : [];
  await dropSchema(db);
  const started = Date.now();
  await applyD1Migrations(db, kind === "catalogue" ? env.TEST_MIGRATIONS : env.TEST_SHARD_MIGRATIONS);
  // Taken once: every replay of the same migrations gives the same D1.
  if (freshOf(kind) === undefined) store[FRESH]![kind] = await snapshot(db, (Date.now() - started) / 1000);
  await keepIdsGrowing(db, sequences);
}

/**
 * Emptying a table deletes its rows one by one (foreign keys are on): after the files that seed the large
 * catalogue (about 800,000 rows) that took seconds, where dropping the tables and replaying takes a fraction of one.
 */
const RESTORE_MAX_ROWS = 10_000;

type Kind = "catalogue" | "shard";

async function reset(db: D1Database, kind: Kind) {
  const fresh = freshOf(kind);
  if (fresh && (await schemaOf(db)).join("\n") === fresh.schema.join("\n")) {
    const counts = (await db.prepare(countsSql(Object.keys(fresh.counts))).first<Record<string, number>>())!;
    if (Object.values(counts).reduce((a, b) => a + b, 0) <= RESTORE_MAX_ROWS) return restore(db, fresh);
  }
  return replay(db, kind);
}

// Two shards (docs/decisions.md, "Shards"): containers alternate between them, so every test crosses databases.
await Promise.all([
  reset(env.DB, "catalogue"),
  reset(env.SHARD_1, "shard"),
  reset(env.SHARD_2, "shard"),
  emptyKv(env.CACHE),
  emptyR2(env.SUBTITLES),
]);
forgetGenerations();
forgetIsolateTier();
