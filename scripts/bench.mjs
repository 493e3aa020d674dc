// npm run bench [-- --fresh] [--only TEXT] [--duration S] [--connections N] [--port P] [--rounds N] [--no-write]
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
// --rounds N (N > 1) measures each scenario that has a target in N rounds, each the trivial route then the scenario,
// and one more trivial run after the last: its ratio is the median of the rounds' (each against the mean of the
// trivial runs around it), so a drift of the machine over the run moves both sides of each ratio alike.
//
// Add a scenario by appending to SCENARIOS: `path(ctx)` builds the URL from the ids picked in the database.
import { spawnSync } from "node:child_process";
import autocannon from "autocannon";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { DEMO_OFFICIAL_APP, ROOT, ensureDevVars, migrateLocal, seedLocal, signedHeaders, startDev } from "./lib.mjs";
import { CONTAINER_BASE } from "./large-catalogue-sql.mjs";
import { seedLarge, withLocalD1 } from "./seed-large.mjs";

// Each catalogue read runs three times: hot (anonymous, served by the edge cache after the probe stored it), with a
// user's token (the same answer, served from the anonymous copy after the session check: docs/decisions.md, "Token
// reads from the edge cache") and cold (with a token and a parameter no anonymous read sends, so no copy exists and
// every request reaches D1). `.srt` needs an official application's signature, so it is only ever cold. v3 reads are
// hot with a client-credentials token and cold with a password-grant one (never shared).
const READS = [
  { name: "one container", path: (ctx) => `/v4/containers/${ctx.oneContainer}c.json` },
  { name: "filtered page (genre, sort views, 25)", path: () => "/v4/containers.json?genre=6g&sort=views&per_page=25" },
  { name: "bulk `ids=` of 25", path: (ctx) => `/v4/containers.json?ids=${ctx.bulkIds.map((id) => `${id}c`).join(",")}` },
  { name: "list `1l`", path: () => "/v4/lists/1l.json" },
  { name: "timed comments", path: (ctx) => `/v4/videos/${ctx.commented.video}v/timed_comments/${ctx.commented.language}.json` },
  { name: "v3 search", v3: true, path: () => "/api/v3/search.json?query=moon" },
  { name: "v4 search", path: () => "/v4/search.json?term=moonlight" },
  // 사랑 ("love"), a line of the demo seed in Korean, with the same segment in English: every shard asked.
  { name: "subtitle search", path: () => `/v4/search/subtitles.json?q=${encodeURIComponent("사랑")}&viewer_language=en` },
];

/**
 * The targets on the 2-core machine, as req/s over the trivial route's (docs/performance.md, "Throughput"): a hit does
 * no I/O, so it is as fast as the trivial route; a read with a user's token is one D1 round trip and whatever the
 * structure adds, held to 0.8× for the reads every client makes.
 */
function target(scenario) {
  if (scenario.kind === "hot") return 1.0;
  if (scenario.kind !== "token") return null;
  if (["one container", "filtered page", "list `1l`"].some((name) => scenario.name.startsWith(name))) return 0.8;
  return null;
}

const withParam = (path, name, value) => `${path}${path.includes("?") ? "&" : "?"}${name}=${encodeURIComponent(value)}`;

/** The parameter that keeps a cold read's answer out of every copy: the key has it, no anonymous read sends it. */
const UNCACHED = "bench_uncached";

/** How a read is made hot (shared), with a token (answered from the shared copy) or cold (reaching D1). */
function credentialed(read, kind) {
  return (ctx) => {
    const path = read.path(ctx);
    if (read.v3) return withParam(path, "access_token", kind === "hot" ? ctx.v3App : ctx.v3User);
    if (kind === "hot") return path;
    const withToken = withParam(path, "token", ctx.userToken);
    return kind === "cold" ? withParam(withToken, UNCACHED, "1") : withToken;
  };
}

const KINDS = { hot: "hot", token: "with a token", cold: "cold (with a token, not cached)" };

// The trivial route runs at the start, in the middle and at the end: on a shared machine its rate drifts by 10% over a
// run, and the ratios use the mean of the three.
const TRIVIAL = { name: "trivial (`GET /`)", trivial: true, path: () => "/" };
const PAIRS = READS.flatMap((read) =>
  (read.v3 ? ["hot", "cold"] : ["hot", "token", "cold"]).map((kind) => ({
    name: `${read.name}, ${KINDS[kind]}`,
    kind,
    path: credentialed(read, kind),
    anonymous: read.path,
  })),
);

