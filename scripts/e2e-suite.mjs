// npm run test:e2e-suite: the end-to-end scripts that read the demo data or write rows of their own (test:e2e,
// test:webhooks, test:clients, test:client-gen, test:docs), one after another against one `wrangler dev` this script
// starts, migrates and seeds once (.e2e/shared, port 8799 or E2E_SUITE_PORT) instead of each its own: about 30 s of
// migrations, seed and start saved per script (docs/development.md, "CI"). Each script runs as it does alone, its
// checks unchanged (scripts/lib.mjs, e2eState and e2eServer, hand it this server); a failing one does not stop the
// others, and the suite exits 1 naming every one that failed. The scripts that need a state of their own (test:admin,
// test:backup, test:migrate, test:recovery) are not here.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureDevVars, migrateLocal, ROOT, seedLocal, startDev } from "./lib.mjs";

/** In this order: webhooks after the reads of the demo data it leaves alone; each is `npm run <script>` alone. */
const SCRIPTS = [
  ["test:e2e", "e2e.mjs", "end to end (wrangler dev over HTTP)"],
  [
    "test:webhooks",
    "webhooks-e2e.mjs",
    "webhooks end to end (a local receiver gets signed job.succeeded and subtitles.updated deliveries of an SRT import)",
  ],
  ["test:clients", "test-clients.mjs", "real clients (yt-dlp)"],
  [
    "test:client-gen",
    "test-generated-client.mjs",
    "a generated client (openapi-typescript types of /openapi.json, openapi-fetch, the signing code of docs/api.md) type-checks and works",
  ],
  [
    "test:docs",
    "test-docs.mjs",
    "/docs in headless Chromium (every operation listed, no request to another origin, every public read answers data as 'Try it out' fills it in) and GET /health",
  ],
];

const seconds = (since) => `${Math.round((performance.now() - since) / 1000)} s`;
const started = performance.now();
const dir = join(ROOT, ".e2e", "shared");
const persistTo = join(dir, "state");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
ensureDevVars();
await migrateLocal(persistTo);
const seedFile = join(dir, "seed.json");
writeFileSync(seedFile, JSON.stringify(await seedLocal(persistTo)));
const server = await startDev({ port: Number(process.env.E2E_SUITE_PORT ?? 8799), persistTo, stdio: "ignore" });
console.log(`one wrangler dev for ${SCRIPTS.length} scripts: migrated, seeded and answering at ${server.base} in ${seconds(started)}`);

const env = { ...process.env, E2E_SHARED_BASE: server.base, E2E_SHARED_STATE: persistTo, E2E_SHARED_SEED: seedFile };
const results = [];
try {
  for (const [name, file, title] of SCRIPTS) {
    console.log(`--- ${title}`);
    const t = performance.now();
    const run = spawnSync(process.execPath, [join(ROOT, "scripts", file)], { cwd: ROOT, env, stdio: "inherit" });
    const status = run.status ?? 1;
    if (run.error) console.log(`${name} did not run: ${run.error.message}`);
    results.push({ name, status, time: seconds(t) });
    console.log(`(${name}: exit ${status}, ${seconds(t)})`);
  }
} finally {
  server.stop();
}

const failed = results.filter((r) => r.status !== 0);
console.log(`e2e suite: ${results.map((r) => `${r.name} ${r.status === 0 ? "ok" : "FAILED"} ${r.time}`).join(", ")} (${seconds(started)})`);
if (failed.length) console.log(`e2e suite: failed ${failed.map((r) => r.name).join(", ")}`);
process.exit(failed.length ? 1 : 0);
