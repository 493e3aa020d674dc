// Applies the migrations of every D1 of an environment: the catalogue's (migrations/) to DB, the shards'
// (migrations-shard/) to each SHARD_<n> (docs/decisions.md, "Shards").
//   node scripts/db-migrate.mjs --local [--persist-to DIR]
//   node scripts/db-migrate.mjs --env staging|production      (remote)
import { parseArgs } from "node:util";
import { d1Databases } from "./d1-bindings.mjs";
import { wrangler } from "./lib.mjs";

const { values } = parseArgs({ options: { local: { type: "boolean" }, env: { type: "string" }, "persist-to": { type: "string" } } });
if (!values.local === !values.env) {
  console.error("usage: db-migrate.mjs --local [--persist-to DIR] | --env staging|production");
  process.exit(2);
}
const where = values.local
  ? ["--local", ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : [])]
  : ["--remote", "--env", values.env];
for (const { binding } of await d1Databases(values.env)) {
  wrangler(["d1", "migrations", "apply", binding, ...where], { quiet: values.local });
  console.log(`migrations applied to ${binding}${values.env ? ` (${values.env})` : " (local)"}`);
}