const SCENARIOS = [
  TRIVIAL,
  ...PAIRS.slice(0, PAIRS.length / 2),
  TRIVIAL,
  ...PAIRS.slice(PAIRS.length / 2),
  {
    name: "`.srt` download (signed), cold",
    kind: "cold",
    signed: true,
    path: (ctx) => `/v4/videos/${ctx.subtitled.video}v/subtitles/${ctx.subtitled.language}.srt?app=${DEMO_OFFICIAL_APP.id}`,
  },
  TRIVIAL,
];

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";
const DOC = join(ROOT, "docs", "performance.md");

function parseArgs(argv) {
  const opts = { only: null, fresh: false, duration: 6, connections: 50, port: 8798, write: true, warmup: 1, importBench: true, rounds: 1 };
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
    else if (a === "--rounds") opts.rounds = Math.round(num());
    else if (a === "--no-write") opts.write = false;
    else if (a === "--only") opts.only = argv[++i];
    else if (a === "--no-import") opts.importBench = false;
    else
      throw new Error(
        `unknown argument ${a} (use --fresh, --only TEXT, --duration S, --connections N, --port P, --warmup S, --rounds N, --no-write, --no-import)`,
      );
  }
  return opts;
}

const serverTiming = (res, name) => {
  const m = new RegExp(`${name};desc="([^"]*)"`).exec(res.headers.get("server-timing") ?? "");
  return m ? Number(m[1]) : null;
};

function run(url, { duration, connections, headers }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration, connections, headers }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function probe(url, headers) {
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  return {
    status: res.status,
    bytes: body.byteLength,
    rowsRead: serverTiming(res, "d1-rows-read"),
    queries: serverTiming(res, "d1-queries"),
    trips: serverTiming(res, "d1-trips"),
    cache: /cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? null,
  };
}

/** Ids for the scenarios: normal-state containers of the large catalogue, spread over its range. */
async function pickIds(persistTo) {
  return withLocalD1(persistTo, async (db, env) => {
    const rows = await db
      .prepare(
        `SELECT id FROM containers WHERE id > ${CONTAINER_BASE} AND state = 'normal' AND hosted AND licensed
         ORDER BY (id * 7919) % 10007 LIMIT 26`,
      )
      .all();
    const ids = rows.results.map((r) => r.id);
    if (ids.length < 26) throw new Error(`only ${ids.length} listed containers in the large catalogue: try --fresh`);
    const most = (d1, table) =>
      d1
        .prepare(
          `SELECT video_id AS video, language, count(*) AS n FROM ${table} GROUP BY video_id, language ORDER BY n DESC, video_id LIMIT 1`,
        )
        .first();
    // Timed comments and subtitles are on the shards (docs/decisions.md, "Shards"): the video with most of any of them.
    const shards = Object.keys(env).filter((name) => /^SHARD_\d+$/.test(name));
    const mostOnShards = async (table) =>
      (await Promise.all(shards.map((name) => most(env[name], table)))).filter(Boolean).sort((a, b) => b.n - a.n || a.video - b.video)[0];
    return {
      oneContainer: ids[0],
      bulkIds: ids.slice(1),
      commented: await mostOnShards("timed_comments"),
      subtitled: await mostOnShards("subtitles"),
    };
  });
}

/** A demo user's v4 token, and v3 tokens with and without that user (scripts/demo/users.mjs). */
async function credentials(base) {
  const post = async (path, body, type = "application/json") => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": type }, body });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const app = { client_id: "100001a", client_secret: "partner-dev-secret" };
  const form = (fields) => new URLSearchParams({ ...app, ...fields }).toString();
  const session = await post("/v5/sessions.json", JSON.stringify({ username: "alice", password: "alice-password" }));
  const v3App = await post("/oauth/token", form({ grant_type: "client_credentials" }), "application/x-www-form-urlencoded");
  const v3User = await post(
    "/oauth/token",
    form({ grant_type: "password", username: "alice", password: "alice-password" }),
    "application/x-www-form-urlencoded",
  );
  return { userToken: session.token, v3App: v3App.access_token, v3User: v3User.access_token };
}

const ms = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const ratio = (v, base) => (base ? `${(v / base).toFixed(2)}×` : "-");

/** The scenario's req/s over the trivial route's: its paired rounds' median when it ran in rounds, else the run's mean. */
const versus = (r, trivial) => r.pairedRatio ?? r.rps / trivial.rps;

