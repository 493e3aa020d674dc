// A local wrangler configuration with the catalogue and N shards, for scripts/bench-migrate.mjs and
// scripts/test-db-migrate.mjs: the project's wrangler.toml has two shards, and migrating many takes a configuration
// that names many. Only the D1 databases: `wrangler d1 migrations apply` needs nothing else.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./lib.mjs";

/**
 * Writes `<dir>/wrangler.toml` naming DB and SHARD_1..SHARD_<shards>, each on the project's migrations unless
 * `migrationsOf(binding)` names another folder (a path from the project's root). Returns the file's path.
 */
export function writeMigrateConfig(dir, shards, migrationsOf = () => undefined) {
  mkdirSync(dir, { recursive: true });
  const database = (binding, n, fallback) =>
    `[[d1_databases]]\nbinding = "${binding}"\ndatabase_name = "migrate-${n}"\n` +
    `database_id = "00000000-0000-0000-0000-${String(n).padStart(12, "0")}"\n` +
    `migrations_dir = "${relative(dir, join(ROOT, migrationsOf(binding) ?? fallback))}"\n`;
  const file = join(dir, "wrangler.toml");
  writeFileSync(
    file,
    `name = "migrate"\ncompatibility_date = "2025-01-01"\n\n` +
      [
        database("DB", 0, "migrations"),
        ...Array.from({ length: shards }, (_, i) => database(`SHARD_${i + 1}`, i + 1, "migrations-shard")),
      ].join("\n"),
  );
  return file;
}
