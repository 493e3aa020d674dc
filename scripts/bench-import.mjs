// npm run bench:import [-- --cues N] [--parallel K] [--port P]
//
// The localisation queue end to end against a real `wrangler dev` (workerd, local D1, R2 and Queues) on its own
// state (.bench/import-state, rebuilt each run): the official app (100000a) and the staff user `admin` upload a
// SubRip file of N cues (default 2,000) over HTTP; the script polls the job until it succeeds and prints the time
// from POST to succeeded and the D1 rows written. Then it imports into one video of a container of 100 videos
// (20 segments and 3 languages each) and reports the completion job that recomputes that container. Last, imports to
// containers on different shards uploaded at once, K at a time (scripts/bench-import/shards.mjs).
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkPlacement,
  jobLog,
  placementQuery,
  printShardStages,
  runShardStages,
  shardRowsQuery,
  shardStageFixtures,
  shardStagePlan,
} from "./bench-import/shards.mjs";
import { ROOT, cueStarts, ensureDevVars, migrateLocal, numberArg, seedLocal, signedHeaders, srtOf, startDev, wrangler } from "./lib.mjs";

const CUES = numberArg("--cues", 2000);
const PORT = numberArg("--port", 8797);
const PARALLEL = numberArg("--parallel", 4);
const APP = "100000a";
// Far above the demo seed and the large catalogue (containers 1,000,001+, videos up to about 2,000,000).
const IMPORT_CONTAINER = 9_000_001;
const IMPORT_VIDEO = 9_000_001;
const HUNDRED_CONTAINER = 9_000_002;
const HUNDRED_FIRST_VIDEO = 9_000_101;

const persistTo = join(ROOT, ".bench", "import-state");
rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
await migrateLocal(persistTo);
await seedLocal(persistTo);

// Fixtures: an empty video for the import, and a container of 100 videos with 20 segments each and texts in
// en (all), fr (half) and ko (a quarter); its completions are computed by the queue later. The containers and videos
// go to the catalogue; the segments and subtitles to the shard its directory names (docs/decisions.md, "Subtitles on
// the shards"), with the facts the shard's triggers read and ids from the shard's range, past its counter.
const fixtures = `
INSERT INTO containers (id, type, origin_country, origin_language) VALUES (${IMPORT_CONTAINER}, 'film', 'kr', 'ko'), (${HUNDRED_CONTAINER}, 'series', 'kr', 'ko');
INSERT INTO titles (resource_kind, resource_id, language, text) VALUES ('c', ${IMPORT_CONTAINER}, 'en', 'Bench import'), ('c', ${HUNDRED_CONTAINER}, 'en', 'Bench hundred');
INSERT INTO videos (id, container_id, type, number) VALUES (${IMPORT_VIDEO}, ${IMPORT_CONTAINER}, 'movie', 1);
INSERT INTO videos (id, container_id, type, number)
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
  SELECT ${HUNDRED_FIRST_VIDEO} + i, ${HUNDRED_CONTAINER}, 'episode', i + 1 FROM n;
`;
/** The hundred's family on its shard `shard`: each video's 20 segments, then the texts, then the counter past them. */
const shardFixtures = (shard) => `
INSERT INTO shard_ids (shard, next_id) VALUES (${shard}, ${shard} * 4294967296) ON CONFLICT (shard) DO NOTHING;
INSERT INTO container_facts (container_id, state, origin_language) VALUES (${HUNDRED_CONTAINER}, 'normal', 'ko');
INSERT INTO video_facts (video_id, container_id, state, origin_language, number)
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
  SELECT ${HUNDRED_FIRST_VIDEO} + i, ${HUNDRED_CONTAINER}, 'normal', '', i + 1 FROM n;
INSERT INTO segments (id, container_id, video_id, start_ms, end_ms)
  WITH RECURSIVE v(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM v WHERE j < 99),
    n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19)
  SELECT (SELECT next_id FROM shard_ids WHERE shard = ${shard}) + 1 + j * 20 + i, ${HUNDRED_CONTAINER}, ${HUNDRED_FIRST_VIDEO} + j,
    n.i * 3000 + 1000, n.i * 3000 + 2500 FROM v, n;
UPDATE shard_ids SET next_id = (SELECT max(id) FROM segments) WHERE shard = ${shard};
INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text)
  SELECT (SELECT next_id FROM shard_ids WHERE shard = ${shard}) + row_number() OVER (ORDER BY s.id, l.key),
    ${HUNDRED_CONTAINER}, s.id, s.video_id, l.value, 'text ' || s.start_ms FROM segments s JOIN json_each('["en","fr","ko"]') l
  WHERE s.container_id = ${HUNDRED_CONTAINER} AND s.video_id <> ${HUNDRED_FIRST_VIDEO}
    AND (l.value = 'en' OR (l.value = 'fr' AND s.start_ms < 30000) OR (l.value = 'ko' AND s.start_ms < 15000));
UPDATE shard_ids SET next_id = (SELECT max(id) FROM subtitles) WHERE shard = ${shard};
`;
mkdirSync(join(ROOT, ".bench"), { recursive: true });
const execute = (binding, name, sql) => {
  const file = join(ROOT, ".bench", name);
  writeFileSync(file, sql);
  return wrangler(["d1", "execute", binding, "--local", "--persist-to", persistTo, "--file", file], { quiet: true });
};
/** The rows of one SELECT, from `wrangler d1 execute --json`. */
const select = (binding, sql) =>
  JSON.parse(wrangler(["d1", "execute", binding, "--local", "--persist-to", persistTo, "--json", "--command", sql], { quiet: true }))[0]
    .results;
