// npm run test:recovery [-- --imports N] [--cues N] [--port P]
//
// Nothing accepted is lost (docs/operations.md, "Durable jobs"): a real `wrangler dev` on its own state (.recovery/state, rebuilt
// each run) accepts a batch of large SRT imports (default 25 × 2,000 cues, signed as the official app, from the
// staff user `admin` and the container's manager so that no one passes the per-user import limit), is killed
// with SIGKILL (its whole process group, workerd included) while the queue is still working through them, and is
// restarted on the same state. The queue messages die with it; the job sweeper, fired by scripts/lib.mjs's cron
// poller, must bring every job (imports and the completion jobs they queue) to `succeeded` within BOUND_SECONDS
// of the restart. Exits 1 if a job is still queued or running by then, if any failed, or if an imported video
// does not serve all its cues.
import assert from "node:assert/strict";
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEMO_OFFICIAL_APP,
  ROOT,
  cueStarts,
  ensureDevVars,
  migrateLocal,
  numberArg,
  seedLocal,
  signedHeaders,
  srtOf,
  startDev,
  wrangler,
} from "./lib.mjs";

const IMPORTS = numberArg("--imports", 25);
const CUES = numberArg("--cues", 2000);
const PORT = numberArg("--port", Number(process.env.RECOVERY_PORT ?? 8795));
const BOUND_SECONDS = 180;
// Far above the demo seed, the large catalogue and bench-import's fixtures.
const CONTAINER = 9_100_001;
const FIRST_VIDEO = 9_100_001;
const MANAGER_ID = 2; // scripts/demo/users.mjs `manager`

const dir = join(ROOT, ".recovery");
const persistTo = join(dir, "state");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
ensureDevVars();
await migrateLocal(persistTo);
await seedLocal(persistTo);

const fixtureFile = join(dir, "fixtures.sql");
writeFileSync(
  fixtureFile,
  `
INSERT INTO containers (id, type, origin_country, origin_language) VALUES (${CONTAINER}, 'series', 'kr', 'ko');
INSERT INTO titles (resource_kind, resource_id, language, text) VALUES ('c', ${CONTAINER}, 'en', 'Crash recovery');
INSERT INTO container_managers (container_id, user_id) VALUES (${CONTAINER}, ${MANAGER_ID});
INSERT INTO videos (id, container_id, type, number)
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${IMPORTS - 1})
  SELECT ${FIRST_VIDEO} + i, ${CONTAINER}, 'episode', i + 1 FROM n;
`,
);
wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", fixtureFile], { quiet: true });
console.log(`fixtures: container ${CONTAINER}c with ${IMPORTS} empty videos`);

