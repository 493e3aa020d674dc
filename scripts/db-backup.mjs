// npm run db:backup -- [--local [--persist-to DIR] | --remote --env staging|production] [--out DIR]
// Every row of every D1 database of the environment (the catalogue, DB, and each shard, SHARD_<n>; docs/decisions.md,
// "Shards") into one .sql file per database, in one directory that npm run db:restore loads. `wrangler d1 export` refuses a
// database with fts5 tables, so this exports the ordinary tables only (`--table`, data only) and the restore refills
// the full-text indexes from them (docs/decisions.md, "Backups"; docs/operations.md, "Backup and restore").
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { d1Databases } from "./d1-bindings.mjs";
import { ROOT, wrangler } from "./lib.mjs";
import { D1Error } from "./admin/d1.mjs";
import { writeBackup } from "./backup/format.mjs";
import { inspect, textFixups } from "./backup/schema.mjs";
import { BackupError, UsageError, describeTarget, fromCwd, parseArgs, targetArgs, tempConfig } from "./backup/target.mjs";

const USAGE = `usage: npm run db:backup -- [--local [--persist-to DIR] | --remote --env staging|production] [--out DIR]

  --local             the local D1 of npm start and npm run dev (the default)
  --persist-to DIR    another local state directory (as wrangler dev --persist-to)
  --remote --env ENV  the deployed D1 of that environment; D1 serves no queries while it exports
  --out DIR           where to write: DIR/<binding>.sql for each database (default backups/<local|environment>-<UTC time>/)

Load it with npm run db:restore -- --file DIR (every database) or --file DIR/<binding>.sql (one).`;

async function main(argv) {
  const { options, target } = await parseArgs(argv, { values: ["out"] });
  if (options.help) return console.log(USAGE);
  const stamp = new Date()
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "");
  const dir = options.out ? fromCwd(options.out) : join(ROOT, "backups", `${target.env ?? "local"}-${stamp}`);
  // The files hold password hashes, emails and application secrets: the directory and each file are the owner's alone
  // (0700, 0600), whatever the umask, and an existing directory named by --out is closed too (docs/operations.md,
  // "Backup and restore"). wrangler's dump goes to a directory of mkdtemp's, 0700 as well.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  // One after the other: a remote export stops its database answering until it ends, one database at a time.
  for (const { binding } of await d1Databases(target.env)) await backupDatabase({ ...target, binding }, join(dir, `${binding}.sql`));
}

async function backupDatabase(target, out) {
  const where = `${describeTarget(target)} ${target.binding}`;
  console.error(`db:backup: reading the ${where}`);
  const schema = inspect(target);
  const work = mkdtempSync(join(tmpdir(), "db-backup-out-"));
  const config = await tempConfig(target);
  let written;
  try {
    const dumpFile = join(work, "dump.sql");
    const tables = schema.tables.flatMap((t) => ["--table", t.name]);
    if (target.remote) console.error("db:backup: exporting; the remote database answers no queries until the export ends");
    wrangler(
      [
        "d1",
        "export",
        target.binding,
        ...config.args,
        ...targetArgs({ ...target, persistTo: undefined }),
        "--output",
        dumpFile,
        "--no-schema",
        "-y",
        ...tables,
      ],
      { quiet: true },
    );
    mkdirSync(dirname(out), { recursive: true, mode: 0o700 });
    // The dump is copied into the backup a line at a time, never read whole (docs/decisions.md, "Backups").
    closeExisting(out);
    written = await writeBackup(out, {
      source: where,
      binding: target.binding,
      schema,
      dumpFile,
      fixups: textFixups(target, schema.tables),
    });
    chmodSync(out, 0o600);
  } finally {
    config.dispose();
    rmSync(work, { recursive: true, force: true });
  }
  const total = [...written.rows.values()].reduce((a, b) => a + b, 0);
  console.log(`${relative(process.cwd(), out) || out}: ${total} rows of ${schema.tables.length} tables, ${statSync(out).size} bytes`);
  console.log(
    `taken at migration ${schema.migrations.at(-1)}; full-text indexes (refilled on restore): ${schema.fts.map((f) => f.name).join(", ") || "none"}`,
  );
  if (written.repaired)
    console.log(`${written.repaired} rows with both line breaks and literal \\n or \\r kept exactly (docs/decisions.md, "Backups")`);
}

/**
 * A backup file is readable and writable by its owner only (0600) whatever the umask: one already there is closed
 * before any byte is written, a new one is created so (writeBackup), and both are set again once written.
 */
function closeExisting(path) {
  if (existsSync(path)) chmodSync(path, 0o600);
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`db:backup: ${err.message} (npm run db:backup -- --help)`);
    process.exitCode = 2;
  } else {
    // BackupError and D1Error say what happened; a failed wrangler run has printed its own output above this line.
    console.error(`db:backup: ${err instanceof BackupError || err instanceof D1Error ? "" : "failed: "}${err.message}`);
    process.exitCode = 1;
  }
}
