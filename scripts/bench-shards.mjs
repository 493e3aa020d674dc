// npm run bench:shards [-- --shards N] [--concurrency N] [--per-shard N] [--move-rows N] [--port P] [--no-backup]
//   [--wrangler-cli] [--keep]
//
// A simulation of an environment with N shards (default 20), measured: every environment binds two (wrangler.toml),
// so this builds a throwaway checkout whose wrangler.toml binds SHARD_1..SHARD_N (scripts/bench-shards/checkout.mjs
// says why) in a temporary directory, and times on it, offline, in local workerd:
//   1. the migrations of the catalogue and N fresh shards, one database at a time, then at most `concurrency` at once
//      (in one workerd, as wrangler applies them; with --wrangler-cli also one `wrangler d1 migrations apply` process
//      per database, as scripts/db-migrate.mjs runs them: about 5 minutes more on 2 cores);
//   2. the every-translation list and a user's history across the N shards: page 1, the deepest OFFSET page and the
//      same page by cursor, rows read per page (Server-Timing's d1-rows-read), with `per-shard` rows on each shard;
//   3. a container of `move-rows` segments, translations and history rows moved from shard 1 to shard N by the
//      container-move job (`npm run admin -- shards move`, the sweeper, the queue consumer of `wrangler dev`);
//   4. `npm run db:backup` of all N + 1 databases (the longest step: skip it with --no-backup).
// Figures are printed as markdown; docs/scaling.md ("20 shards, measured") quotes them. Not part of CI.
// BENCH_SHARDS_DEV_LOG=1 shows wrangler dev's own output (quiet by default).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEMO_OFFICIAL_APP, signedHeaders, wranglerEnv } from "./lib.mjs";
import { applyMigrations, checkoutDatabases, makeCheckout, openDatabases } from "./bench-shards/checkout.mjs";
import { pool } from "./d1-migrate.mjs";
import { AUTHOR, seedShards } from "./bench-shards/seed.mjs";

