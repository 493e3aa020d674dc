// The table `npm run bench:shard-sizes` prints (scripts/bench-shard-sizes.mjs): sizes, rows, bytes per subtitle row,
// times, and what a 10 GB shard holds at the measured marginal size.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { CUES } from "./load.mjs";

/** D1's limit per database, in decimal bytes as Cloudflare states it (a GiB reading would hold 7% more). */
const SHARD_LIMIT = 10 * 1000 ** 3;
const LANGUAGES = 3;

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const mb = (bytes) => (bytes / 1e6).toFixed(1);
const dec = (v) => (v === "" ? v : v.toFixed(1));

/**
 * A database file opened read-only: node:sqlite where Node has it (22.5+), else the sqlite3 shell (`-json`). `all`
 * takes SQL without parameters.
 */
async function openReadOnly(path) {
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path, { readOnly: true });
    return { all: (sql) => db.prepare(sql).all(), close: () => db.close() };
  } catch (err) {
    if (err?.code !== "ERR_UNKNOWN_BUILTIN_MODULE") throw err;
    const all = (sql) => JSON.parse(execFileSync("sqlite3", ["-readonly", "-json", path, sql], { encoding: "utf8" }) || "[]");
    return { all, close: () => {} };
  }
}

/**
 * The local D1 files of a state directory once wrangler has closed them: which database each is (the catalogue has
 * `containers`; a shard's `shard_ids` names it), its size on disk (with any WAL), its page_count × page_size, and the
 * bytes of each table with its indexes (dbstat): local D1 refuses PRAGMA page_count (SQLITE_AUTH).
 */
export async function fileStats(persistTo) {
  const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  const stats = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sqlite"))) {
    const path = join(dir, file);
    const db = await openReadOnly(path);
    try {
      const has = (table) => db.all(`SELECT 1 FROM sqlite_schema WHERE name = '${table}'`).length > 0;
      const shard = has("shard_ids") ? db.all("SELECT min(shard) AS n FROM shard_ids")[0].n : null;
      const name = has("containers") ? "catalogue" : shard !== null ? `SHARD_${shard}` : null;
      if (!name) continue;
      const page = (p) => Object.values(db.all(`PRAGMA ${p}`)[0])[0];
      const wal = existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0;
      const objects = db.all(
        `SELECT d.name AS name, coalesce(m.tbl_name, d.name) AS tbl, sum(d.pgsize) AS bytes FROM dbstat d
         LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY d.name`,
      );
      stats[name] = {
        fileBytes: statSync(path).size + wal,
        pageBytes: page("page_count") * page("page_size"),
        freeBytes: page("freelist_count") * page("page_size"),
        objects,
      };
    } finally {
      db.close();
    }
  }
  return stats;
}

