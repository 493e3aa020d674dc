// Shared steps of the local scripts (start, seed, e2e, bench). Plain Node, run on the pinned Node 22.
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { devIdentityProviders, devRetailerSecrets, devStoreKeys } from "./dev-identity.mjs";
import { copyDocsAssets } from "./docs-assets.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/** Offline-safe wrangler: no Request.cf fetch (it prints a stack trace without internet), no metrics. */
export const wranglerEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  // Non-interactive: `d1 migrations apply` would otherwise ask for confirmation.
  CI: "true",
};

export function wrangler(args, { quiet = false } = {}) {
  const res = spawnSync(WRANGLER, args, { cwd: ROOT, env: wranglerEnv, stdio: quiet ? "pipe" : "inherit", encoding: "utf8" });
  if (res.status !== 0) {
    if (quiet) process.stderr.write(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    throw new Error(`wrangler ${args.join(" ")} failed with exit code ${res.status}`);
  }
  return res.stdout ?? "";
}

/**
 * Local secrets and the development switch (plain-HTTP login allowed), in the git-ignored .dev.vars.
 * Missing keys are appended, so a secret added later reaches existing checkouts too.
 */
const DEV_VARS = {
  ENVIRONMENT: () => "development",
  V3_TOKEN_SECRET: () => randomBytes(32).toString("hex"),
  // External identity (docs/api.md, "External identity"): local providers with inline keys, so logins work offline.
  // Their private keys are public in scripts/dev-identity.mjs, which also mints credentials for them.
  IDENTITY_PROVIDERS: devIdentityProviders,
  RETAILER_SECRETS: devRetailerSecrets,
  STORE_KEYS: devStoreKeys,
};

export function ensureDevVars() {
  const file = join(ROOT, ".dev.vars");
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "# Local development only (git-ignored). Written by npm start.\n";
  const present = new Set(existing.split("\n").map((line) => line.split("=")[0].trim()));
  const missing = Object.entries(DEV_VARS).filter(([key]) => !present.has(key));
  if (!missing.length) return;
  const sep = existing.endsWith("\n") ? "" : "\n";
  // JSON values are single-quoted: dotenv then takes them literally (no `#` comments, no escapes).
  const line = ([key, make]) => {
    const value = make();
    return /^[\w.-]*$/.test(value) ? `${key}=${value}` : `${key}='${value}'`;
  };
  writeFileSync(file, existing + sep + missing.map(line).join("\n") + "\n");
  console.log(`.dev.vars: added ${missing.map(([key]) => key).join(", ")}`);
}

export const persistArgs = (persistTo) => (persistTo ? ["--persist-to", persistTo] : []);

/**
 * Every local D1 of the configuration (the catalogue, then the shards), migrated by its own folder
 * (scripts/d1-migrate.mjs, as `npm run db:migrate:local`); wrangler's output is printed only for a database that failed.
 * One at a time: two wrangler processes on one local state can meet SQLite's lock (SQLITE_BUSY_RECOVERY, seen in CI's
 * crash-recovery run), and locally each mostly computes, so side by side gains little on two cores.
 */
export async function migrateLocal(persistTo) {
  const { migrateDatabases } = await import("./d1-migrate.mjs");
  const applied = [];
  const { failed } = await migrateDatabases({
    where: ["--local", ...persistArgs(persistTo)],
    concurrency: 1,
    report: ({ binding, ok, output }) => (ok ? applied.push(binding) : process.stderr.write(`--- ${binding}\n${output}`)),
  });
  if (failed.length) throw new Error(`local migrations failed on ${failed.join(", ")}`);
  const order = (binding) => (binding === "DB" ? 0 : Number(binding.slice("SHARD_".length)));
  console.log(`migrations applied to the local D1s (${applied.sort((a, b) => order(a) - order(b)).join(", ")})`);
}

// The demo seed (scripts/demo/seed.mjs), here with the other local helpers its callers import.
import { seedLocal } from "./demo/seed.mjs";
export { seedLocal };

/**
 * Runs a command with the offline wrangler environment and `input` on its standard input, quietly (its output is
 * printed only on failure); resolves to its standard output.
 */
export function spawnQuiet(command, args, input = "") {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: wranglerEnv, stdio: "pipe" });
    child.stdin.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolvePromise(stdout);
      process.stderr.write(stdout + stderr);
      reject(new Error(`${command} ${args.join(" ")} failed with exit code ${code}`));
    });
  });
}

/**
 * How often local development fires the Cron Trigger (production: every minute, wrangler.toml `[triggers]`). Shorter
 * than production so a local crash recovers sooner; the sweep itself only re-sends what is past its deadline.
 */
export const LOCAL_CRON_SECONDS = 10;

/**
 * wrangler dev never fires Cron Triggers by itself, so the job sweeper (src/jobs/sweeper.ts) would never run and a
 * job whose queue message died with a restart would stay queued. This fires the `scheduled` handler through
 * wrangler dev's own trigger endpoint every `seconds`, for as long as the process lives. Returns a stop function.
 */
