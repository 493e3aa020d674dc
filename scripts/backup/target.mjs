// Where npm run db:backup and db:restore point: the command line, and the throwaway wrangler configs they need
// (docs/decisions.md, "Backups").
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ROOT } from "../lib.mjs";
import { UsageError, checkEnvironment, describeTarget, targetArgs } from "../admin/d1.mjs";

export { UsageError, describeTarget, targetArgs };

/** A refusal or failure the command reports in a sentence (exit 1), as against a usage error (exit 2). */
export class BackupError extends Error {}

/**
 * `--local [--persist-to DIR] | --remote --env NAME` plus the command's own options (`values`: those taking a value;
 * `flags`: those that do not). Local is the default, as in npm run admin.
 */
export async function parseArgs(argv, { values = [], flags = [] } = {}) {
  const valueOptions = new Set(["env", "persist-to", ...values]);
  const flagOptions = new Set(["local", "remote", "help", ...flags]);
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-h") {
      options.help = true;
      continue;
    }
    if (!a.startsWith("--")) throw new UsageError(`unexpected argument ${JSON.stringify(a)}`);
    const [key, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (valueOptions.has(key)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === "") throw new UsageError(`--${key} needs a value`);
      options[key] = value;
    } else if (flagOptions.has(key) && inline === undefined) {
      options[key] = true;
    } else {
      throw new UsageError(`unknown option --${key}`);
    }
  }
  if (options.help) return { options };
  if (options.local && options.remote) throw new UsageError("--local and --remote: choose one");
  // The top level of wrangler.toml is local development only (placeholder ids): a remote database is an environment's.
  if (options.remote && !options.env) throw new UsageError("--remote needs --env staging or --env production");
  const target = { remote: Boolean(options.remote), env: options.env, persistTo: options["persist-to"] };
  targetArgs(target); // refuses --persist-to with --remote
  await checkEnvironment(target.env);
  return { options, target };
}

/** The local state directory of a local target, as wrangler resolves it (default `.wrangler/state`). */
export function localStateDir({ persistTo }) {
  return persistTo ? resolve(process.env.INIT_CWD ?? process.cwd(), persistTo) : join(ROOT, ".wrangler", "state");
}

/** A path the operator typed, resolved from the directory they typed it in (npm runs scripts from the root). */
export const fromCwd = (path) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

async function rawConfig() {
  const { experimental_readRawConfig } = await import("wrangler");
  const here = process.cwd();
  process.chdir(ROOT);
  try {
    return experimental_readRawConfig({}).rawConfig;
  } finally {
    process.chdir(here);
  }
}

/**
 * A throwaway wrangler config with only the D1 bindings of wrangler.toml (top level and the target's environment),
 * in a temporary directory whose `.wrangler/state` is the target's local state: `wrangler d1 export --local` has no
 * `--persist-to` (it always reads `.wrangler/state` beside its config). Returns `{ args, dispose }`: the `-c`
 * arguments and the clean-up.
 */
export async function tempConfig(target) {
  const raw = await rawConfig();
  const dir = mkdtempSync(join(tmpdir(), "db-backup-"));
  const config = {
    name: raw.name ?? "media-catalogue",
    ...(raw.account_id ? { account_id: raw.account_id } : {}),
    compatibility_date: raw.compatibility_date,
    d1_databases: raw.d1_databases ?? [],
    ...(target.env ? { env: { [target.env]: { d1_databases: raw.env[target.env].d1_databases ?? [] } } } : {}),
  };
  writeFileSync(join(dir, "wrangler.json"), JSON.stringify(config, null, 2));
  if (!target.remote) {
    mkdirSync(join(dir, ".wrangler"));
    mkdirSync(localStateDir(target), { recursive: true });
    symlinkSync(localStateDir(target), join(dir, ".wrangler", "state"), "dir");
  }
  return { args: ["-c", join(dir, "wrangler.json")], dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The binding's migrations directory and its migration files in order (what `d1 migrations apply` applies). */
export async function checkoutMigrations(target) {
  const raw = await rawConfig();
  const dbs = target.env ? raw.env[target.env].d1_databases : raw.d1_databases;
  const binding = target.binding ?? "DB";
  const dir = join(ROOT, dbs?.find((d) => d.binding === binding)?.migrations_dir ?? "migrations");
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return { names, read: (name) => readFileSync(join(dir, name), "utf8") };
}