const { values } = parseArgs({
  options: {
    shards: { type: "string", default: "20" },
    concurrency: { type: "string", default: "8" },
    "per-shard": { type: "string", default: "10200" },
    "move-rows": { type: "string", default: "1000" },
    port: { type: "string", default: "8790" },
    "no-backup": { type: "boolean", default: false },
    "wrangler-cli": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const opts = Object.fromEntries(["shards", "concurrency", "per-shard", "move-rows", "port"].map((k) => [k, Number(values[k])]));
for (const [k, v] of Object.entries(opts)) if (!Number.isSafeInteger(v) || v < 1) throw new Error(`--${k} must be a positive integer`);
if (opts.shards < 2 || opts.shards > 100) throw new Error("--shards: 2 to 100");
if (opts.shards * opts["per-shard"] < 3 * 100) throw new Error("--per-shard: at least 3 pages of 100 rows across the shards");

const PER_PAGE = 100;
/** The demo's partner application (scripts/demo/users.mjs): the translations list needs an application, unsigned. */
const PARTNER_APP = "100001a";
/**
 * The deepest page OFFSET paging serves at per_page 100 (src/lib/paging.ts: PAGING_CEILING 10,000), or the last full
 * page of a smaller run.
 */
const DEEPEST = Math.min(100, Math.floor((opts.shards * opts["per-shard"]) / PER_PAGE) - 1);
const fmt = (n) => n.toLocaleString("en-US");
const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1);
const figures = [];
const figure = (name, value) => {
  figures.push([name, value]);
  console.log(`${name}: ${value}`);
};

const work = mkdtempSync(join(tmpdir(), "bench-shards-"));
const checkout = makeCheckout(join(work, "checkout"), opts.shards);
const state = join(work, "state");
console.log(`bench:shards: ${opts.shards} shards; checkout and local state in ${work}`);
const started = performance.now();
let dev;
try {
  await migrations();
  const seeded = await seed();
  const sim = await import(join(checkout, "scripts", "lib.mjs"));
  sim.ensureDevVars();
  dev = await sim.startDev({ port: opts.port, persistTo: state, stdio: process.env.BENCH_SHARDS_DEV_LOG ? "inherit" : "ignore" });
  const tokens = await login(dev.base);
  await health(dev.base);
  await lists(dev.base, tokens);
  await move(dev.base, tokens, seeded.moving);
  dev.stop();
  dev = undefined;
  if (!values["no-backup"]) backup();
  console.log(`\n| figure (N = ${opts.shards}) | value |\n|---|---|`);
  for (const [name, value] of figures) console.log(`| ${name} | ${value} |`);
  console.log(`\nbench:shards: done in ${seconds(started)} s`);
} finally {
  dev?.stop();
  if (values.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** Step 1: the same N + 1 fresh databases migrated one at a time, then `concurrency` at once (each in its own state). */
async function migrations() {
  const timed = async (dir, limit) => {
    const dbs = await openDatabases(checkout, dir);
    try {
      const t0 = performance.now();
      const files = await pool(dbs.databases, limit, (d) => applyMigrations(dbs.db(d.binding), checkout, d.dir));
      return { s: seconds(t0), files: files.reduce((a, b) => a + b, 0), n: dbs.databases.length };
    } finally {
      await dbs.dispose();
    }
  };
  const serial = await timed(join(work, "serial"), 1);
  rmSync(join(work, "serial"), { recursive: true, force: true });
  const parallel = await timed(state, opts.concurrency);
  figure(
    `migrations of ${serial.n} fresh databases (${serial.files} files), in one workerd`,
    `${serial.s} s one at a time, ${parallel.s} s ${opts.concurrency} at once`,
  );
  if (!values["wrangler-cli"]) return;
  const cli = async (dir, limit) => {
    const t0 = performance.now();
    await pool(await checkoutDatabases(checkout), limit, (d) =>
      spawnQuiet(
        join(checkout, "node_modules", ".bin", "wrangler"),
        ["d1", "migrations", "apply", d.binding, "--local", "--persist-to", dir],
        {
          cwd: checkout,
        },
      ),
    );
    rmSync(dir, { recursive: true, force: true });
    return seconds(t0);
  };
  const cliSerial = await cli(join(work, "cli-serial"), 1);
  const cliParallel = await cli(join(work, "cli-parallel"), opts.concurrency);
  figure(
    `migrations of ${serial.n} fresh databases, one \`wrangler d1 migrations apply --local\` each`,
    `${cliSerial} s one at a time, ${cliParallel} s ${opts.concurrency} at once`,
  );
}

/** Runs a command quietly in `cwd`; rejects with its output when it fails. */
function spawnQuiet(command, args, { cwd }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: wranglerEnv, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(" ")}: exit ${code}\n${out}`))));
  });
}

/** The data, written while no `wrangler dev` serves the state; one shard added by the admin CLI, as an operator would. */
async function seed() {
  const added = admin(["shards", "add", String(opts.shards)]);
  if (added.status !== 0 || !added.json.shards.some((s) => s.id === opts.shards))
    throw new Error(`shards add ${opts.shards}: ${added.stdout}${added.stderr}`);
  const dbs = await openDatabases(checkout, state);
  try {
    const t0 = performance.now();
    const seeded = await seedShards({
      root: checkout,
      dbs,
      shards: opts.shards,
      perShard: opts["per-shard"],
      moveRows: opts["move-rows"],
      log: (line) => console.log(`  ${line}`),
    });
    console.log(`seeded in ${seconds(t0)} s`);
    return seeded;
  } finally {
    await dbs.dispose();
  }
}

/** `npm run admin -- <args>` in the checkout, against the bench's state; `json` is its parsed output. */
function admin(args) {
  const res = spawnSync(process.execPath, [join(checkout, "scripts", "admin.mjs"), ...args, "--persist-to", state, "--json"], {
    cwd: checkout,
    env: wranglerEnv,
    encoding: "utf8",
  });
  let json;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, stdout: res.stdout, stderr: res.stderr };
}

async function login(base) {
  const session = async (username) => {
    const res = await fetch(`${base}/v5/sessions.json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password: `${username}-password` }),
    });
    if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
    return (await res.json()).token;
  };
  return { author: await session(AUTHOR.username), staff: await session("admin") };
}

/** The Worker finds SHARD_1..SHARD_N by name (src/db/shards.ts, `shardBinding`): /health pings each shard the catalogue names. */
async function health(base) {
  const res = await fetch(`${base}/health`);
  const shards = (await res.json()).shards ?? {};
  const ok = Object.values(shards).filter((s) => s === "ok").length;
  if (ok !== opts.shards) throw new Error(`/health: ${ok} of ${opts.shards} shards ok: ${JSON.stringify(shards)}`);
  figure("/health", `${res.status}, ${ok} shards ok`);
}

function rowsRead(res) {
  const m = /d1-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error(`${res.url}: no d1-rows-read in Server-Timing`);
  return Number(m[1]);
}

