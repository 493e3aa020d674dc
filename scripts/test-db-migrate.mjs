// npm run test:migrate: scripts/db-migrate.mjs on a local configuration of the catalogue and three shards
// (scripts/migrate-config.mjs), two at a time: a shard whose migration fails stops no other shard and is named in the
// exit; a failing catalogue stops before any shard; a run after the fix applies what is left; bad options exit 2
// (docs/operations.md, "Migrations across the shards").
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checklist, ROOT, wrangler } from "./lib.mjs";
import { writeMigrateConfig } from "./migrate-config.mjs";

const dir = join(ROOT, ".bench", "migrate-test");
rmSync(dir, { recursive: true, force: true });
// A migration that fails halfway: its first statement would apply, its second names no table.
const broken = join(dir, "broken-migrations");
mkdirSync(broken, { recursive: true });
writeFileSync(join(broken, "0000_broken.sql"), "CREATE TABLE probe (id INTEGER);\nINSERT INTO no_such_table VALUES (1);\n");
const brokenDir = relative(ROOT, broken);
const state = join(dir, "state");

function migrate(config, ...args) {
  const res = spawnSync(
    process.execPath,
    [join(ROOT, "scripts", "db-migrate.mjs"), "--local", "--persist-to", state, "--config", config, ...args],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** The names of the migrations a database of `config` has applied; [] when it has none (or does not exist yet). */
function applied(config, binding) {
  const sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'";
  const run = (command) =>
    JSON.parse(
      wrangler(["d1", "execute", binding, "--local", "--persist-to", state, "--config", config, "--json", "--command", command], {
        quiet: true,
      }),
    )[0].results;
  if (!run(sql).length) return [];
  return run("SELECT name FROM d1_migrations ORDER BY id").map((r) => r.name);
}

const { step, finish } = checklist();
const good = writeMigrateConfig(join(dir, "good"), 3);
const shardTwoBroken = writeMigrateConfig(join(dir, "shard-2-broken"), 3, (b) => (b === "SHARD_2" ? brokenDir : undefined));
const catalogueBroken = writeMigrateConfig(join(dir, "catalogue-broken"), 3, (b) => (b === "DB" ? brokenDir : undefined));
const lastShardMigration = spawnSync("ls", [join(ROOT, "migrations-shard")], { encoding: "utf8" })
  .stdout.split("\n")
  .filter((f) => f.endsWith(".sql"))
  .at(-1);

await step("bad options exit 2 before anything runs", () => {
  for (const args of [["--concurrency", "0"], ["--concurrency", "two"], ["--env", "staging"], ["--nonsense"]]) {
    const res = migrate(good, ...args);
    assert.equal(res.status, 2, `${args.join(" ")}: ${res.stderr}`);
    assert.match(res.stderr, /usage: db-migrate\.mjs/);
  }
});

await step("a failing catalogue: exit 1 naming it, no shard attempted", () => {
  const res = migrate(catalogueBroken, "--concurrency", "2");
  assert.equal(res.status, 1, res.stdout + res.stderr);
  assert.match(res.stdout, /^--- DB \(local\): FAILED/m);
  assert.match(res.stderr, /migrations FAILED on DB \(local\); not attempted: SHARD_1, SHARD_2, SHARD_3\./);
  for (const b of ["SHARD_1", "SHARD_2", "SHARD_3"]) assert.deepEqual(applied(catalogueBroken, b), [], b);
  rmSync(state, { recursive: true, force: true });
});

await step("a failing shard: the others migrate, exit 1 naming only it, its wrangler output printed", () => {
  const res = migrate(shardTwoBroken, "--concurrency", "2");
  assert.equal(res.status, 1, res.stdout + res.stderr);
  assert.match(res.stderr, /migrations FAILED on SHARD_2 \(local\); every other database is migrated\./);
  assert.match(res.stdout, /^--- SHARD_2 \(local\): FAILED in [\d.]+ s\n[\s\S]*no such table: no_such_table/m);
  assert.match(res.stdout, /^migrations applied to DB \(local\)/m);
  for (const b of ["SHARD_1", "SHARD_3"]) assert.equal(applied(good, b).at(-1), lastShardMigration, b);
  assert.deepEqual(applied(good, "SHARD_2"), []);
});

await step("run again once fixed: the failed shard is migrated, the others skip what they applied", () => {
  const res = migrate(good, "--concurrency", "2");
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /migrations applied to every database \(local, concurrency 2\)/);
  for (const b of ["SHARD_1", "SHARD_2", "SHARD_3"]) assert.equal(applied(good, b).at(-1), lastShardMigration, b);
  const catalogue = applied(good, "DB");
  assert.equal(new Set(catalogue).size, catalogue.length, "every catalogue migration applied once");
});

rmSync(dir, { recursive: true, force: true });
finish("db-migrate");
