// Applies the migrations of every D1 database of an environment: the catalogue's (migrations/) to DB first, then the
// shards' (migrations-shard/) to each SHARD_<n>, `concurrency` at a time (docs/operations.md, "Migrations across the
// shards"). One `wrangler d1 migrations apply` per database, its output collected and printed as one block when it
// ends, so the blocks of shards running side by side never interleave.
import { spawn } from "node:child_process";
import { d1Databases } from "./d1-bindings.mjs";
import { ROOT, WRANGLER, wranglerEnv } from "./lib.mjs";

/** Shards migrated side by side unless `--concurrency` says otherwise: each is a wrangler process of about 100 MB. */
export const DEFAULT_CONCURRENCY = 8;

/** One `wrangler d1 migrations apply`, its standard output and error collected; never rejects. */
function applyOne(binding, where) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(WRANGLER, ["d1", "migrations", "apply", binding, ...where], { cwd: ROOT, env: wranglerEnv, stdio: "pipe" });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const done = (ok, extra = "") => resolve({ binding, ok, output: output + extra, seconds: (Date.now() - started) / 1000 });
    child.on("error", (err) => done(false, `\n${err.message}\n`));
    child.on("close", (code) => done(code === 0, code === 0 ? "" : `\nwrangler exited with code ${code}\n`));
  });
}

/** Runs `task` over `items`, at most `limit` at once; resolves to the results in the items' order. */
export async function pool(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Migrates every database of `env` (undefined: the local configuration). `where` is wrangler's target arguments
 * (`--local [--persist-to DIR]` or `--remote --env E`). `report(result)` hears each database as it ends
 * (`{ binding, ok, output, seconds }`). Resolves to `{ failed: [binding...], skipped: [binding...] }`: a failing
 * catalogue stops before any shard (they are then `skipped`); a failing shard stops no other shard.
 */
export async function migrateDatabases({ env, where, concurrency = DEFAULT_CONCURRENCY, report = () => {}, config }) {
  const databases = await d1Databases(env, config);
  const configArgs = config ? ["--config", config] : [];
  const catalogue = databases.filter((d) => d.kind === "catalogue").map((d) => d.binding);
  const shards = databases.filter((d) => d.kind === "shard").map((d) => d.binding);
  const failed = [];
  for (const binding of catalogue) {
    const result = await applyOne(binding, [...where, ...configArgs]);
    report(result);
    if (!result.ok) return { failed: [binding], skipped: shards };
  }
  await pool(shards, concurrency, async (binding) => {
    const result = await applyOne(binding, [...where, ...configArgs]);
    report(result);
    if (!result.ok) failed.push(binding);
  });
  const order = (b) => Number(b.slice("SHARD_".length));
  return { failed: failed.sort((a, b) => order(a) - order(b)), skipped: [] };
}
