// The simulated environment of npm run bench:shards: a checkout whose wrangler.toml binds N shards, and the
// migrations applied to its databases the way `wrangler d1 migrations apply --local` applies them.
//
// Why a checkout: every script finds the databases in the wrangler.toml beside it (scripts/d1-bindings.mjs, the admin
// CLI, db:backup), with no option naming another config. So the bench builds a directory that is this repository with
// one change, a wrangler.toml with SHARD_1..SHARD_N (what an operator adding shards writes: docs/operations.md,
// "Shards"), and runs the project's own commands there: `wrangler dev`, `npm run admin`, `npm run db:backup`.
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../lib.mjs";

/** What the checkout shares with the repository (read-only for the bench); scripts/ is copied, so its ROOT is the checkout. */
const SHARED = ["src", "queues", "migrations", "migrations-shard", "node_modules", "package.json", "package-lock.json", "tsconfig.json"];

/** wrangler.toml's top level (local development; the deployed environments cut off) with SHARD_3..SHARD_<shards> added after SHARD_2. */
export function configWithShards(shards) {
  const source = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const top = source.slice(0, source.indexOf("\n[env.staging]"));
  const anchor = "\n[[kv_namespaces]]";
  if (!top.includes('binding = "SHARD_2"') || !top.includes(anchor))
    throw new Error("wrangler.toml: no SHARD_2 or [[kv_namespaces]] to add after");
  const added = Array.from({ length: shards - 2 }, (_, i) => i + 3).map(
    (n) => `
[[d1_databases]]
binding = "SHARD_${n}"
database_name = "media-catalogue-shard-${n}"
database_id = "00000000-0000-0000-0000-${String(n).padStart(12, "0")}"
migrations_dir = "migrations-shard"
`,
  );
  return top.replace(anchor, `${added.join("")}${anchor}`) + "\n";
}

/** The checkout in `dir`: the shared paths linked, scripts/ copied, the generated wrangler.toml. Returns its path. */
export function makeCheckout(dir, shards) {
  mkdirSync(dir, { recursive: true });
  for (const name of SHARED) symlinkSync(join(ROOT, name), join(dir, name));
  cpSync(join(ROOT, "scripts"), join(dir, "scripts"), { recursive: true });
  writeFileSync(join(dir, "wrangler.toml"), configWithShards(shards));
  return dir;
}

/** `[{ binding, id, dir }]` of the checkout's D1 databases, as wrangler names their local files. */
export async function checkoutDatabases(checkout) {
  const { experimental_readRawConfig } = await import("wrangler");
  const { rawConfig } = experimental_readRawConfig({ config: join(checkout, "wrangler.toml") });
  return rawConfig.d1_databases.map((d) => ({ binding: d.binding, id: d.preview_database_id ?? d.database_id, dir: d.migrations_dir }));
}

/**
 * One local workerd holding every database of the checkout (Miniflare, the one wrangler ships), persisted where
 * `wrangler dev --persist-to <persistTo>` and `wrangler d1 ... --local --persist-to` find them.
 */
export async function openDatabases(checkout, persistTo) {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const databases = await checkoutDatabases(checkout);
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default {}",
      resourcePersistencePath: join(persistTo, "v3"),
      d1Databases: Object.fromEntries(databases.map((d) => [d.binding, d.id])),
    }),
  );
  await mf.ready;
  const handles = new Map();
  for (const d of databases) handles.set(d.binding, await mf.getD1Database(d.binding));
  return { databases, db: (binding) => handles.get(binding), dispose: () => mf.dispose() };
}

/**
 * Every migration of one database, as `wrangler d1 migrations apply --local` applies them: its `d1_migrations` table,
 * then each file split by wrangler's own splitter with the row naming it, one batch a file. Returns the files applied.
 */
export async function applyMigrations(db, checkout, migrationsDir) {
  const { unstable_splitSqlQuery: split } = await import("wrangler");
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const files = readdirSync(join(checkout, migrationsDir))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const name of files) {
    const sql = `${readFileSync(join(checkout, migrationsDir, name), "utf8")}\nINSERT INTO d1_migrations (name) values ('${name.replaceAll("'", "''")}');`;
    await db.batch(split(sql).map((q) => db.prepare(q)));
  }
  return files.length;
}
