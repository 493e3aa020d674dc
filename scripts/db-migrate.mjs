// Applies the migrations of every D1 of an environment: the catalogue's (migrations/) to DB first, then the shards'
// (migrations-shard/) to each SHARD_<n>, K at a time (docs/decisions.md, "Shards"; docs/operations.md, "Migrations
// across the shards"). A shard that fails stops no other; the exit status is 1 and the last line names every failure.
//   node scripts/db-migrate.mjs --local [--persist-to DIR] [--concurrency K]
//   node scripts/db-migrate.mjs --env staging|production [--concurrency K]      (remote)
// `--config FILE` reads another wrangler configuration (scripts/bench-migrate.mjs: many local shards).
import { parseArgs } from "node:util";
import { DEFAULT_CONCURRENCY, migrateDatabases } from "./d1-migrate.mjs";

const usage = "usage: db-migrate.mjs --local [--persist-to DIR] | --env staging|production  [--concurrency K (1-100)] [--config FILE]";
let values;
try {
  ({ values } = parseArgs({
    options: {
      local: { type: "boolean" },
      env: { type: "string" },
      "persist-to": { type: "string" },
      concurrency: { type: "string" },
      config: { type: "string" },
    },
  }));
} catch (err) {
  console.error(`${err.message}\n${usage}`);
  process.exit(2);
}
const concurrency = values.concurrency === undefined ? DEFAULT_CONCURRENCY : Number(values.concurrency);
if (!values.local === !values.env || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 100) {
  console.error(usage);
  process.exit(2);
}
const where = values.local
  ? ["--local", ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : [])]
  : ["--remote", "--env", values.env];
const label = values.env ?? "local";
const started = Date.now();
const { failed, skipped } = await migrateDatabases({
  env: values.env,
  where,
  concurrency,
  config: values.config,
  report: ({ binding, ok, output, seconds }) => {
    // Local runs print only what failed (npm start and the end-to-end scripts stay quiet); remote ones print every
    // database's wrangler output, one block each, in the order they ended.
    if (!ok || !values.local)
      process.stdout.write(`--- ${binding} (${label}): ${ok ? "ok" : "FAILED"} in ${seconds.toFixed(1)} s\n${output.trimEnd()}\n`);
    else console.log(`migrations applied to ${binding} (${label}) in ${seconds.toFixed(1)} s`);
  },
});
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (failed.length) {
  console.error(
    `migrations FAILED on ${failed.join(", ")} (${label})` +
      (skipped.length ? `; not attempted: ${skipped.join(", ")}` : "; every other database is migrated") +
      `. Fix the cause and run again: applied migrations are skipped (${seconds} s)`,
  );
  process.exit(1);
}
console.log(`migrations applied to every database (${label}, concurrency ${concurrency}) in ${seconds} s`);