export function fireCrons(base, seconds = LOCAL_CRON_SECONDS) {
  let stopped = false;
  let timer;
  const tick = async () => {
    try {
      await fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
    } catch {
      // not listening (starting or restarting): the next tick tries again
    }
    if (!stopped) timer = setTimeout(tick, seconds * 1000).unref();
  };
  timer = setTimeout(tick, seconds * 1000).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * The `wrangler dev` arguments for a local port: the loopback address, the port, and `API_ORIGIN` (the origin webhook
 * payloads and playback URLs are built on) following that port instead of wrangler.toml's 8787.
 */
export const devArgs = (port) => ["dev", "--ip", "127.0.0.1", "--port", String(port), "--var", `API_ORIGIN:http://127.0.0.1:${port}`];

/** Starts `wrangler dev` with its crons fired (fireCrons); resolves once the server answers. */
export async function startDev({ port = 8787, persistTo, stdio = "inherit" } = {}) {
  // wrangler dev refuses to start without wrangler.toml's [assets] directory (a fresh clone has none).
  copyDocsAssets({ quiet: true });
  const args = [...devArgs(port), ...persistArgs(persistTo)];
  const child = spawn(WRANGLER, args, { cwd: ROOT, env: wranglerEnv, stdio, detached: true });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/`);
      if (res.ok) {
        const stopCrons = fireCrons(base);
        return {
          child,
          base,
          stop: () => {
            stopCrons();
            stopProcessGroup(child);
          },
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  stopProcessGroup(child);
  throw new Error("wrangler dev did not answer within 90 s");
}

/**
 * The local state an end-to-end script checks: under scripts/e2e-suite.mjs (which sets E2E_SHARED_BASE), the suite's
 * one migrated and seeded state, E2E_SHARED_STATE, and its seed's result from E2E_SHARED_SEED; run alone, `persistTo`
 * rebuilt from nothing, migrated and seeded. The suite starts that work once for the scripts that only read the demo
 * data or write rows of their own, instead of once each (docs/development.md, "CI").
 */
export async function e2eState(persistTo) {
  if (process.env.E2E_SHARED_BASE) {
    return { persistTo: process.env.E2E_SHARED_STATE, seed: JSON.parse(readFileSync(process.env.E2E_SHARED_SEED, "utf8")) };
  }
  rmSync(persistTo, { recursive: true, force: true });
  ensureDevVars();
  await migrateLocal(persistTo);
  const seed = await seedLocal(persistTo);
  return { persistTo, seed };
}

/** The `wrangler dev` on `e2eState`'s state: the suite's, which outlives the script (`stop` leaves it), or its own on `port`. */
export async function e2eServer({ persistTo }, port) {
  const shared = process.env.E2E_SHARED_BASE;
  if (shared) return { base: shared, stop: () => {} };
  return startDev({ port, persistTo, stdio: "ignore" });
}

export function stopProcessGroup(child) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** The demo official application (scripts/demo/users.mjs): official-only routes need its signature. */
export const DEMO_OFFICIAL_APP = { id: "100000a", secret: "official-dev-secret" };

/**
 * The `timestamp`/`signature` headers an application client sends (docs/api.md, "Signed requests"): hex HMAC-SHA1 with
 * its secret over path + query + `&t=<timestamp>` + the body's bytes. With `method`, the URL must carry `sig_v=2`
 * (`signedUrl`) and the method and a space come first: writes signed by an application alone need it.
 */
export function signedHeaders(url, body, secret = DEMO_OFFICIAL_APP.secret, method = undefined) {
  const u = new URL(url);
  const t = String(Math.floor(Date.now() / 1000));
  const hmac = createHmac("sha1", secret).update(
    `${method ? `${method.toUpperCase()} ` : ""}${u.pathname}${u.search ? `${u.search}&` : "?"}t=${t}`,
  );
  if (body) hmac.update(typeof body === "string" ? Buffer.from(body) : body);
  return { timestamp: t, signature: hmac.digest("hex") };
}

/** `url` with `sig_v=2` and a random `nonce`: the form of a write signed by an application alone (`signedHeaders`). */
export function signedUrl(url) {
  const u = new URL(url);
  u.searchParams.set("sig_v", "2");
  u.searchParams.set("nonce", randomUUID());
  return u.href;
}

/**
 * The pass/fail bookkeeping of the end-to-end scripts: `step` runs one named check and reports it, `finish` prints the
 * plain closing line CI reads ("<label>: N passed, N failed") and exits non-zero on any failure.
 */
export function checklist() {
  let passed = 0;
  let failed = 0;
  const started = Date.now();
  const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
  return {
    /** Runs one check; what `fn` returns (a figure) is printed beside its name, and its time when over a second. */
    async step(name, fn) {
      const t = Date.now();
      try {
        const detail = await fn();
        passed++;
        console.log(`ok - ${name}${detail ? ` (${detail})` : ""}${Date.now() - t > 1000 ? ` [${seconds(t)}]` : ""}`);
      } catch (err) {
        failed++;
        console.log(`not ok - ${name}\n  ${err.stack ?? err}`);
      }
    },
    /** The closing line CI reads (`<label>: N passed, N failed`), with the time since the checklist began; exits 1 on a failure. */
    finish(label) {
      console.log(`${label}: ${passed} passed, ${failed} failed (${seconds(started)})`);
      process.exit(failed ? 1 : 0);
    },
  };
}

/** `--name N` from the command line as a number, or `fallback` when it is not given. */
export function numberArg(name, fallback, argv = process.argv.slice(2)) {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
}

const pad = (n, w = 2) => String(n).padStart(w, "0");
const srtTime = (ms) =>
  `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;

/** A SubRip file as official apps upload it (CRLF): a 1.5 s cue at each start (ms), its text from `text(i)`. */
export function srtOf(starts, text = (i) => `Cue ${i + 1}, a line of subtitle text`) {
  return starts.map((start, i) => `${i + 1}\r\n${srtTime(start)} --> ${srtTime(start + 1500)}\r\n${text(i)}\r\n`).join("\r\n");
}

/** `n` cue starts, `first` ms then every `every` ms. */
export const cueStarts = (n, first = 1000, every = 2000) => Array.from({ length: n }, (_, i) => first + i * every);
