// The D1 databases of an environment, from wrangler.toml: the catalogue (DB) and its shards (SHARD_<n>; docs/decisions.md,
// "Shards"). The one place scripts learn which databases exist, so migrations, backups and seeds reach all of them.
import { resolve } from "node:path";
import { ROOT } from "./lib.mjs";

/**
 * `[{ binding, name, migrationsDir, kind }]` for `env` (undefined: the top-level, local configuration); `name` is the D1
 * database's. `configFile`: another wrangler configuration than the project's (a path from the project's root).
 */
export async function d1Databases(env, configFile = "wrangler.toml") {
  const { experimental_readRawConfig } = await import("wrangler");
  const { rawConfig } = experimental_readRawConfig({ config: resolve(ROOT, configFile) });
  const config = env ? rawConfig.env?.[env] : rawConfig;
  if (!config) throw new Error(`wrangler.toml defines no environment ${env}`);
  return (config.d1_databases ?? []).map((d) => ({
    binding: d.binding,
    name: d.database_name,
    migrationsDir: d.migrations_dir,
    kind: d.binding === "DB" ? "catalogue" : "shard",
  }));
}

/** The shard bindings only, in shard order. */
export const shardBindings = async (env) =>
  (await d1Databases(env))
    .filter((d) => d.kind === "shard")
    .map((d) => d.binding)
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
