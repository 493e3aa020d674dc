// npm run deploy:check [-- --env staging|production] [--template] [--no-build] [--config FILE]: whether a deployed environment's
// configuration can deploy (docs/operations.md, "Deploy"). For each environment it checks, from wrangler's own reading
// of wrangler.toml:
// - no value is still a placeholder an operator fills in: `<...>` (resource ids, the route) or an example.com host
//   (vars, routes);
// - the route (a custom domain) is set, and API_ORIGIN is that domain over https;
// - the secrets the Worker cannot run without are declared in `secrets.required` (so a deploy without them is
//   refused), and, when wrangler can reach the account (CLOUDFLARE_API_TOKEN set), are actually set;
// - vars that must differ from local development do (ENVIRONMENT, WEBHOOKS_ALLOW_LOOPBACK);
// - the Worker builds for that environment (`wrangler deploy --dry-run`; placeholders stood in for, so a template
//   builds too), with telemetry off.
// `--template` (CI: the committed wrangler.toml is a template) reports the placeholders without failing on them;
// `--no-build` skips the dry run (the deploy scripts run this first). Exit 1 on any problem.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { copyDocsAssets } from "./docs-assets.mjs";
import { ROOT, WRANGLER, wranglerEnv } from "./lib.mjs";

/** Secrets the deployed Worker cannot run without (optional ones, e.g. RETAILER_SECRETS, are not listed). */
export const REQUIRED_SECRETS = ["V3_TOKEN_SECRET"];
const ENVIRONMENTS = ["staging", "production"];

const { values } = parseArgs({
  options: { env: { type: "string" }, template: { type: "boolean" }, "no-build": { type: "boolean" }, config: { type: "string" } },
});
const envs = values.env ? [values.env] : ENVIRONMENTS;

const { experimental_readRawConfig } = await import("wrangler");
const here = process.cwd();
process.chdir(ROOT);
const { rawConfig } = experimental_readRawConfig(values.config ? { config: values.config } : {});
process.chdir(here);

const isPlaceholder = (v) => /^<[^>]*>$/.test(v) || /(^|[./])example\.(com|org|net|invalid)(?=$|[/:])/.test(hostOf(v));
function hostOf(v) {
  try {
    return new URL(v.includes("://") ? v : `https://${v}`).hostname;
  } catch {
    return v;
  }
}

/** Every string in `value` with its path (`kv_namespaces[0].id`), for the placeholder scan. */
function* strings(value, path = "") {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) yield* strings(v, path ? `${path}.${k}` : k);
}

/** A syntactically valid stand-in for a placeholder, so a template still builds. */
function standIn(path, value) {
  if (path.endsWith("database_id")) return "00000000-0000-0000-0000-000000000000";
  if (path.endsWith(".id")) return "0".repeat(32);
  if (/^<[^>]*>$/.test(value)) return "placeholder.example.invalid";
  return value;
}

let problems = 0;
let placeholders = 0;
const problem = (env, text) => {
  problems++;
  console.log(`FAIL [${env}] ${text}`);
};

