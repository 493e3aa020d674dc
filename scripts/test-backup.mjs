// npm run test:backup: npm run db:backup and db:restore, as an operator runs them, on local D1 (docs/operations.md,
// "Backup and restore"). Seeds the demo data into a fresh state directory, backs up every database (the catalogue and
// each shard), restores the backup into a second, empty one, and compares every table of every database (row count
// and a hash of its rows in primary key or rowid order), sqlite_master, the shards' id counters, and the answers of
// every full-text index to the same queries; then checks that a restore into a non-empty database is refused without
// --force and replaces it with --force; that the backup is its owner's alone (0700, 0600) under a umask of 000; and that
// a remote restore without its typed confirmation is refused (exit 2) before any wrangler call (a guard loaded into
// the script fails on any subprocess or fetch, so nothing reaches the network). Prints a an ok or not ok line per check
// and the closing line CI reads ("backup: N passed, N failed"); exits 1 on any failure.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PassThrough } from "node:stream";
import { confirmRemoteRestore } from "./backup/confirm.mjs";
import { shardBindings } from "./d1-bindings.mjs";
import { ROOT, WRANGLER, checklist, migrateLocal, seedLocal, wranglerEnv } from "./lib.mjs";

const DIR = join(ROOT, ".wrangler", "backup-test");
const SOURCE = join(DIR, "source");
const RESTORED = join(DIR, "restored");
// A backup is a directory: one file per database (DB.sql, SHARD_1.sql, ...).
const FILE = join(DIR, "backup");
const started = Date.now();
const SHARDS = await shardBindings();

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: wranglerEnv, stdio: "pipe" });
    // Decoded as a stream: a chunk may end inside a multi-byte character.
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** The rows of each statement, from `wrangler d1 execute --json` on a local state directory. */
async function d1(persistTo, sql, binding = "DB") {
  const res = await run(WRANGLER, ["d1", "execute", binding, "--local", "--persist-to", persistTo, "--json", "--command", sql]);
  if (res.status !== 0) throw new Error(`d1 execute failed: ${res.stdout}${res.stderr}`);
  return JSON.parse(res.stdout).map((s) => s.results);
}

const script = (name, args) => run(process.execPath, [join(ROOT, "scripts", name), ...args]);
const hash = (rows) => createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16);
const id = (name) => `"${name.replaceAll('"', '""')}"`;

const { step: check, finish: finishChecks } = checklist();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

// A text wrangler's dump alone would get wrong: a real line break and the two characters `\n` (docs/decisions.md,
// "Backups"). In a container title, so the full-text indexes and the derived documents carry it too.
const TRICKY = "\nline two, literal \\n and \\r\r";

rmSync(DIR, { recursive: true, force: true });
await migrateLocal(SOURCE);
console.log(`[${seconds(started)}]`);
await seedLocal(SOURCE);
const [, list, keys, master] = await d1(
  SOURCE,
  [
    `UPDATE titles SET text = text || char(10) || 'line two, literal \\n and \\r' || char(13) WHERE rowid = (SELECT min(rowid) FROM titles WHERE resource_kind = 'c')`,
    "PRAGMA table_list",
    "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p " +
      "WHERE m.type = 'table' AND p.pk > 0 AND m.name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY m.name, p.pk",
    "SELECT name, sql FROM sqlite_master WHERE type = 'table'",
  ].join(";\n"),
);
console.log(`source ready [${seconds(started)}]`);
const main = list.filter((t) => t.schema === "main" && !t.name.startsWith("_cf_"));
const tables = main.filter((t) => t.type === "table" && (!t.name.startsWith("sqlite_") || t.name === "sqlite_sequence")).map((t) => t.name);
const fts = main.filter((t) => t.type === "virtual").map((t) => t.name);
const contentless = new Set(master.filter((m) => /\bcontent\s*=\s*''/i.test(m.sql ?? "")).map((m) => m.name));
const TERMS = ["a*", "e*", "m*", "s*", "t*", "the", "love*", "literal"];

