// npm run db:restore -- --file DIR|FILE [--local [--persist-to DIR] | --remote --env staging|production --confirm ENV] [--force]
// Loads a backup of npm run db:backup (a directory: every database; one file: that database) into empty D1 databases,
// each into the binding it was taken from (DB, SHARD_<n>; docs/decisions.md, "Shards"): the backup's own migrations (the schema the rows
// were taken from), then every row (d1_migrations too), the full-text indexes refilled as they are loaded, all in one
// `wrangler d1 execute --file` (docs/decisions.md, "Backups"; docs/operations.md, "Backup and restore").
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1Databases } from "./d1-bindings.mjs";
import { wrangler } from "./lib.mjs";
import { D1Error, execute } from "./admin/d1.mjs";
import { printReseat, reseatShardIds } from "./admin/shard-ids.mjs";
import { confirmRemoteRestore } from "./backup/confirm.mjs";
import { readBackupMeta, writeRestoreSql } from "./backup/format.mjs";
import { BackupError, UsageError, checkoutMigrations, describeTarget, fromCwd, parseArgs, targetArgs } from "./backup/target.mjs";

const USAGE = `usage: npm run db:restore -- --file DIR|FILE [--local [--persist-to DIR] | --remote --env staging|production --confirm ENV] [--force]

  --file DIR|FILE     a backup directory written by npm run db:backup (every database in it), or one of its files
  --local             the local D1 of npm start and npm run dev (the default)
  --persist-to DIR    another local state directory (as wrangler dev --persist-to)
  --remote --env ENV  the deployed D1 of that environment's wrangler.toml binding
  --confirm ENV       the environment's name again, typed: a remote restore asks for it (on a terminal, at a prompt)
                      and refuses without it (exit 2) before touching anything
  --force             replace the rows of a database that already has tables (otherwise refused)

The target gets the backup's migrations, then its rows; a restore that loaded a shard then raises every shard's id
counters past the ids in use (as npm run admin -- shards reseat-ids). Restore into a new database and check it
before pointing production at it (docs/operations.md, "Backup and restore").`;

/** The target's own tables (not D1's). */
function targetTables(target) {
  const [tables] = execute(
    target,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
  );
  return tables.map((t) => t.name);
}

async function main(argv) {
  const { options, target } = await parseArgs(argv, { values: ["file", "confirm"], flags: ["force"] });
  if (options.help) return console.log(USAGE);
  if (!options.file) throw new UsageError("--file DIR|FILE names the backup to load");
  const path = fromCwd(options.file);
  let files;
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith(".sql"))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch (err) {
    throw new BackupError(`cannot read ${options.file}: ${err.code ?? err.message}`);
  }
  if (!files.length) throw new BackupError(`${options.file} holds no .sql backup`);
  // Only each file's header is read here; its rows are streamed into the restore's SQL when it loads.
  const backups = [];
  for (const file of files) {
    try {
      backups.push({ file, meta: await readBackupMeta(file) });
    } catch (err) {
      if (err instanceof BackupError) throw new BackupError(`${file}: ${err.message}`);
      throw new BackupError(`cannot read ${file}: ${err.code ?? err.message}`);
    }
  }
  // Every database the backup names must exist here before anything is loaded.
  const databases = await d1Databases(target.env);
  const bindings = new Set(databases.map((d) => d.binding));
  const unknown = backups.map((b) => b.meta.binding ?? "DB").filter((b) => !bindings.has(b));
  if (unknown.length) throw new BackupError(`wrangler.toml has no D1 binding ${unknown.join(", ")} for the ${describeTarget(target)}`);
  // A deployed environment's databases are replaced only with its name typed; asked before any wrangler call.
  const restored = new Set(backups.map((b) => b.meta.binding ?? "DB"));
  await confirmRemoteRestore(
    target,
    databases.filter((d) => restored.has(d.binding)),
    options.confirm,
  );
  // Every target checked before any is loaded, so a refusal leaves them all as they were.
  const targets = backups.map((backup) => {
    const t = { ...target, binding: backup.meta.binding ?? "DB" };
    const tables = targetTables(t);
    if (tables.length && !options.force) {
      throw new BackupError(
        `the ${describeTarget(t)} ${t.binding} is not empty (${tables.length} tables): restore into a new database, ` +
          "or add --force to replace every row it holds",
      );
    }
    return { target: t, tables };
  });
  for (const [i, backup] of backups.entries()) await restoreDatabase(targets[i].target, targets[i].tables, backup);
  // A shard's counters came back from the backup; rows its ranges issued since may be on other shards (their
  // containers moved), and the files of a backup are not one point in time (docs/decisions.md, "Backups").
  if (targets.some((t) => t.target.binding !== "DB")) {
    console.log("shard id counters (npm run admin -- shards reseat-ids):");
    printReseat(await reseatShardIds(target));
  }
}