function met(r, trivial) {
  if (r.target === null) return "";
  return `${r.target.toFixed(2)}× ${versus(r, trivial) >= r.target ? "met" : "**missed**"}`;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function table(results) {
  const runs = results.filter((r) => r.trivial);
  const mean = (field) => runs.reduce((sum, r) => sum + r[field], 0) / runs.length;
  const trivial = { rps: mean("rps"), p50: mean("p50"), p99: mean("p99") };
  const head = [
    "| scenario | path | req/s | p50 ms | p99 ms | non-2xx | errors | edge cache | rows read | D1 trips | req/s vs trivial | target | p50 vs trivial | p99 vs trivial |",
    "|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|",
  ];
  const rows = results.map((r) => {
    const shown = r.path.replace(/((?:access_)?token)=[^&]+/g, "$1=…");
    const path = shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
    const codes = Object.entries(r.codes)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, n]) => `${n} (${code})`)
      .join(", ");
    return (
      `| ${r.name} | \`${path}\` | ${Math.round(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${codes || 0} | ${r.errors + r.timeouts} | ` +
      `${r.probe.cache ?? "-"} | ${r.probe.rowsRead ?? "-"} | ${r.probe.trips ?? "-"} | ` +
      `${r.pairedRatio ? `${r.pairedRatio.toFixed(2)}× (median of ${r.rounds} rounds)` : ratio(r.rps, trivial.rps)} | ${met(r, trivial)} | ` +
      `${ratio(r.p50, trivial.p50)} | ${ratio(r.p99, trivial.p99)} |`
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
await migrateLocal(persistTo);
await seedLocal(persistTo);
const seeded = await seedLarge({ persistTo });
const ctx = await pickIds(persistTo);

console.log(`starting wrangler dev on port ${opts.port} (state ${persistTo})`);
const server = await startDev({ port: opts.port, persistTo, stdio: "ignore" });
const results = [];
try {
  Object.assign(ctx, await credentials(server.base));
  // --only keeps the trivial route (the ratios need it) and the scenarios whose name contains the text.
  for (const scenario of SCENARIOS.filter((s) => s.trivial || !opts.only || s.name.includes(opts.only))) {
    const path = scenario.path(ctx);
    const url = `${server.base}${path}`;
    // A signature is good for minutes (docs/api.md, "Signed requests"): one set of headers serves the whole run.
    const headers = scenario.signed ? signedHeaders(url) : undefined;
    // A hot read's probe stores it; the second probe shows the hit the run measures. A read with a token is answered
    // from the anonymous copy: an anonymous probe stores it first.
    if (scenario.kind === "token") await probe(`${server.base}${scenario.anonymous(ctx)}`);
    const first = scenario.kind === "hot" ? (await probe(url, headers), await probe(url, headers)) : await probe(url, headers);
    const measure = async (to) => {
      const sent = to === url ? headers : undefined;
      await run(to, { duration: opts.warmup, connections: opts.connections, headers: sent });
      return run(to, { duration: opts.duration, connections: opts.connections, headers: sent });
    };
    const paired = opts.rounds > 1 && !scenario.trivial && target(scenario) !== null;
    let r;
    let pairedRatio;
    if (paired) {
      const trivialUrl = `${server.base}${TRIVIAL.path(ctx)}`;
      const trivials = [(await measure(trivialUrl)).requests.average];
      const runs = [];
      for (let round = 0; round < opts.rounds; round++) {
        runs.push(await measure(url));
        trivials.push((await measure(trivialUrl)).requests.average);
      }
      const ratios = runs.map((x, i) => x.requests.average / ((trivials[i] + trivials[i + 1]) / 2));
      pairedRatio = median(ratios);
      console.log(
        `${scenario.name}: rounds ${ratios.map((x) => x.toFixed(2)).join(", ")} (trivial ${trivials.map(Math.round).join(", ")} req/s)`,
      );
      // The round nearest the median ratio stands for the scenario in the table's other columns.
      const nearest = ratios.reduce((best, x, i) => (Math.abs(x - pairedRatio) < Math.abs(ratios[best] - pairedRatio) ? i : best), 0);
      r = runs[nearest];
    } else {
      r = await measure(url);
    }
    const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
    const result = {
      name: scenario.name,
      trivial: Boolean(scenario.trivial),
      target: scenario.trivial ? null : target(scenario),
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
      ...(paired ? { pairedRatio, rounds: opts.rounds } : {}),
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
  `(autocannon, ${opts.connections} connections, ${opts.duration} s per scenario after a ${opts.warmup} s warm-up, against \`wrangler dev\`${opts.rounds > 1 ? `; each scenario with a target in ${opts.rounds} rounds against the trivial route run around it` : ""}).`,
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
// The webhook timing (a finished import to its delivery) runs the webhook end-to-end script, which writes
// its own table into docs/performance.md when the bench writes.
if (opts.importBench) {
  for (const [script, args] of [
    ["bench-import.mjs", []],
    ["webhooks-e2e.mjs", opts.write ? ["--write"] : []],
  ]) {
    const child = spawnSync(process.execPath, [join(ROOT, "scripts", script), ...args], { cwd: ROOT, stdio: "inherit" });
    if (child.status !== 0) process.exitCode = child.status ?? 1;
  }
}