/** Every table's rows, sqlite_master, and each full-text index's matches for TERMS: one `wrangler d1 execute`. */
async function snapshot(persistTo) {
  const statements = [
    ...tables.map((t) => {
      const pk = keys.filter((k) => k.tbl === t).map((k) => id(k.col));
      return `SELECT * FROM ${id(t)} ORDER BY ${pk.length ? pk.join(", ") : "rowid"}`;
    }),
    "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY type, name",
    // A contentless index answers resource ids (its rowids); an external-content one the indexed text (its rowids
    // are the content table's implicit ones, which a restore may renumber).
    ...fts.flatMap((f) =>
      TERMS.map((term) =>
        contentless.has(f)
          ? `SELECT rowid FROM ${id(f)} WHERE ${id(f)} MATCH '${term}' ORDER BY rowid`
          : `SELECT * FROM ${id(f)} WHERE ${id(f)} MATCH '${term}' ORDER BY 1`,
      ),
    ),
  ];
  const results = await d1(persistTo, statements.join(";\n"));
  return {
    tables: new Map(tables.map((t, i) => [t, results[i]])),
    master: results[tables.length],
    fts: new Map(fts.map((f, i) => [f, results.slice(tables.length + 1 + i * TERMS.length, tables.length + 1 + (i + 1) * TERMS.length)])),
  };
}

function compareTable(a, b, t) {
  const [ra, rb] = [a.tables.get(t), b.tables.get(t)];
  assert.equal(rb.length, ra.length, `${t}: ${rb.length} rows restored, ${ra.length} in the source`);
  if (hash(rb) !== hash(ra)) {
    // Both sides on disk, to diff.
    const [fa, fb] = ["source", "restored"].map((side) => join(DIR, `${t}.${side}.json`));
    writeFileSync(fa, JSON.stringify(ra, null, 1));
    writeFileSync(fb, JSON.stringify(rb, null, 1));
    assert.fail(`${t}: same row count, different rows (diff ${relative(ROOT, fa)} ${relative(ROOT, fb)})`);
  }
  return `${ra.length} rows, ${hash(ra)}`;
}

// The backup directory already there and open to all, with a stale file open to all, and the backup run with umask
// 000: the directory and every file must still end up the owner's alone.
mkdirSync(FILE, { recursive: true });
chmodSync(FILE, 0o777);
writeFileSync(join(FILE, "DB.sql"), "stale");
chmodSync(join(FILE, "DB.sql"), 0o666);
const underUmask000 = (name, args) =>
  run("/bin/sh", ["-c", 'umask 000 && exec "$0" "$@"', process.execPath, join(ROOT, "scripts", name), ...args]);

await check("db:backup writes a backup of the seeded database", async () => {
  const res = await underUmask000("db-backup.mjs", ["--local", "--persist-to", SOURCE, "--out", FILE]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  const meta = JSON.parse(
    readFileSync(join(FILE, "DB.sql"), "utf8")
      .split("\n")[1]
      .replace(/^-- backup: /, ""),
  );
  assert.deepEqual(meta.fts.map((f) => f.name).sort(), [...fts].sort());
  assert.deepEqual(readdirSync(FILE).sort(), ["DB.sql", ...SHARDS.map((b) => `${b}.sql`)]);
  return res.stdout
    .split("\n")
    .filter((l) => l.endsWith("bytes"))
    .join("; ");
});

await check("the backup is its owner's alone: directory 0700, every file 0600, under umask 000", () => {
  const mode = (path) => statSync(path).mode & 0o777;
  assert.equal(mode(FILE).toString(8), "700", FILE);
  const files = readdirSync(FILE);
  for (const f of files) assert.equal(mode(join(FILE, f)).toString(8), "600", f);
  return `${files.length} files`;
});

// Any subprocess (wrangler) or fetch in the restore script exits at once with 99 or 98, saying so: a refusal that
// exits 2 without it touched nothing, let alone the network.
const GUARD = `data:text/javascript,${encodeURIComponent(`
  import cp from "node:child_process";
  import { syncBuiltinESMExports } from "node:module";
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
    cp[name] = () => { process.stderr.write("GUARD: " + name + " called\\n"); process.exit(99); };
  }
  syncBuiltinESMExports();
  globalThis.fetch = () => { process.stderr.write("GUARD: fetch called\\n"); process.exit(98); };
`)}`;
const guardedRestore = (args) => run(process.execPath, ["--import", GUARD, join(ROOT, "scripts", "db-restore.mjs"), ...args]);
const REMOTE = ["--file", FILE, "--remote", "--env", "production", "--force"];

