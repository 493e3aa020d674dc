// npm run test:backup-memory (CI, beside npm run test:backup): db:backup and db:restore hold a database of any size in
// bounded memory (docs/decisions.md, "Backups"). Writes a synthetic wrangler dump of BACKUP_MEMORY_MB (default 300)
// MB to a temporary directory: shard rows as wrangler writes them, UTF-8 texts of several bytes a character, escaped
// line breaks, rows from a few bytes to 60 KB, sqlite_sequence last. Then, in a child Node with a 64 MB heap
// (--max-old-space-size=64), runs the code both scripts run between wrangler's calls: the backup file written from
// the dump with its text repairs (writeBackup), its header read back (readBackupMeta) and the restore's SQL written
// from it (writeRestoreSql). Checks that the child finishes, that its peak resident memory (getrusage's maxRSS)
// stays under MAX_RSS_MB (160; the dump is at least 1.8 times that), that every row is counted and comes out in the
// restore's SQL exactly, in order, in statements under D1's 100 KB, and, as a control, that the dump read whole and
// split into lines, as the scripts did before, passes that bound. Prints a an ok or not ok line per check and the closing line CI
// reads ("backup-memory: N passed, N failed"); exits 1 on any failure.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readBackupMeta, writeBackup, writeRestoreSql } from "./backup/format.mjs";
import { readLines, writeTexts } from "./backup/lines.mjs";
import { checklist } from "./lib.mjs";

const HEAP_MB = 64;
/** The bound on the child's peak resident memory: Node itself takes about 45 MB of it. */
const MAX_RSS_MB = 160;
const DUMP_MB = Number(process.env.BACKUP_MEMORY_MB ?? 300);
const TABLE = "subtitles";
const HEAD = `INSERT INTO "${TABLE}" ("id","segment_id","video_id","container_id","language","text","created_at") VALUES`;
const SCHEMA = {
  migrations: ["0000_timed_comments.sql"],
  migrationsTable: "CREATE TABLE d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TEXT)",
  tables: [{ name: TABLE }, { name: "sqlite_sequence" }],
  fts: [],
  triggers: [
    { name: "subtitles_count", sql: "CREATE TRIGGER subtitles_count AFTER INSERT ON subtitles BEGIN SELECT 1; END", index: false },
  ],
};
const REPAIRS = 1000;

/** The tuple of row `n` (its VALUES part): every 50th with an escaped line break, every 5,000th 60 KB long. */
function tuple(n) {
  const id = 4294967297 + n;
  const words = n % 5000 === 0 ? "long line ".repeat(6000) : `cue ${n}: 자막 — «ünïcödé» ${"x".repeat(n % 200)}`;
  const text = n % 50 === 0 ? `replace('${words}\\nline two','\\n',char(10))` : `'${words}'`;
  // Ends in '#n'): the check splits a merged statement's tuples there.
  return `(${id},${id},${1000 + (n >> 10)},${7 + (n >> 16)},'ko',${text},'#${n}')`;
}

async function generate(dumpFile) {
  const hash = createHash("sha256");
  let rows = 0;
  let bytes = 0;
  async function* text() {
    yield "PRAGMA defer_foreign_keys=TRUE;\n";
    while (bytes < DUMP_MB * 1e6) {
      const t = tuple(rows++);
      hash.update(t);
      const line = `${HEAD}${t};\n`;
      bytes += Buffer.byteLength(line);
      yield line;
    }
    yield `INSERT INTO "sqlite_sequence" ("name","seq") VALUES('d1_migrations',1);\n`;
  }
  await writeTexts(dumpFile, text());
  return { rows, digest: hash.digest("hex") };
}

