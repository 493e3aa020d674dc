// npm run seed:large [-- --persist-to <dir>] [--containers N] [--chunk N] [--keep-stats]
//
// Fills the local D1 with a large synthetic catalogue (default 10,000 containers, 126,097 videos, titles in
// 13 languages, genres, licences, subtitle completions) for benchmarks and rows-read checks. The SQL is
// scripts/large-catalogue-sql.mjs, shared with the budget test; it runs through wrangler's local D1
// (getPlatformProxy, so workerd starts once, not once per chunk), 1,000 containers at a time with progress.
// Ids start at 1,000,001, so the demo seed (small ids) is untouched; every row is INSERT OR IGNORE, so the
// script is idempotent and an interrupted run is completed by running it again. Applies the migrations
// first (skip with --no-migrate).
//
// Planner statistics: the derived-document triggers look completions up by (resource_kind, resource_id), and
// without statistics SQLite answers that from the covering index (resource_kind, language, percent,
// resource_id), i.e. a scan of every completion of that kind, per trigger call: seeding goes quadratic. So the
// statements run `ANALYZE subtitle_completions` before the completion-heavy steps, and the statistics are
// dropped again at the end (unless --keep-stats, or they existed before) so the API is measured with the
// planner a fresh D1 has.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { getPlatformProxy } from "wrangler";
import { ROOT, migrateLocal, wranglerEnv } from "./lib.mjs";
import { largeCatalogueCountsSql, largeCatalogueStatements } from "./large-catalogue-sql.mjs";
import { loadAppCode } from "./demo/load-app-code.mjs";
import { fillTitleIndexForms } from "./title-index-forms.mjs";

const fmt = (n) => n.toLocaleString("en-US");
const STATS_TABLES = "SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'";

/**
 * Runs `fn(db)` against the local D1 (wrangler's getPlatformProxy: the same workerd and SQLite file as
 * `wrangler d1 execute --local` and `wrangler dev`, started once). `persistTo` is wrangler's --persist-to
 * directory (default .wrangler/state). Do not run it while `wrangler dev` serves the same directory.
 */
export async function withLocalD1(persistTo, fn) {
  // Offline-safe, no metrics (getPlatformProxy reads these from the environment).
  for (const key of ["CLOUDFLARE_CF_FETCH_ENABLED", "WRANGLER_SEND_METRICS"]) process.env[key] = wranglerEnv[key];
  const { env, dispose } = await getPlatformProxy({
    configPath: join(ROOT, "wrangler.toml"),
    persist: { path: join(persistTo ?? join(ROOT, ".wrangler", "state"), "v3") },
  });
  try {
    // The catalogue, and the whole environment for callers that read the shards (SHARD_<n>) too.
    return await fn(env.DB, env);
  } finally {
    await dispose();
  }
}

/**
 * Seeds `containers` containers (and everything hanging off them) in chunks of `chunk`, printing progress
 * after each. Returns the row counts of the large catalogue and the time taken.
 */
export async function seedLarge({ persistTo, containers = 10_000, chunk = 1_000, keepStats = false, log = console.log } = {}) {
  const started = performance.now();
  return withLocalD1(persistTo, async (db) => {
    const statsBefore = (await db.prepare(STATS_TABLES).all()).results.map((r) => r.name);
    let counts;
    for (let from = 1; from <= containers; from += chunk) {
      const to = Math.min(containers, from + chunk - 1);
      const t0 = performance.now();
      for (const s of largeCatalogueStatements({ from, to })) {
        try {
          await db.prepare(s.sql).run();
        } catch (err) {
          throw new Error(`containers ${from}-${to}, ${s.table}: ${err.message}`, { cause: err });
        }
      }
      counts = await db.prepare(largeCatalogueCountsSql(containers)).first();
      log(
        `containers ${fmt(to)}/${fmt(containers)}  videos ${fmt(counts.videos)}  titles ${fmt(counts.titles)}  ` +
          `completions ${fmt(counts.subtitle_completions)}  facets ${fmt(counts.container_facets)}  ` +
          `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );
    }
    // The seed's SQL cannot compute the titles' index form for v4 search: filled as `npm run admin -- search
    // index-titles` fills it.
    const { indexForm } = await loadAppCode();
    const forms = await fillTitleIndexForms(async (sql) => (await db.prepare(sql).all()).results, indexForm);
    log(`title index forms: ${fmt(forms.written)} of ${fmt(forms.read)} titles`);
    if (!keepStats) {
      const created = (await db.prepare(STATS_TABLES).all()).results.map((r) => r.name).filter((n) => !statsBefore.includes(n));
      for (const name of created) await db.prepare(`DROP TABLE ${name}`).run();
    }
    const seconds = (performance.now() - started) / 1000;
    log(
      `large catalogue seeded in ${seconds.toFixed(1)} s: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(", ")}`,
    );
    return { counts, seconds };
  });
}

function parseArgs(argv) {
  const opts = { persistTo: undefined, containers: 10_000, chunk: 1_000, keepStats: false, migrate: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--persist-to") opts.persistTo = resolve(value());
    else if (a === "--containers") opts.containers = Number(value());
    else if (a === "--chunk") opts.chunk = Number(value());
    else if (a === "--keep-stats") opts.keepStats = true;
    else if (a === "--no-migrate") opts.migrate = false;
    else throw new Error(`unknown argument ${a} (use --persist-to <dir>, --containers N, --chunk N, --keep-stats, --no-migrate)`);
  }
  for (const k of ["containers", "chunk"]) {
    if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new Error(`--${k} must be a positive integer`);
  }
  if (opts.containers > 1_000_000) throw new Error("--containers: at most 1,000,000");
  return opts;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.persistTo && !existsSync(dirname(opts.persistTo))) mkdirSync(dirname(opts.persistTo), { recursive: true });
  if (opts.migrate) await migrateLocal(opts.persistTo);
  await seedLarge(opts);
}