await check("a remote restore without --confirm and no terminal is refused (exit 2) before any wrangler call", async () => {
  const res = await guardedRestore(REMOTE);
  assert.equal(res.status, 2, res.stdout + res.stderr);
  assert.doesNotMatch(res.stderr, /GUARD/);
  assert.match(res.stderr, /--confirm production/);
  assert.match(res.stderr, /media-catalogue-production\b/);
  return res.stderr.trim().split("\n").at(-1);
});
await check("a --confirm naming another environment is refused the same way", async () => {
  const res = await guardedRestore([...REMOTE, "--confirm", "staging"]);
  assert.equal(res.status, 2, res.stdout + res.stderr);
  assert.doesNotMatch(res.stderr, /GUARD/);
  assert.match(res.stderr, /--confirm "staging" does not match.*--confirm production/);
});
await check("--confirm production goes past the confirmation: its first act is a wrangler call (stopped by the guard)", async () => {
  const res = await guardedRestore([...REMOTE, "--confirm", "production"]);
  assert.equal(res.status, 99, res.stdout + res.stderr);
  assert.match(res.stderr, /GUARD: spawnSync called/);
});
await check("on a terminal the environment's name typed at the prompt confirms, anything else refuses", async () => {
  const databases = [{ binding: "DB", name: "media-catalogue-production" }];
  const ask = async (typed) => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let prompt = "";
    output.on("data", (c) => (prompt += c));
    const answer = confirmRemoteRestore({ remote: true, env: "production" }, databases, undefined, { input, output });
    input.end(typed);
    return answer.then(
      () => ({ ok: true, prompt }),
      (err) => ({ ok: false, prompt, err }),
    );
  };
  const yes = await ask("production\n");
  assert.ok(yes.ok, String(yes.err));
  assert.match(yes.prompt, /Type the environment's name \(production\)/);
  for (const typed of ["prod\n", "Production\n", ""]) {
    const no = await ask(typed);
    assert.equal(no.ok, false, JSON.stringify(typed));
    assert.match(no.err.message, /--confirm production/);
  }
  // A local restore asks nothing.
  await confirmRemoteRestore({ remote: false }, databases, undefined, { input: new PassThrough() });
});

const [source] = await Promise.all([
  snapshot(SOURCE),
  check("db:restore loads it into an empty database", async () => {
    const res = await script("db-restore.mjs", ["--file", FILE, "--local", "--persist-to", RESTORED]);
    assert.equal(res.status, 0, res.stdout + res.stderr);
    return res.stdout.split("\n")[0];
  }),
]);
let restored;
await check("the restored database answers every table and full-text query", async () => {
  restored = await snapshot(RESTORED);
});
if (!restored) finish();

