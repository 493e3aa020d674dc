// npm run bench [-- --fresh] [--duration S] [--connections N] [--port P] [--no-write]
//
// Throughput and latency of the catalogue reads against a real `wrangler dev` (workerd + local D1) holding
// the demo seed and the large catalogue (npm run seed:large): 10,000 containers, 126,097 videos. State lives
// in .bench/state (git-ignored) and is reused across runs (the seeds are idempotent); --fresh rebuilds it.
//
// Each scenario: one probe request (status, rows read and queries from Server-Timing), a short warm-up, then
// autocannon for `duration` seconds with `connections` connections. Non-2xx answers are counted, not fatal:
// routes still being written show up as errors in the table. Results are printed as markdown and written
// into docs/performance.md between the bench markers (unless --no-write).
//
// Add a scenario by appending to SCENARIOS: `path(ctx)` builds the URL from the ids picked in the database.
import { spawnSync } from "node:child_process";
import autocannon from "autocannon";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT, ensureDevVars, migrateLocal, seedLocal, startDev } from "./lib.mjs";
import { CONTAINER_BASE } from "./large-catalogue-sql.mjs";
import { seedLarge, withLocalD1 } from "./seed-large.mjs";

const SCENARIOS = [
  { name: "trivial (`GET /`)", trivial: true, path: () => "/" },
  { name: "one container", path: (ctx) => `/v4/containers/${ctx.oneContainer}c.json` },
  { name: "filtered page (genre, sort views, 25)", path: () => "/v4/containers.json?genre=6g&sort=views&per_page=25" },
  { name: "bulk `ids=` of 25", path: (ctx) => `/v4/containers.json?ids=${ctx.bulkIds.map((id) => `${id}c`).join(",")}` },
  { name: "list `1l`", path: () => "/v4/lists/1l.json" },
];

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
const DOC = join(ROOT, "docs", "performance.md");

function parseArgs(argv) {
  const opts = { fresh: false, duration: 6, connections: 10, port: 8798, write: true, warmup: 1, importBench: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === "--fresh") opts.fresh = true;
    else if (a === "--duration") opts.duration = num();
    else if (a === "--connections") opts.connections = num();
    else if (a === "--port") opts.port = num();
    else if (a === "--warmup") opts.warmup = num();
    else if (a === "--no-write") opts.write = false;
    else if (a === "--no-import") opts.importBench = false;
    else
      throw new Error(`unknown argument ${a} (use --fresh, --duration S, --connections N, --port P, --warmup S, --no-write, --no-import)`);
  }
  return opts;
}

const serverTiming = (res, name) => {
  const m = new RegExp(`${name};desc="([^"]*)"`).exec(res.headers.get("server-timing") ?? "");
  return m ? Number(m[1]) : null;
};

function run(url, { duration, connections }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration, connections }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function probe(url) {
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  return {
    status: res.status,
    bytes: body.byteLength,
    rowsRead: serverTiming(res, "d1-rows-read"),
    queries: serverTiming(res, "d1-queries"),
  };
}

/** Ids for the scenarios: normal-state containers of the large catalogue, spread over its range. */
async function pickIds(persistTo) {
  return withLocalD1(persistTo, async (db) => {
    const rows = await db
      .prepare(
        `SELECT id FROM containers WHERE id > ${CONTAINER_BASE} AND state = 'normal' AND hosted AND licensed
         ORDER BY (id * 7919) % 10007 LIMIT 26`,
      )
      .all();
    const ids = rows.results.map((r) => r.id);
    if (ids.length < 26) throw new Error(`only ${ids.length} listed containers in the large catalogue: try --fresh`);
    return { oneContainer: ids[0], bulkIds: ids.slice(1) };
  });
}

const ms = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const ratio = (v, base) => (base ? `${(v / base).toFixed(2)}×` : "-");