export function report({ shards, before, after, files, loads, catalogue, seeded, seconds }) {
  const cols = ["catalogue (DB)", ...shards, "shards together"];
  const sum = (f) => shards.reduce((s, name) => s + f(name), 0);
  const all = (f) => [f("catalogue"), ...shards.map(f), sum(f)];
  const count = (name, table) => loads[name].check.counts[table];
  const subtitles = (s) => count(s, "subtitles");
  const size = (s) => files[s].pageBytes;
  const growth = (s) => after[s] - before[s];
  const shardsOnly = (f, total = sum(f)) => ["", ...shards.map(f), total];
  const lines = [
    ["file on disk with its WAL, bytes", ...all((s) => files[s].fileBytes).map(fmt)],
    ["size, bytes (page_count × page_size)", ...all(size).map(fmt)],
    ["size, MB", ...all(size).map(mb)],
    ["D1 `meta.size_after`, bytes", ...[catalogue.sizeAfter, ...shards.map((s) => after[s]), sum((s) => after[s])].map(fmt)],
    ["free pages, bytes", ...all((s) => files[s].freeBytes).map(fmt)],
    ["shard before the load (migrated, empty), bytes", ...shardsOnly((s) => before[s]).map((v) => (v === "" ? v : fmt(v)))],
    [
      "containers / videos",
      `${fmt(catalogue.counts.containers)} / ${fmt(catalogue.counts.videos)}`,
      ...shards.map((s) => `${fmt(count(s, "container_facts"))} / ${fmt(count(s, "video_facts"))}`),
      `${fmt(sum((s) => count(s, "container_facts")))} / ${fmt(sum((s) => count(s, "video_facts")))}`,
    ],
    ...[
      "segments",
      "subtitles",
      "subtitle_histories",
      "subtitle_versions",
      "container_language_counts",
      "language_counts",
      "contributions",
    ].map((t) => [`rows: ${t}`, ...shardsOnly((s) => count(s, t)).map((v) => (v === "" ? v : fmt(v)))]),
    ["bytes per subtitle row (size / subtitle rows)", ...shardsOnly((s) => size(s) / subtitles(s), sum(size) / sum(subtitles)).map(dec)],
    [
      "marginal bytes per subtitle row (growth / rows added)",
      ...shardsOnly((s) => growth(s) / subtitles(s), sum(growth) / sum(subtitles)).map(dec),
    ],
    [
      "load time, s (facts + rows)",
      `${seeded.seconds.toFixed(1)} (large seed)`,
      ...shardsOnly((s) => loads[s].factsSeconds + loads[s].loadSeconds)
        .slice(1)
        .map(dec),
    ],
    [
      "subtitle rows written per second",
      ...shardsOnly((s) => subtitles(s) / loads[s].loadSeconds, sum(subtitles) / sum((s) => loads[s].loadSeconds)).map((v) =>
        v === "" ? v : fmt(v),
      ),
    ],
    [
      "derived counts match the rows",
      "",
      ...shards.map((s) => (loads[s].check.ok ? "yes" : "**no**")),
      shards.every((s) => loads[s].check.ok) ? "yes" : "**no**",
    ],
  ];
  const table = [`| | ${cols.join(" | ")} |`, `|---|${cols.map(() => "--:").join("|")}|`, ...lines.map((l) => `| ${l.join(" | ")} |`)];

  // Where the bytes go: each shard table with its indexes, then each of its indexes, on the shards together (objects
  // under 0.1 MB left out).
  const bytesBy = (key) => {
    const totals = new Map();
    for (const s of shards) for (const o of files[s].objects) totals.set(o[key], (totals.get(o[key]) ?? 0) + o.bytes);
    return [...totals].filter(([, bytes]) => bytes >= 100_000).sort((a, b) => b[1] - a[1]);
  };
  const perRow = (bytes) => dec(bytes / sum(subtitles));
  const breakdown = ["", "| shard table or index | MB | bytes per subtitle row |", "|---|--:|--:|"];
  for (const [table, bytes] of bytesBy("tbl")) {
    breakdown.push(`| **${table}** (with its indexes) | ${mb(bytes)} | ${perRow(bytes)} |`);
    const parts = bytesBy("name").filter(([name]) => files[shards[0]].objects.some((o) => o.name === name && o.tbl === table));
    if (parts.length > 1)
      for (const [name, b] of parts) breakdown.push(`| ${name === table ? "(table)" : name} | ${mb(b)} | ${perRow(b)} |`);
  }

  const marginal = sum(growth) / sum(subtitles);
  const empty = sum((s) => before[s]) / shards.length;
  const rows10 = (SHARD_LIMIT - empty) / marginal;
  const capacity = [
    "",
    `Capacity of a 10 GB shard (10^10 bytes) at the marginal ${dec(marginal)} bytes per subtitle row (its share of segments, histories,`,
    `versions and counts included): ${fmt(rows10)} subtitle rows, ${fmt(rows10 / (CUES * LANGUAGES))} videos of ${CUES} cues × ${LANGUAGES} languages.`,
    `Run: ${cpus().length} × ${cpus()[0]?.model?.trim() ?? "cpu"}, Node ${process.version}; whole run ${seconds.toFixed(0)} s.`,
  ];
  return [...table, ...breakdown, ...capacity].join("\n");
}
