// The admin CLI's only way to the database: `wrangler d1 execute DB --command ... --json`, local or remote.
// `d1 execute` takes no bound parameters, so every value is validated (ids) or quoted (strings) here.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { ROOT, WRANGLER, wranglerEnv } from "../lib.mjs";

/** A usage error: the CLI prints it with the usage line and exits 2. */
export class UsageError extends Error {}

/**
 * Where the SQL goes: the local D1 by default (wrangler's `.wrangler/state`, or `persistTo`), the deployed one
 * with `remote`; `env` picks a wrangler environment's binding either way.
 */
export function targetArgs({ remote = false, env, persistTo } = {}) {
  if (remote && persistTo) throw new UsageError("--persist-to is for the local D1; it cannot go with --remote");
  // npm runs scripts from the package root; a relative directory means the one the operator typed it in.
  const base = process.env.INIT_CWD ?? process.cwd();
  return [
    remote ? "--remote" : "--local",
    ...(env ? ["--env", env] : []),
    ...(persistTo ? ["--persist-to", resolve(base, persistTo)] : []),
  ];
}

/**
 * wrangler only warns about an `--env` its config does not define, then uses the top-level bindings: a typo in
 * `--remote --env staging` would write to the other database. Refused here before anything runs.
 */
export async function checkEnvironment(env) {
  if (!env) return;
  // wrangler's own reader, so wrangler.toml and wrangler.jsonc are read exactly as `d1 execute` reads them.
  const { experimental_readRawConfig } = await import("wrangler");
  // It looks for the config from the working directory; `d1 execute` runs in ROOT, so this looks there too.
  const here = process.cwd();
  process.chdir(ROOT);
  let raw;
  try {
    raw = experimental_readRawConfig({});
  } finally {
    process.chdir(here);
  }
  const { rawConfig, configPath } = raw;
  if (!Object.hasOwn(rawConfig.env ?? {}, env)) {
    throw new UsageError(`--env ${env}: ${configPath ?? "the wrangler config"} defines no such environment`);
  }
}

export function describeTarget({ remote = false, env, persistTo } = {}) {
  const where = remote ? "remote D1" : `local D1 (${persistTo ?? ".wrangler/state"})`;
  return env ? `${where}, environment ${env}` : where;
}

/**
 * A SQL string literal. SQLite has no backslash escapes: doubling `'` is the whole rule. Control characters (NUL
 * above all, which would end the string early in C APIs) are refused rather than quoted.
 */
export function sqlString(value) {
  if (typeof value !== "string") throw new TypeError("sqlString takes a string");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError("control characters are not allowed in values");
  return `'${value.replaceAll("'", "''")}'`;
}

/** An integer for SQL: only a positive safe integer passes, so nothing but digits ever reaches the statement. */
export function sqlInt(value) {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`not an id: ${value}`);
  return String(value);
}

/**
 * Runs the statements (separated by `;`, one batch) and answers the rows of each, in order. Throws with D1's own
 * message when a statement fails (wrangler prints `{"error": {"text"}}` then).
 */
export function execute(target, sql) {
  // `target.binding`: another database of the environment (a shard, SHARD_<n>); the catalogue's DB by default.
  const args = ["d1", "execute", target.binding ?? "DB", ...targetArgs(target), "--json", "--command", sql];
  const res = spawnSync(WRANGLER, args, { cwd: ROOT, env: wranglerEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (res.error) throw res.error;
  const parsed = parseJson(res.stdout);
  if (res.status !== 0 || !Array.isArray(parsed)) {
    const reason = parsed?.error?.text ?? `${res.stdout ?? ""}${res.stderr ?? ""}`.trim();
    throw new D1Error(reason || `wrangler d1 execute exited with code ${res.status}`);
  }
  return parsed.map((statement) => statement.results ?? []);
}

export class D1Error extends Error {
  get uniqueViolation() {
    return this.message.includes("UNIQUE constraint failed");
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
