// The import benchmark's stage across shards (scripts/bench-import.mjs): imports to containers whose subtitles live on
// different shards (docs/decisions.md, "Shards" and "Subtitles on the shards"), uploaded at the same moment.
//   (a) K imports, every container on shard 1; (b) K imports, half on shard 1 and half on shard 2; (c) one alone.
// Each import gets a fresh container of one empty video, so every import does the same work (a new track of N cues:
// N segments, N subtitles, their histories). Reported: wall time from the first POST to the last job succeeded, each
// job's start and end (the Worker's own `event: "job"` log lines, to the millisecond, and the job row's second-precise
// `started_at`/`finished_at`), how many ran at once, the D1 rows each job's result says it wrote (all on its shard),
// and, once the server has stopped, the rows each shard holds for each container.
// What local workerd can show: every database runs in the one process and Miniflare delivers one queue batch at a time,
// so parallel shards are not faster here; the stage shows which shard each import wrote and whether the jobs' runs
// overlap. Each wall includes the queue's wait for a batch (max_batch_timeout, 1 s in wrangler.toml).
import assert from "node:assert/strict";
import { createInterface } from "node:readline";

/** Far above the demo seed and the large catalogue, next to the import benchmark's own fixtures. */
const FIRST_CONTAINER = 9_000_010;
const FIRST_VIDEO = 9_001_001;

/**
 * The stages' containers and their shards: (a) K on shard 1; (b) ceil(K/2) on shard 1 and the rest on shard 2, in
 * turn; (c) one on shard 2, so each shard is written alone at least once.
 */
export function shardStagePlan(k) {
  const stages = [
    { name: "a", what: `${k} imports at once, all to containers on shard 1`, shards: Array(k).fill(1) },
    {
      name: "b",
      what: `${k} imports at once, split across shards 1 and 2`,
      shards: Array.from({ length: k }, (_, i) => (i % 2 === 0 ? 1 : 2)),
    },
    { name: "c", what: "one import alone (shard 2)", shards: [2] },
  ];
  let n = 0;
  for (const stage of stages) {
    stage.targets = stage.shards.map((shard) => {
      const target = { container: FIRST_CONTAINER + n, video: FIRST_VIDEO + n, shard };
      n++;
      return target;
    });
  }
  return stages;
}

const targetsOf = (plan) => plan.flatMap((s) => s.targets);

/**
 * The catalogue's fixtures: the containers and videos (the placement trigger puts each on the emptiest shard), then
 * each container moved in the directory to the shard the plan names. Nothing of theirs is on a shard yet, so a plain
 * update is the whole move; the directory's update trigger keeps `shards.containers` right.
 */
export function shardStageFixtures(plan) {
  const targets = targetsOf(plan);
  const list = (shard) =>
    targets
      .filter((t) => t.shard === shard)
      .map((t) => t.container)
      .join(", ");
  return `
INSERT INTO containers (id, type, origin_country, origin_language) VALUES ${targets.map((t) => `(${t.container}, 'film', 'kr', 'ko')`).join(", ")};
INSERT INTO titles (resource_kind, resource_id, language, text) VALUES ${targets.map((t) => `('c', ${t.container}, 'en', 'Bench shards ${t.container}')`).join(", ")};
INSERT INTO videos (id, container_id, type, number) VALUES ${targets.map((t) => `(${t.video}, ${t.container}, 'movie', 1)`).join(", ")};
UPDATE shard_directory SET shard = 1 WHERE container_id IN (${list(1)});
UPDATE shard_directory SET shard = 2 WHERE container_id IN (${list(2)});
`;
}

/** The directory's placement of the stage's containers, as `wrangler d1 execute --json` returned it, checked. */
export function checkPlacement(plan, rows) {
  const placed = new Map(rows.map((r) => [r.container_id, r.shard]));
  for (const t of targetsOf(plan)) assert.equal(placed.get(t.container), t.shard, `container ${t.container} on shard ${t.shard}`);
}

export const placementQuery = (plan) =>
  `SELECT container_id, shard FROM shard_directory WHERE container_id IN (${targetsOf(plan)
    .map((t) => t.container)
    .join(", ")})`;

/**
 * Collects the Worker's job log lines (`{"event":"job","transition":...,"job":<id>,"time":...}`) from `wrangler dev`'s
 * output; everything else is dropped. Both streams are read to the end so the child never blocks on a full pipe.
 */
export function jobLog(child) {
  const events = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => {
      const start = line.indexOf("{");
      if (start === -1 || !line.includes('"event":"job"')) return;
      try {
        const entry = JSON.parse(line.slice(start));
        if (entry.event === "job" && typeof entry.job === "number") events.push({ ...entry, at: Date.parse(entry.time) });
      } catch {
        // not one of the Worker's JSON lines
      }
    });
  }
  return events;
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
const clock = (iso) => (iso ? iso.slice(11, 19) : "-");

/**
 * Runs the three stages against the running server. `post(videoId, body)` uploads and resolves to the job's id (`5j`); `waitFor(jobId)` polls the job until it ends and resolves to its wire view. Each stage waits for its imports'
 * completion jobs as well, so none of them runs into the next stage.
 */