async function restoreDatabase(target, tables, { file, meta }) {
  const where = `${describeTarget(target)} ${target.binding}`;
  console.error(`db:restore: ${file} (${meta.source}, ${meta.created_at}) into the ${where}`);

  // A target past the backup's migrations has a schema the rows were not taken from.
  const [applied] = tables.includes("d1_migrations") ? execute(target, "SELECT name FROM d1_migrations ORDER BY id") : [[]];
  const ahead = applied.map((m) => m.name).filter((m, i) => meta.migrations[i] !== m);
  if (ahead.length) {
    throw new BackupError(
      `the ${where} has migrations the backup was not taken at (${ahead.slice(0, 3).join(", ")}${ahead.length > 3 ? ", …" : ""}): ` +
        "restore into a new database",
    );
  }

  // The backup's migrations, not this checkout's: its rows fit the schema they were taken from. Later ones are
  // left to the next deploy, as for any database.
  const checkout = await checkoutMigrations(target);
  const missing = meta.migrations.filter((m) => !checkout.names.includes(m));
  if (missing.length) {
    throw new BackupError(
      `this checkout lacks migration ${missing.join(", ")} of the backup: restore from a checkout that has it ` +
        "(git log -- migrations/ shows when each arrived)",
    );
  }
  const done = new Set(applied.map((m) => m.name));
  const migrations = meta.migrations.filter((m) => !done.has(m)).map(checkout.read);

  const work = mkdtempSync(join(tmpdir(), "db-restore-"));
  let rows;
  try {
    const sqlFile = join(work, "restore.sql");
    // Written a line at a time as the backup is read, never held whole (docs/decisions.md, "Backups").
    rows = await writeRestoreSql(sqlFile, { file, meta, migrations });
    wrangler(["d1", "execute", target.binding, ...targetArgs(target), "--file", sqlFile, "-y"], { quiet: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const total = [...rows.values()].reduce((a, b) => a + b, 0);
  console.log(`restored ${total} rows of ${meta.tables.length} tables at migration ${meta.migrations.at(-1)} into the ${where}`);
  console.log(`full-text indexes refilled: ${meta.fts.map((f) => f.name).join(", ") || "none"}`);
  const newer = checkout.names.filter((m) => !meta.migrations.includes(m));
  if (newer.length) {
    console.log(
      `this checkout has ${newer.length} newer migrations (${newer.join(", ")}); the next deploy (or ` +
        `npx wrangler d1 migrations apply ${target.binding} ${targetArgs(target).join(" ")}) applies them`,
    );
  }
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`db:restore: ${err.message} (npm run db:restore -- --help)`);
    process.exitCode = 2;
  } else {
    // BackupError and D1Error say what happened; a failed wrangler run has printed its own output above this line.
    console.error(`db:restore: ${err instanceof BackupError || err instanceof D1Error ? "" : "failed: "}${err.message}`);
    process.exitCode = 1;
  }
}