const plan = shardStagePlan(PARALLEL);
execute("DB", "import-fixtures.sql", fixtures + shardStageFixtures(plan));
checkPlacement(plan, select("DB", placementQuery(plan)));
const placed = select("DB", `SELECT shard FROM shard_directory WHERE container_id = ${HUNDRED_CONTAINER}`);
execute(`SHARD_${placed[0].shard}`, "import-fixtures-shard.sql", shardFixtures(placed[0].shard));
console.log(`fixtures written (the hundred's subtitles on shard ${placed[0].shard})`);

// The Worker's output is read for its job log lines (their times are the jobs' start and end to the millisecond).
const server = await startDev({ port: PORT, persistTo, stdio: ["ignore", "pipe", "pipe"] });
const events = jobLog(server.child);
let reports;
try {
  const base = server.base;
  const login = await fetch(`${base}/v5/sessions.json`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin-password" }),
  });
  assert.equal(login.status, 201, await login.clone().text());
  const { token } = await login.json();

  // Polled every 25 ms alone; every 50 ms when several jobs are followed at once, so the polls stay a small load
  // next to the imports on the same workerd.
  const waitFor = async (jobId, every = 25) => {
    for (;;) {
      const { job } = await (await fetch(`${base}/v4/jobs/${jobId}.json?token=${token}`)).json();
      if (job.status === "succeeded" || job.status === "failed") return job;
      await new Promise((r) => setTimeout(r, every));
    }
  };
  const post = async (videoId, body) => {
    const url = `${base}/v4/videos/${videoId}v/subtitles/import_srt.json?app=${APP}&language=en&token=${token}`;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-subrip", ...signedHeaders(url, body) },
      body,
    });
    assert.equal(res.status, 202, await res.clone().text());
    return (await res.json()).job.id;
  };
  const upload = async (videoId, body) => {
    const started = performance.now();
    const done = await waitFor(await post(videoId, body));
    return { done, ms: performance.now() - started };
  };

  const file = srtOf(cueStarts(CUES));
  const first = await upload(IMPORT_VIDEO, file);
  assert.equal(first.done.status, "succeeded", first.done.error);
  const completion = await waitFor(first.done.result.completion_job);
  console.log(
    `srt-import ${CUES} cues (${(file.length / 1024).toFixed(0)} KiB), new video: POST to succeeded ${first.ms.toFixed(0)} ms ` +
      `(in the consumer ${first.done.result.duration_ms} ms), D1 rows written ${first.done.result.rows_written}; ` +
      `result ${JSON.stringify(first.done.result)}`,
  );
  console.log(`  its completion job: ${JSON.stringify(completion.result)}`);

  const again = await upload(IMPORT_VIDEO, file);
  console.log(
    `same file again (all unchanged): POST to succeeded ${again.ms.toFixed(0)} ms, rows written ${again.done.result.rows_written}`,
  );

  const small = await upload(HUNDRED_FIRST_VIDEO, srtOf(cueStarts(20, 1000, 3000)));
  const hundred = await waitFor(small.done.result.completion_job);
  console.log(`completion of a container of 100 videos (2,000 segments, 3 languages): ${JSON.stringify(hundred.result)}`);
  const doc = await (await fetch(`${base}/v4/containers/${HUNDRED_CONTAINER}c.json`)).json();
  console.log(`  container subtitle_completions: ${JSON.stringify(doc.subtitle_completions)}`);

  reports = await runShardStages({
    plan,
    file,
    post,
    waitFor: (jobId) => waitFor(jobId, 50),
    events,
  });
} finally {
  server.stop();
}
// Counted once the server is gone, so the reads share the local files with nothing.
const rows = new Map();
for (const shard of [1, 2]) {
  for (const { container_id, n } of select(`SHARD_${shard}`, shardRowsQuery(plan))) {
    rows.set(container_id, { ...rows.get(container_id), [shard]: n });
  }
}
printShardStages(reports, rows, CUES);
