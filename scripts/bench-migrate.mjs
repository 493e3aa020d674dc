// The time to migrate every database of a local configuration with many shards, one at a time and K at a time
// (scripts/db-migrate.mjs --concurrency; docs/operations.md, "Migrations across the shards"). Writes a wrangler
// configuration with the catalogue and N shards under .bench/migrate/, then migrates fresh local state with each
// concurrency and prints the wall times.
//   node scripts/bench-migrate.mjs [--shards N (default 16)] [--concurrency K (default 8)]
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrateDatabases } from "./d1-migrate.mjs";
import { writeMigrateConfig } from "./migrate-config.mjs";
import { ROOT, numberArg } from "./lib.mjs";

const shards = numberArg("--shards", 16);
const concurrency = numberArg("--concurrency", 8);
if (!Number.isInteger(shards) || shards < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error("usage: bench-migrate.mjs [--shards N] [--concurrency K]");
  process.exit(2);
}
const dir = join(ROOT, ".bench", "migrate");
rmSync(dir, { recursive: true, force: true });
const config = writeMigrateConfig(dir, shards);

const figures = [];
for (const k of [1, concurrency]) {
  const persistTo = join(dir, `state-${k}`);
  const times = {};
  const started = Date.now();
  const { failed } = await migrateDatabases({
    where: ["--local", "--persist-to", persistTo],
    concurrency: k,
    config,
    report: ({ binding, ok, output, seconds }) => {
      times[binding] = seconds;
      if (!ok) process.stderr.write(`--- ${binding}\n${output}`);
    },
  });
  if (failed.length) throw new Error(`migrations failed on ${failed.join(", ")}`);
  const total = (Date.now() - started) / 1000;
  const shardSeconds = Object.entries(times)
    .filter(([b]) => b !== "DB")
    .map(([, s]) => s);
  figures.push({ concurrency: k, total, catalogue: times.DB, shardMean: shardSeconds.reduce((a, b) => a + b, 0) / shardSeconds.length });
}
rmSync(dir, { recursive: true, force: true });
console.log(`catalogue + ${shards} shards, local (wrangler d1 migrations apply --local), fresh state:`);
for (const f of figures)
  console.log(
    `  concurrency ${String(f.concurrency).padStart(2)}: ${f.total.toFixed(1)} s in all (catalogue ${f.catalogue.toFixed(1)} s, a shard ${f.shardMean.toFixed(1)} s on average)`,
  );
