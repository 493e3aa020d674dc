// npm run profile -- [--path PATH] [--requests N] [--concurrency N] [--port P] [--top N] [--anonymous]
//
// Where the CPU time of one read goes inside the Worker (docs/performance.md, "Where a token read's time goes"): starts
// `wrangler dev` on the demo seed (state in .bench/profile, git-ignored, reused) with its inspector open, logs in as
// the demo user alice, takes a sampling CPU profile of the Worker's isolate over N requests of PATH (with her token,
// unless --anonymous), and prints the functions with the most self time and the most total time, by the function
// and the source file the bundle's source map names. The trivial route (`--path /`) is the baseline to compare with.
// The bundle is built unminified for the profile, so that functions keep their names and lines map back.
// Time spent in D1 (another isolate) or in wrangler's proxy is not in the profile: the request's wall time is printed
// beside it. Needs Node 22 (the global WebSocket): `npm run profile` runs it there.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, WRANGLER, devArgs, ensureDevVars, migrateLocal, persistArgs, seedLocal, stopProcessGroup, wranglerEnv } from "./lib.mjs";

function parseArgs(argv) {
  const opts = { path: "/v4/containers/1c.json", requests: 600, concurrency: 8, port: 8797, top: 25, anonymous: false };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, "");
    if (name === "anonymous") opts.anonymous = true;
    else if (name in opts) opts[name] = typeof opts[name] === "number" ? Number(argv[++i]) : argv[++i];
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return opts;
}

async function waitFor(url, child) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within 90 s`);
}

/** One DevTools protocol session over the inspector's WebSocket. */
async function inspector(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  // wrangler's inspector proxy accepts only local origins (and Node's WebSocket sends none by itself).
  const ws = new globalThis.WebSocket(target.webSocketDebuggerUrl, { headers: { origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`the inspector at ${target.webSocketDebuggerUrl} refused the connection`));
    setTimeout(() => reject(new Error("the inspector did not answer within 10 s")), 10_000).unref();
  });
  let id = 0;
  const waiting = new Map();
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** The newest bundle wrangler dev wrote and its source map: the map turns bundle lines into source files. */
function sourceMapper() {
  const dir = join(ROOT, ".wrangler", "tmp");
  const bundles = readdirSync(dir)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => join(dir, d, "index.js.map"))
    .filter((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!bundles.length) return () => "?";
  const map = JSON.parse(readFileSync(bundles[0], "utf8"));
  // Per generated line, its segments as [column, source]: a frame's source is the last segment at or before it.
  const segmentsOfLine = [];
  let source = 0;
  for (const line of map.mappings.split(";")) {
    const segments = [];
    let column = 0;
    for (const segment of line.split(",")) {
      if (!segment) continue;
      const fields = decodeVlq(segment);
      column += fields[0];
      if (fields.length >= 4) {
        source += fields[1];
        segments.push([column, source]);
      }
    }
    segmentsOfLine.push(segments);
  }
  const nameOf = (s) => {
    const name = map.sources[s] ?? "?";
    const at = name.lastIndexOf("node_modules/");
    if (at >= 0)
      return name
        .slice(at + 13)
        .split("/")
        .slice(0, name.slice(at + 13).startsWith("@") ? 2 : 1)
        .join("/");
    const src = name.indexOf("src/");
    return src >= 0 ? name.slice(src) : name.replace(/^(\.\.\/)+/, "");
  };
  return (lineNumber, columnNumber) => {
    const segments = segmentsOfLine[lineNumber] ?? [];
    let found;
    for (const [column, s] of segments) {
      if (column > columnNumber) break;
      found = s;
    }
    return found === undefined ? "?" : nameOf(found);
  };
}

const VLQ = Object.fromEntries([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]));
function decodeVlq(segment) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = VLQ[c];
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >> 1) : value >> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** Self and total sample time per function, from a V8 CPU profile. */
function summarize(profile, fileOf) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const label = (n) => {
    const f = n.callFrame;
    if (!f.url) return f.functionName || `(${f.functionName || "program"})`;
    return `${f.functionName || "(anonymous)"} ${fileOf(f.lineNumber, f.columnNumber)}`;
  };
  const self = new Map();
  const total = new Map();
  let all = 0;
  for (const [id, us] of selfUs) {
    all += us;
    const node = byId.get(id);
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    // Each function on the sample's stack once, however deep it recurses.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at));
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + us);
    }
  }
  return { self, total, all };
}

function print(title, entries, all, top, requests) {
  console.log(`\n${title}`);
  console.log("| function (source) | ms | % of profile | µs per request |");
  console.log("|---|--:|--:|--:|");
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`| ${name} | ${(us / 1000).toFixed(1)} | ${((100 * us) / all).toFixed(1)} | ${Math.round(us / requests)} |`);
  }
}

const opts = parseArgs(process.argv.slice(2));
const persistTo = join(ROOT, ".bench", "profile");
ensureDevVars();
await migrateLocal(persistTo);
await seedLocal(persistTo);
const inspectorPort = opts.port + 1000;
const child = spawn(
  WRANGLER,
  [...devArgs(opts.port), ...persistArgs(persistTo), "--inspector-port", String(inspectorPort), "--minify=false"],
  {
    cwd: ROOT,
    env: wranglerEnv,
    stdio: "ignore",
    detached: true,
  },
);
try {
  const base = `http://127.0.0.1:${opts.port}`;
  await waitFor(`${base}/`, child);
  let url = `${base}${opts.path}`;
  if (!opts.anonymous) {
    const res = await fetch(`${base}/v5/sessions.json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "alice", password: "alice-password" }),
    });
    if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
    url += `${url.includes("?") ? "&" : "?"}token=${(await res.json()).token}`;
  }
  const probe = await fetch(url);
  await probe.arrayBuffer();
  console.log(
    `${opts.path}${opts.anonymous ? "" : " (with a token)"}: ${probe.status}, server-timing ${probe.headers.get("server-timing")}`,
  );
  // Warm the isolate (lazy route tables, compiled schemas) before sampling.
  const burst = async (n) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (next++ < n) await (await fetch(url)).arrayBuffer();
      }),
    );
  };
  await burst(100);
  const devtools = await inspector(inspectorPort);
  await devtools.send("Profiler.enable");
  await devtools.send("Profiler.setSamplingInterval", { interval: 200 });
  await devtools.send("Profiler.start");
  const started = performance.now();
  await burst(opts.requests);
  const wallMs = performance.now() - started;
  const { profile } = await devtools.send("Profiler.stop");
  devtools.close();
  const { self, total, all } = summarize(profile, sourceMapper());
  console.log(
    `${opts.requests} requests, ${opts.concurrency} at a time: ${(wallMs / opts.requests).toFixed(2)} ms wall each; ` +
      `the Worker's isolate sampled ${(all / 1000).toFixed(0)} ms (${Math.round(all / opts.requests)} µs per request, idle included)`,
  );
  print("Self time", self, all, opts.top, opts.requests);
  print("Total time (the function and what it calls)", total, all, opts.top, opts.requests);
} finally {
  stopProcessGroup(child);
}
