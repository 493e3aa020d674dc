// npm run test:deploy-check: scripts/deploy-check.mjs refuses what cannot deploy and passes what can
// (docs/operations.md, "Deploy"). The committed wrangler.toml is a template: it must fail the real check, naming each
// placeholder, and pass `--template`; a filled-in copy must pass; a filled copy with one thing wrong must fail on it.
// No account and no build (the build is CI's `deploy:check -- --template`), so it takes a few seconds.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const template = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
const filled = template
  .replaceAll("<staging D1 id>", "11111111-2222-3333-4444-555555555555")
  .replaceAll("<production D1 id>", "66666666-7777-8888-9999-000000000000")
  .replaceAll("<staging shard 1 D1 id>", "11111111-2222-3333-4444-555555555501")
  .replaceAll("<staging shard 2 D1 id>", "11111111-2222-3333-4444-555555555502")
  .replaceAll("<production shard 1 D1 id>", "66666666-7777-8888-9999-000000000001")
  .replaceAll("<production shard 2 D1 id>", "66666666-7777-8888-9999-000000000002")
  .replaceAll("<staging KV id>", "a".repeat(32))
  .replaceAll("<production KV id>", "b".repeat(32))
  .replaceAll("staging-api.example.com", "staging-api.catalogue.test")
  .replaceAll("staging.example.com", "staging.catalogue.test")
  .replaceAll("api.example.com", "api.catalogue.test")
  .replaceAll("www.example.com", "www.catalogue.test");

let failed = 0;
function check(name, config, args, expect) {
  const file = join(ROOT, `.deploy-check-test.toml`);
  if (config !== null) writeFileSync(file, config);
  const run = spawnSync(
    process.execPath,
    [join(ROOT, "scripts", "deploy-check.mjs"), "--no-build", ...(config !== null ? ["--config", file] : []), ...args],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, CLOUDFLARE_API_TOKEN: "" },
    },
  );
  rmSync(file, { force: true });
  const out = `${run.stdout}${run.stderr}`;
  const ok = run.status === expect.status && (expect.says ?? []).every((s) => out.includes(s));
  if (!ok) failed++;
  console.log(`${ok ? "PASS" : "FAIL"} - ${name}${ok ? "" : `\n  exit ${run.status}, output:\n${out}`}`);
}

check("the committed template fails, naming each placeholder", null, [], {
  status: 1,
  says: [
    "d1_databases[0].database_id is still a placeholder",
    "kv_namespaces[0].id is still a placeholder",
    "routes[0].pattern is still a placeholder",
  ],
});
check("the committed template passes as a template", null, ["--template"], { status: 0, says: ["16 placeholder(s) to fill"] });
check("a filled-in configuration passes", filled, [], { status: 0, says: ["staging, production ready"] });
check(
  "API_ORIGIN off the route fails",
  filled.replace('API_ORIGIN = "https://api.catalogue.test"', 'API_ORIGIN = "https://other.catalogue.test"'),
  [],
  {
    status: 1,
    says: ["[production] API_ORIGIN https://other.catalogue.test is not one of the environment's routes"],
  },
);
check(
  "a required secret not declared fails",
  filled.replace('secrets = { required = ["V3_TOKEN_SECRET"] }', "secrets = { required = [] }"),
  [],
  {
    status: 1,
    says: ["V3_TOKEN_SECRET is not in secrets.required"],
  },
);
check(
  "loopback webhooks in a deployed environment fail",
  filled.replace('WEBHOOKS_ALLOW_LOOPBACK = "false"', 'WEBHOOKS_ALLOW_LOOPBACK = "true"'),
  [],
  {
    status: 1,
    says: ['WEBHOOKS_ALLOW_LOOPBACK must be "false"'],
  },
);
check(
  "a shard database sharing another's id, or on the catalogue's migrations, fails",
  filled
    .replace("66666666-7777-8888-9999-000000000002", "66666666-7777-8888-9999-000000000001")
    .replace(
      'database_id = "11111111-2222-3333-4444-555555555502"\nmigrations_dir = "migrations-shard"',
      'database_id = "11111111-2222-3333-4444-555555555502"\nmigrations_dir = "migrations"',
    ),
  [],
  {
    status: 1,
    says: ["two D1 bindings name the same database_id", 'SHARD_2 must use migrations_dir = "migrations-shard"'],
  },
);
console.log(`deploy check tests: ${7 - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