for (const t of tables) await check(`table ${t}`, () => compareTable(source, restored, t));
await check("sqlite_master: the same tables, indexes, triggers and full-text indexes", () => {
  assert.deepEqual(restored.master, source.master);
  return `${source.master.length} entries`;
});
for (const f of fts) {
  await check(`full-text index ${f} answers the same ${TERMS.length} queries`, () => {
    const [a, b] = [source.fts.get(f), restored.fts.get(f)];
    TERMS.forEach((term, i) => assert.deepEqual(b[i], a[i], `MATCH '${term}': ${b[i].length} hits restored, ${a[i].length} in the source`));
    const hits = a.reduce((n, r) => n + r.length, 0);
    assert.ok(hits > 0, "no query matched anything: the check would prove nothing");
    return `${hits} hits, e.g. MATCH 'a*': ${a[0].length}`;
  });
}
let probe;
await check("full-text indexes pass fts5 'integrity-check' after the restore", async () => {
  probe = await d1(
    RESTORED,
    [
      ...fts.map((f) => `INSERT INTO ${id(f)}(${id(f)}) VALUES('integrity-check')`),
      "SELECT text FROM titles WHERE instr(text, 'literal \\n and') > 0",
      // Then changes for --force to undo (below), in the same run to spare a wrangler start.
      "DELETE FROM users WHERE id = (SELECT max(id) FROM users)",
      "UPDATE titles SET text = 'changed' WHERE rowid = 1",
    ].join(";\n"),
  );
  return fts.join(", ");
});
await check("a title with a line break and a literal \\n comes back exactly", () => {
  const rows = probe?.[fts.length] ?? [];
  assert.equal(rows.length, 1, JSON.stringify(rows));
  assert.ok(rows[0].text.endsWith(TRICKY), JSON.stringify(rows[0].text));
});
await check("db:restore refuses a database that is not empty", async () => {
  const res = await script("db-restore.mjs", ["--file", FILE, "--persist-to", RESTORED]);
  assert.equal(res.status, 1, res.stdout + res.stderr);
  assert.match(res.stderr, /is not empty .*--force/);
});
await check("db:restore --force replaces its rows (a user deleted, a title changed): every table the same again", async () => {
  const res = await script("db-restore.mjs", ["--file", FILE, "--persist-to", RESTORED, "--force"]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  restored = await snapshot(RESTORED);
  for (const t of tables) compareTable(source, restored, t);
  for (const f of fts) assert.deepEqual(restored.fts.get(f), source.fts.get(f), f);
  return `${tables.length} tables, ${fts.length} full-text indexes`;
});

// The shards (docs/decisions.md, "Shards"): every ordinary table of each (its rows in rowid order, d1_migrations
// included; no shard table is WITHOUT ROWID) and its sqlite_master the same after the restore (and the --force above),
// the id counters named apart, and the subtitle search index answering the same queries. The index's own shadow
// tables are left out: a refill lays out its segments differently, and what it answers is what counts.
const SHARD_TERMS = ['"the"', "w*", '"사 랑"', '"東 京"', '"猫"', '{scope} : "lko"', '{body} : ("you") AND {scope} : "len"'];
async function shardSnapshot(persistTo, binding) {
  const [list] = await d1(persistTo, "PRAGMA table_list", binding);
  const own = list.filter((t) => t.schema === "main" && !t.name.startsWith("_cf_"));
  const names = own
    .filter((t) => t.type === "table" && (!t.name.startsWith("sqlite_") || t.name === "sqlite_sequence"))
    .map((t) => t.name)
    .sort();
  const indexes = own
    .filter((t) => t.type === "virtual")
    .map((t) => t.name)
    .sort();
  const results = await d1(
    persistTo,
    [
      ...names.map((t) => `SELECT * FROM ${id(t)} ORDER BY ${t === "sqlite_sequence" ? "name" : "rowid"}`),
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY type, name",
      ...indexes.flatMap((f) => SHARD_TERMS.map((term) => `SELECT rowid FROM ${id(f)} WHERE ${id(f)} MATCH '${term}' ORDER BY rowid`)),
    ].join(";\n"),
    binding,
  );
  const answers = results.slice(names.length + 1);
  return {
    names,
    indexes,
    tables: new Map(names.map((t, i) => [t, results[i]])),
    master: results[names.length],
    fts: new Map(indexes.map((f, i) => [f, answers.slice(i * SHARD_TERMS.length, (i + 1) * SHARD_TERMS.length)])),
  };
}
for (const binding of SHARDS) {
  await check(`${binding}: every table, sqlite_master and the shard_ids counters restored exactly`, async () => {
    const [a, b] = await Promise.all([shardSnapshot(SOURCE, binding), shardSnapshot(RESTORED, binding)]);
    assert.deepEqual(b.names, a.names);
    const comments = a.tables.get("timed_comments") ?? [];
    assert.ok(comments.length > 0, `the demo seed put no timed comments on ${binding}: the check would prove nothing`);
    for (const t of a.names) compareTable(a, b, t);
    assert.deepEqual(b.master, a.master);
    const counters = a.tables.get("shard_ids") ?? [];
    assert.ok(counters.length > 0, `${binding} has no shard_ids counter`);
    assert.deepEqual(b.tables.get("shard_ids"), counters);
    assert.deepEqual(b.indexes, a.indexes);
    const found = (a.fts.get("subtitle_search") ?? []).map((rows) => rows.length);
    assert.ok(
      found.filter((n) => n > 0).length >= 3,
      `the subtitle search index of ${binding} answers too little to prove anything: ${found}`,
    );
    for (const f of a.indexes) {
      SHARD_TERMS.forEach((term, i) => assert.deepEqual(b.fts.get(f)[i], a.fts.get(f)[i], `${f} MATCH '${term}'`));
    }
    return (
      `${a.names.length} tables, ${comments.length} comments, counter ${counters.map((c) => `${c.shard}:${c.next_id}`).join(", ")}, ` +
      `subtitle search hits ${found.join("/")}`
    );
  });
}

finish();

function finish() {
  finishChecks("backup");
}