function table(results) {
  const trivial = results.find((r) => r.trivial);
  const head = [
    "| scenario | path | req/s | p50 ms | p99 ms | non-2xx | errors | rows read | D1 queries | req/s vs trivial | p50 vs trivial | p99 vs trivial |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  const rows = results.map((r) => {
    const path = r.path.length > 60 ? `${r.path.slice(0, 57)}...` : r.path;
    const codes = Object.entries(r.codes)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, n]) => `${n} (${code})`)
      .join(", ");
    return (
      `| ${r.name} | \`${path}\` | ${Math.round(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${codes || 0} | ${r.errors + r.timeouts} | ` +
      `${r.probe.rowsRead ?? "-"} | ${r.probe.queries ?? "-"} | ${ratio(r.rps, trivial.rps)} | ${ratio(r.p50, trivial.p50)} | ${ratio(r.p99, trivial.p99)} |`
    );
  });
  return [...head, ...rows].join("\n");
}

function writeSection(markdown) {
  const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : `# Performance\n\n${START}\n${END}\n`;
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  const next =
    a !== -1 && b > a
      ? `${doc.slice(0, a + START.length)}\n${markdown}\n${doc.slice(b)}`
      : `${doc.trimEnd()}\n\n${START}\n${markdown}\n${END}\n`;
  writeFileSync(DOC, next);
}

const opts = parseArgs(process.argv.slice(2));
const persistTo = join(ROOT, ".bench", "state");
const started = performance.now();
if (opts.fresh) rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
migrateLocal(persistTo);
await seedLocal(persistTo);
const seeded = await seedLarge({ persistTo });
const ctx = await pickIds(persistTo);

console.log(`starting wrangler dev on port ${opts.port} (state ${persistTo})`);
const server = await startDev({ port: opts.port, persistTo, stdio: "ignore" });
const results = [];
try {
  for (const scenario of SCENARIOS) {
    const path = scenario.path(ctx);
    const url = `${server.base}${path}`;
    const first = await probe(url);
    await run(url, { duration: opts.warmup, connections: opts.connections });
    const r = await run(url, { duration: opts.duration, connections: opts.connections });
    const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
    const result = {
      name: scenario.name,
      trivial: Boolean(scenario.trivial),
      path,
      probe: first,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      codes,
      errors: r.errors,
      timeouts: r.timeouts,
      total: r.requests.total,
    };
    results.push(result);
    console.log(
      `${scenario.name}: ${Math.round(result.rps)} req/s, p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, ` +
        `status ${first.status}, rows read ${first.rowsRead ?? "-"}, non-2xx ${result.non2xx}, errors ${result.errors}`,
    );
  }
} finally {
  server.stop();
}

const wranglerVersion = JSON.parse(readFileSync(join(ROOT, "node_modules", "wrangler", "package.json"), "utf8")).version;
const c = seeded.counts;
const markdown = [
  `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\``,
  `(autocannon, ${opts.connections} connections, ${opts.duration} s per scenario after a ${opts.warmup} s warm-up, against \`wrangler dev\`).`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model?.trim() ?? "cpu"} (nproc ${cpus().length}), Node ${process.version}, wrangler ${wranglerVersion},`,
  `load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")}. Catalogue: demo seed + ${c.containers.toLocaleString("en-US")} containers,`,
  `${c.videos.toLocaleString("en-US")} videos, ${c.container_facets.toLocaleString("en-US")} facet rows (large seed step ${seeded.seconds.toFixed(1)} s; whole bench ${((performance.now() - started) / 1000).toFixed(0)} s).`,
  "",
  table(results),
].join("\n");
console.log(`\n${markdown}\n`);
if (opts.write) {
  writeSection(markdown);
  console.log(`written to ${DOC}`);
}
const failing = results.filter((r) => r.non2xx || r.errors);
if (failing.length) console.log(`non-2xx or errors on: ${failing.map((r) => r.name).join(", ")}`);

// The localisation scenario (a 2,000-cue SRT import through the queue, a 100-video completion) is a job, not a
// GET, so it has its own script; the one bench command runs both.
if (opts.importBench) {
  const child = spawnSync(process.execPath, [join(ROOT, "scripts", "bench-import.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (child.status !== 0) process.exitCode = child.status ?? 1;
}