export async function runShardStages({ plan, file, post, waitFor, events }) {
  const reports = [];
  for (const stage of plan) {
    const started = Date.now();
    const jobs = await Promise.all(
      stage.targets.map(async (target) => {
        const id = await post(target.video, file);
        const job = await waitFor(id);
        // The log lines name the job by its number.
        const number = Number.parseInt(id, 10);
        assert.equal(job.status, "succeeded", job.error ?? "");
        return { ...target, number, job, seen: Date.now() };
      }),
    );
    const wall = Math.max(...jobs.map((j) => j.seen)) - started;
    await Promise.all(jobs.map((j) => waitFor(j.job.result.completion_job)));
    for (const j of jobs) {
      const mine = events.filter((e) => e.job === j.number);
      j.runStart = mine.find((e) => e.transition === "running")?.at;
      j.runEnd = mine.find((e) => e.transition === "succeeded")?.at;
    }
    reports.push({ stage, started, wall, jobs });
  }
  return reports;
}

/** The most jobs whose logged runs [start, end) overlap at one instant. */
function mostAtOnce(jobs) {
  const marks = jobs
    .filter((j) => j.runStart !== undefined && j.runEnd !== undefined)
    .flatMap((j) => [
      [j.runStart, 1],
      [j.runEnd, -1],
    ])
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let now = 0;
  let most = 0;
  for (const [, step] of marks) most = Math.max(most, (now += step));
  return most;
}

/** The stages' summary; `rows` (container id -> {shard: rows}) from the shards once the server has stopped. */
export function printShardStages(reports, rows, cues) {
  console.log(`\nimports across shards (${cues} cues each, one fresh container of one video per import)`);
  for (const { stage, started, wall, jobs } of reports) {
    const ran = jobs.map((j) => (j.runEnd ?? 0) - (j.runStart ?? 0)).reduce((a, b) => a + b, 0);
    console.log(`(${stage.name}) ${stage.what}: wall ${fmt(wall)} ms from the first POST to the last job succeeded`);
    for (const j of jobs) {
      const at = (t) => (t === undefined ? "?" : `+${fmt(t - started)}`);
      const held = rows.get(j.container) ?? {};
      console.log(
        `    job ${j.job.id} container ${j.container}c (directory: shard ${j.shard}): ran ${at(j.runStart)} to ${at(j.runEnd)} ms ` +
          `(row: started ${clock(j.job.started_at)}, finished ${clock(j.job.finished_at)} UTC), in the handler ` +
          `${fmt(j.job.result.duration_ms)} ms, D1 rows written ${fmt(j.job.result.rows_written)}; rows held: ` +
          `SHARD_1 ${fmt(held[1] ?? 0)}, SHARD_2 ${fmt(held[2] ?? 0)}`,
      );
    }
    const perShard = [1, 2].map(
      (s) =>
        `shard ${s} ${fmt(
          jobs
            .filter((j) => j.shard === s)
            .map((j) => j.job.result.rows_written)
            .reduce((a, b) => a + b, 0),
        )}`,
    );
    console.log(
      `    at most ${mostAtOnce(jobs)} of ${jobs.length} running at once; the jobs' runs add up to ${fmt(ran)} ms of the ` +
        `${fmt(wall)} ms wall; D1 rows written by the imports: ${perShard.join(", ")}`,
    );
  }
  const most = reports.filter((r) => r.jobs.length > 1).map((r) => `(${r.stage.name}) ${mostAtOnce(r.jobs)} of ${r.jobs.length}`);
  const serial = reports.filter((r) => r.jobs.length > 1).every((r) => mostAtOnce(r.jobs) === 1);
  console.log(
    `summary: wall ${reports.map((r) => `(${r.stage.name}) ${fmt(r.wall)} ms`).join(", ")}; most imports running at once ` +
      `${most.join(", ")}${
        serial
          ? ": they ran one after another, since uploads made together arrive in one queue batch and the jobs consumer " +
            "(queues/index.ts) runs a batch's messages in turn"
          : ""
      }`,
  );
  const stray = [...rows].filter(([container, held]) => {
    const shard = reports.flatMap((r) => r.jobs).find((j) => j.container === container)?.shard;
    return Object.entries(held).some(([s, n]) => Number(s) !== shard && n > 0);
  });
  console.log(
    stray.length
      ? `ROWS ON THE WRONG SHARD for containers ${stray.map(([c]) => c).join(", ")}`
      : "every import's rows are on its container's shard only (the other shard holds none of them)",
  );
}

/** Rows of the subtitle family an import writes, per container, on one shard. */
export const shardRowsQuery = (plan) => {
  const ids = targetsOf(plan)
    .map((t) => t.container)
    .join(", ");
  const count = (table) => `SELECT container_id, count(*) AS n FROM ${table} WHERE container_id IN (${ids}) GROUP BY container_id`;
  return `SELECT container_id, sum(n) AS n FROM (${["segments", "subtitles", "subtitle_histories", "subtitle_versions"]
    .map(count)
    .join(" UNION ALL ")}) GROUP BY container_id`;
};