/** The child: the scripts' own streaming code under the 64 MB heap; prints what it did and its peak memory. */
async function child(dir, mode) {
  const dumpFile = join(dir, "dump.sql");
  if (mode === "whole") {
    // What the scripts did before: the file read whole, then split into lines.
    const { readFileSync } = await import("node:fs");
    const lines = readFileSync(dumpFile, "utf8").split("\n").length;
    return console.log(JSON.stringify({ lines, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  }
  const started = Date.now();
  const backupFile = join(dir, "SHARD_1.sql");
  function* fixups() {
    for (let i = 1; i <= REPAIRS; i++) yield `UPDATE "${TABLE}" SET "text" = CAST(X'5c6e0a' AS TEXT) WHERE "id" IS ${4294967297 + i};`;
  }
  const written = await writeBackup(backupFile, { source: "synthetic", binding: "SHARD_1", schema: SCHEMA, dumpFile, fixups: fixups() });
  const meta = await readBackupMeta(backupFile);
  const restored = await writeRestoreSql(join(dir, "restore.sql"), { file: backupFile, meta, migrations: ["CREATE TABLE x (a)"] });
  const { getHeapStatistics } = await import("node:v8");
  console.log(
    JSON.stringify({
      backupRows: Object.fromEntries(written.rows),
      repaired: written.repaired,
      restoredRows: Object.fromEntries(restored),
      heapLimitMb: getHeapStatistics().heap_size_limit / 2 ** 20,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      seconds: (Date.now() - started) / 1000,
    }),
  );
}

const childArgs = (dir, mode) => [`--max-old-space-size=${HEAP_MB}`, fileURLToPath(import.meta.url), "--child", dir, mode];

if (process.argv[2] === "--child") {
  await child(process.argv[3], process.argv[4]);
} else {
  await main();
}

async function main() {
  const { step: check, finish } = checklist();
  const dir = mkdtempSync(join(tmpdir(), "backup-memory-"));
  try {
    const dumpFile = join(dir, "dump.sql");
    const source = await generate(dumpFile);
    const dumpMb = statSync(dumpFile).size / 1e6;
    console.log(`synthetic dump: ${source.rows} rows, ${dumpMb.toFixed(0)} MB in ${dir}`);

    let report;
    await check(`backup and restore SQL of the dump with a ${HEAP_MB} MB heap`, () => {
      const res = spawnSync(process.execPath, childArgs(dir, "stream"), { encoding: "utf8" });
      assert.equal(res.status, 0, `exit ${res.status} ${res.signal ?? ""}: ${res.stderr.slice(-2000)}`);
      report = JSON.parse(res.stdout);
      // The limit V8 reports adds the young generation's spaces to the old one's 64 MB.
      assert.ok(report.heapLimitMb <= 2 * HEAP_MB, `heap limit ${report.heapLimitMb} MB: the flag was not applied`);
      return `${report.seconds.toFixed(1)} s`;
    });
    if (report) {
      await check(`peak resident memory under ${MAX_RSS_MB} MB, about half the ${dumpMb.toFixed(0)} MB dump`, () => {
        assert.ok(dumpMb > 1.8 * MAX_RSS_MB, `a ${dumpMb} MB dump is too small to prove the bound`);
        assert.ok(report.maxRssMb < MAX_RSS_MB, `peak RSS ${report.maxRssMb.toFixed(0)} MB`);
        return `peak RSS ${report.maxRssMb.toFixed(0)} MB`;
      });
      await check("every row counted by the backup and by the restore, every text repair written", () => {
        const expected = { [TABLE]: source.rows, sqlite_sequence: 1 };
        assert.deepEqual(report.backupRows, expected);
        assert.deepEqual(report.restoredRows, expected);
        assert.equal(report.repaired, REPAIRS);
        return `${source.rows} rows, ${REPAIRS} repairs`;
      });
      await check("the restore's SQL holds every row exactly, in order, merged into statements under 100 KB", async () => {
        const hash = createHash("sha256");
        let statements = 0;
        let tuples = 0;
        let largest = 0;
        let updates = 0;
        const order = [];
        for await (const line of readLines(join(dir, "restore.sql"))) {
          largest = Math.max(largest, Buffer.byteLength(line));
          if (line.startsWith(`${HEAD} `)) {
            statements++;
            // The tuples of a merged statement, split after each one's closing '#n').
            for (const t of line.slice(HEAD.length + 1, -1).split(/(?<='#\d+'\)),(?=\()/)) {
              hash.update(t);
              tuples++;
            }
            if (order.at(-1) !== "rows") order.push("rows");
          } else if (line.startsWith("UPDATE ")) {
            updates++;
            if (order.at(-1) !== "repairs") order.push("repairs");
          } else if (line.startsWith('INSERT INTO "sqlite_sequence"')) order.push("sequence");
          else if (line.startsWith("CREATE TRIGGER")) order.push("trigger");
        }
        assert.equal(tuples, source.rows);
        assert.equal(hash.digest("hex"), source.digest, "the rows differ from the dump's");
        assert.equal(updates, REPAIRS);
        assert.deepEqual(order, ["rows", "repairs", "sequence", "trigger"]);
        assert.ok(largest < 100_000, `a statement of ${largest} bytes`);
        return `${statements} statements, the largest ${largest} bytes`;
      });
    }
    await check(`control: the dump read whole and split into lines, as before, passes the bound`, () => {
      const res = spawnSync(process.execPath, childArgs(dir, "whole"), { encoding: "utf8" });
      // Whether it runs out of heap or holds the file outside it (Node keeps a large string outside V8's heap), the
      // bound above would have caught it: otherwise that check proves nothing.
      if (res.status !== 0) return `exit ${res.status ?? res.signal}: out of memory`;
      const whole = JSON.parse(res.stdout);
      assert.ok(whole.maxRssMb > MAX_RSS_MB, `peak RSS ${whole.maxRssMb.toFixed(0)} MB reading it whole: the bound proves nothing`);
      return `peak RSS ${whole.maxRssMb.toFixed(0)} MB`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  finish("backup-memory");
}