const srtFile = (n) => srtOf(cueStarts(CUES), (i) => `Video ${n}, cue ${i + 1}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const groupBy = (items, key) => items.reduce((groups, x) => ((groups[key(x)] ??= []).push(x), groups), {});

/** wrangler dev with its output in .recovery/wrangler-<n>.log (CI keeps the directory for a failed run). */
async function start(n) {
  const log = openSync(join(dir, `wrangler-${n}.log`), "w");
  try {
    return await startDev({ port: PORT, persistTo, stdio: ["ignore", log, log] });
  } finally {
    closeSync(log);
  }
}

async function login(base, username) {
  const res = await fetch(`${base}/v5/sessions.json`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).token;
}

let server = await start(1);
let exitCode = 1;
try {
  const admin = await login(server.base, "admin");
  const manager = await login(server.base, "manager");
  const job = async (id) => {
    const res = await fetch(`${server.base}/v4/jobs/${id}j.json?token=${admin}`);
    if (res.status === 404) return undefined;
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()).job;
  };

  // The batch, all at once: half from each user (the per-user import limit is 20 a minute).
  const posted = performance.now();
  const accepted = await Promise.all(
    Array.from({ length: IMPORTS }, async (_, i) => {
      const url = `${server.base}/v4/videos/${FIRST_VIDEO + i}v/subtitles/import_srt.json?app=${DEMO_OFFICIAL_APP.id}&language=en&token=${i % 2 ? manager : admin}`;
      const body = srtFile(i + 1);
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-subrip", ...signedHeaders(url, body) },
        body,
      });
      assert.equal(res.status, 202, await res.clone().text());
      return Number.parseInt((await res.json()).job.id, 10);
    }),
  );
  const firstJob = Math.min(...accepted);
  console.log(
    `${IMPORTS} imports of ${CUES} cues accepted (202) in ${seconds(performance.now() - posted)}: jobs ${firstJob}j..${Math.max(...accepted)}j`,
  );

  // Kill it in the middle of the batch: at the last 202. The consumer has been at work since the first one, but a
  // 2,000-cue import takes it about 100 ms at best, so part of the batch and the completion jobs are still waiting.
  process.kill(-server.child.pid, "SIGKILL");
  const killed = performance.now();
  await new Promise((resolve) =>
    server.child.exitCode !== null || server.child.signalCode !== null ? resolve() : server.child.once("exit", resolve),
  );
  console.log(`SIGKILL wrangler dev (its process group, workerd included) ${seconds(killed - posted)} after the first POST`);
  await sleep(1000);

  server = await start(2);
  const restarted = performance.now();
  console.log(`restarted on the same state in ${seconds(restarted - killed)}; waiting up to ${BOUND_SECONDS} s for every job`);

  // Every job from the first import on (ids are sequential): the imports, the completion jobs they queued before
  // the kill (whose messages died too) and those queued by the imports that run again.
  const allJobs = async () => {
    const found = [];
    for (let id = Math.min(...accepted), misses = 0; misses < 3; id++) {
      const j = await job(id);
      if (j) {
        found.push(j);
        misses = 0;
      } else misses++;
    }
    return found;
  };
  const isOpen = (j) => j.status === "queued" || j.status === "running";
  const tally = (jobs) =>
    Object.entries(groupBy(jobs, (j) => j.status))
      .map(([s, js]) => `${js.length} ${s}`)
      .join(", ");
  let jobs = await allJobs();
  const atKill = jobs.filter((j) => j.type === "srt-import");
  console.log(`left by the kill: imports ${tally(atKill)}; all jobs ${tally(jobs)}`);
  assert.ok(atKill.some(isOpen), "every import had finished before the kill: nothing to recover (raise --imports or --cues)");
  let lastReport = 0;
  while (jobs.some(isOpen) && performance.now() - restarted < BOUND_SECONDS * 1000) {
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      console.log(`  +${seconds(lastReport - restarted)}: ${tally(jobs)}`);
    }
    await sleep(1000);
    jobs = await allJobs();
  }
  const recovered = performance.now();
  const byType = groupBy(jobs, (j) => j.type);
  for (const [type, js] of Object.entries(byType)) {
    const attempts = Object.entries(groupBy(js, (j) => j.attempts))
      .map(([a, x]) => `${x.length}×${a}`)
      .join(" ");
    console.log(`${type}: ${js.length} jobs, ${tally(js)} (attempts: ${attempts})`);
  }
  const open = jobs.filter(isOpen);
  const failed = jobs.filter((j) => j.status === "failed");
  for (const j of failed) console.log(`  failed ${j.id} (${j.type}): ${j.error}`);
  assert.equal(
    open.length,
    0,
    `still unfinished ${BOUND_SECONDS} s after the restart: ${open.map((j) => `${j.id} ${j.status}`).join(", ")}`,
  );
  assert.equal(failed.length, 0, "a job failed");
  console.log(
    `recovered: every job finished ${seconds(recovered - restarted)} after the restart (${seconds(recovered - killed)} after the kill)`,
  );

  // The imports really landed: each video serves all its cues.
  for (let i = 0; i < IMPORTS; i++) {
    const url = `${server.base}/v4/videos/${FIRST_VIDEO + i}v/subtitles/en.srt?app=${DEMO_OFFICIAL_APP.id}&token=${admin}`;
    const res = await fetch(url, { headers: signedHeaders(url) });
    assert.equal(res.status, 200, await res.clone().text());
    const cues = (await res.text()).match(/-->/g)?.length ?? 0;
    assert.equal(cues, CUES, `video ${FIRST_VIDEO + i}v serves ${cues} of ${CUES} cues`);
  }
  console.log(`all ${IMPORTS} videos serve their ${CUES} cues`);
  exitCode = 0;
} catch (err) {
  console.error(`crash recovery FAILED: ${err.stack ?? err}\n(wrangler dev logs in ${dir})`);
} finally {
  server.stop();
}
console.log(`crash recovery: ${exitCode ? "failed" : "passed"}`);
process.exit(exitCode);