/** Step 2: page 1, page DEEPEST by OFFSET and the same page by cursor, of both lists across every shard. */
async function lists(base, tokens) {
  const translations = (query) => fetch(`${base}/v4/tranlslations.json?${new URLSearchParams({ app: PARTNER_APP, ...query })}`);
  const histories = (query) => {
    const url = `${base}/v4/users/${AUTHOR.id}u/subtitle_histories.json?${new URLSearchParams({ app: DEMO_OFFICIAL_APP.id, token: tokens.author, ...query })}`;
    return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...signedHeaders(url, "{}") }, body: "{}" });
  };
  for (const [name, list] of [
    ["every translation", translations],
    ["a user's history", histories],
  ]) {
    const page = async (query) => {
      const res = await list({ per_page: String(PER_PAGE), ...query });
      if (res.status !== 200) throw new Error(`${name} ${JSON.stringify(query)}: ${res.status} ${await res.text()}`);
      const body = await res.json();
      return { rows: rowsRead(res), ids: body.response.map((r) => r.id), cursor: body.cursor };
    };
    // A first request of a list pays what later ones find cached (the application, the session): not the list's cost.
    await page({});
    const first = await page({});
    const before = await page({ page: String(DEEPEST - 1) });
    const offset = await page({ page: String(DEEPEST) });
    const cursor = await page({ cursor: before.cursor });
    if (JSON.stringify(offset.ids) !== JSON.stringify(cursor.ids) || offset.ids.length !== PER_PAGE)
      throw new Error(`${name}: page ${DEEPEST} by OFFSET and by cursor differ (${offset.ids.length} and ${cursor.ids.length} items)`);
    figure(
      `${name}, rows read per page (per_page ${PER_PAGE}, ${fmt(opts["per-shard"])} rows on each shard)`,
      `page 1 ${fmt(first.rows)}; page ${DEEPEST} by OFFSET ${fmt(offset.rows)}, by cursor ${fmt(cursor.rows)}`,
    );
  }
}

/** Step 3: `shards move` queues the job; the sweeper (fired now, not in 10 s) sends it; its result once it ends. */
async function move(base, tokens, moving) {
  const to = opts.shards;
  const queued = admin(["shards", "move", `${moving.container}c`, String(to)]);
  if (queued.status !== 0) throw new Error(`shards move: ${queued.stderr}`);
  const id = queued.json.job.id;
  const t0 = performance.now();
  // wrangler dev may be reloading when the admin CLI has run in its directory: a refused connection is tried again.
  const again = async (url) => {
    for (let i = 0; ; i++) {
      try {
        return await fetch(url);
      } catch (err) {
        if (i === 40) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  await again(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
  const deadline = Date.now() + 120_000;
  let job;
  while (Date.now() < deadline) {
    job = (await (await again(`${base}/v4/jobs/${id}.json?token=${tokens.staff}`)).json()).job;
    if (job?.status === "succeeded" || job?.status === "failed") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (job?.status !== "succeeded") throw new Error(`move job ${id}: ${JSON.stringify(job)}`);
  const r = job.result;
  const rows = Object.entries(r.rows)
    .filter(([, n]) => n)
    .map(([t, n]) => `${t} ${fmt(n)}`)
    .join(", ");
  figure(
    `moving one container (${fmt(opts["move-rows"])} segments, translations, history rows) from shard ${moving.shard} to ${to}`,
    `${r.fenced_ms} ms fenced (writes refused), ${fmt(r.statements)} statements, ${fmt(r.d1_rows_read)} rows read, ` +
      `${fmt(r.d1_rows_written)} written, ${fmt(r.ms)} ms in the job (${seconds(t0)} s from queued to succeeded); rows: ${rows}`,
  );
}

/** Step 4: the project's own backup, run in the checkout so it finds the N + 1 bindings in its wrangler.toml. */
function backup() {
  const out = join(work, "backup");
  const t0 = performance.now();
  const res = spawnSync("npm", ["run", "--silent", "db:backup", "--", "--persist-to", state, "--out", out], {
    cwd: checkout,
    env: { ...wranglerEnv, INIT_CWD: checkout },
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`db:backup: ${res.stdout}${res.stderr}`);
  const files = readdirSync(out);
  const sizes = files.map((f) => statSync(join(out, f)).size);
  const shardSizes = files.filter((f) => f.startsWith("SHARD_")).map((f) => statSync(join(out, f)).size);
  figure(
    `npm run db:backup of ${files.length} databases`,
    `${seconds(t0)} s; ${fmt(sizes.reduce((a, b) => a + b, 0))} bytes in all, the catalogue's ${fmt(statSync(join(out, "DB.sql")).size)}, ` +
      `a shard's ${fmt(Math.min(...shardSizes))} to ${fmt(Math.max(...shardSizes))}`,
  );
}