for (const env of envs) {
  const config = rawConfig.env?.[env];
  if (!config) {
    problem(env, "wrangler.toml defines no such environment");
    continue;
  }
  const found = [...strings(config)].filter(([path, value]) => !path.startsWith("secrets.") && isPlaceholder(value));
  for (const [path, value] of found) {
    placeholders++;
    if (values.template) console.log(`  [${env}] to fill before a real deploy: ${path} = ${JSON.stringify(value)}`);
    else problem(env, `${path} is still a placeholder (${JSON.stringify(value)}): fill it in (docs/operations.md, "Deploy")`);
  }
  const vars = config.vars ?? {};
  const routes = config.routes ?? [];
  if (!routes.length) problem(env, "no routes: set the API's custom domain (routes = [{ pattern, custom_domain = true }])");
  const domains = routes.map((r) => (typeof r === "string" ? r : r.pattern));
  if (!vars.API_ORIGIN?.startsWith("https://")) problem(env, "API_ORIGIN must be an https origin");
  else if (!domains.some((d) => hostOf(d) === hostOf(vars.API_ORIGIN)))
    problem(env, `API_ORIGIN ${vars.API_ORIGIN} is not one of the environment's routes (${domains.join(", ") || "none"})`);
  if (vars.ENVIRONMENT !== "production") problem(env, 'ENVIRONMENT must be "production" (development allows logins over http)');
  if (vars.WEBHOOKS_ALLOW_LOOPBACK !== "false") problem(env, 'WEBHOOKS_ALLOW_LOOPBACK must be "false"');
  // The databases (docs/decisions.md, "Shards"): the catalogue on its migrations, shards SHARD_1..N on theirs, each
  // database once (a shard sharing an id with another would hold two shards' rows).
  const databases = config.d1_databases ?? [];
  const catalogue = databases.filter((d) => d.binding === "DB");
  if (catalogue.length !== 1 || catalogue[0].migrations_dir !== "migrations")
    problem(env, 'one D1 binding DB with migrations_dir = "migrations" is required');
  const shardNumbers = databases.filter((d) => /^SHARD_\d+$/.test(d.binding)).map((d) => Number(d.binding.slice(6)));
  if (!shardNumbers.length) problem(env, "no shard databases: SHARD_1 at least");
  if (shardNumbers.sort((a, b) => a - b).some((n, i) => n !== i + 1))
    problem(env, `shard bindings must be SHARD_1..SHARD_${shardNumbers.length}, without gaps (found ${shardNumbers.join(", ")})`);
  for (const d of databases.filter((d) => d.binding.startsWith("SHARD_") && d.migrations_dir !== "migrations-shard"))
    problem(env, `${d.binding} must use migrations_dir = "migrations-shard"`);
  const ids = databases.map((d) => d.database_id).filter((id) => !isPlaceholder(id));
  if (new Set(ids).size !== ids.length) problem(env, "two D1 bindings name the same database_id");
  const declared = config.secrets?.required ?? [];
  for (const name of REQUIRED_SECRETS.filter((s) => !declared.includes(s)))
    problem(env, `${name} is not in secrets.required: a deploy without it would not be refused`);

  if (process.env.CLOUDFLARE_API_TOKEN) {
    const list = spawnSync(WRANGLER, ["secret", "list", "--env", env, "--format", "json"], {
      cwd: ROOT,
      env: wranglerEnv,
      encoding: "utf8",
    });
    if (list.status !== 0) problem(env, `wrangler secret list failed: ${(list.stderr || list.stdout).trim().split("\n").pop()}`);
    else {
      const set = JSON.parse(list.stdout).map((s) => s.name);
      for (const name of declared.filter((s) => !set.includes(s)))
        problem(env, `secret ${name} is not set: npx wrangler secret put ${name} --env ${env}`);
    }
  } else {
    console.log(`  [${env}] secrets: declared ${declared.join(", ") || "none"}; not checked against the account (no CLOUDFLARE_API_TOKEN)`);
  }

  if (!values["no-build"]) {
    // The dry run reads the configuration with the placeholders stood in for, from the project root (relative paths).
    const standInConfig = structuredClone(rawConfig);
    for (const [path, value] of strings(standInConfig.env[env])) {
      const replacement = standIn(path, value);
      if (replacement === value) continue;
      const keys = path.match(/[^.[\]]+/g);
      let target = standInConfig.env[env];
      for (const k of keys.slice(0, -1)) target = target[k];
      target[keys.at(-1)] = replacement;
    }
    // Beside wrangler.toml: paths in a config are relative to its file.
    const file = join(ROOT, `.deploy-check.${env}.json`);
    writeFileSync(file, JSON.stringify(standInConfig, null, 2));
    copyDocsAssets({ quiet: true });
    const build = spawnSync(
      WRANGLER,
      ["deploy", "--dry-run", "--config", file, "--env", env, "--outdir", join(ROOT, ".deploy-check", env)],
      { cwd: ROOT, env: wranglerEnv, encoding: "utf8" },
    );
    rmSync(file, { force: true });
    if (build.status !== 0) problem(env, `the Worker does not build:\n${build.stdout}${build.stderr}`);
    else console.log(`ok [${env}] builds (wrangler deploy --dry-run)`);
  }
}
rmSync(join(ROOT, ".deploy-check"), { recursive: true, force: true });

if (values.template && placeholders) console.log(`template: ${placeholders} placeholder(s) to fill before a real deploy`);
console.log(
  problems ? `deploy check: ${problems} problem(s)` : `deploy check: ${envs.join(", ")} ready${values.template ? " (as a template)" : ""}`,
);
process.exit(problems ? 1 : 0);
