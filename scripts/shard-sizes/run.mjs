// The subtitle load shared by `npm run bench:shard-sizes` and `npm run bench:search`: whole containers of the large
// catalogue, spread over its range, until their videos carry `target` subtitles, loaded on each container's own shard
// (scripts/shard-sizes/load.mjs) with D1's size of each shard before and after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTAINER_BASE } from "../large-catalogue-sql.mjs";
import { migrateLocal } from "../lib.mjs";
import { seedLarge, withLocalD1 } from "../seed-large.mjs";
import { fileStats } from "./report.mjs";
import { CUES, asciiText, shardLoad, verifyShard } from "./load.mjs";

const fmt = (n) => n.toLocaleString("en-US");

/** The shard bindings of the environment, SHARD_1 first. */
export const shardNames = (env) =>
  Object.keys(env)
    .filter((name) => /^SHARD_\d+$/.test(name))
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));

/** D1's own figure (it refuses PRAGMA page_count); the files are measured once wrangler has closed them. */
export const sizeOf = async (d1) => (await d1.prepare("SELECT 1").run()).meta.size_after;

/** Loads at least `target` subtitle rows of `model` over the shards; per shard the load's times and derived-count check. */
export async function loadSubtitles(db, env, { target, model = asciiText, log = console.log }) {
  const shards = shardNames(env);
  const before = Object.fromEntries(await Promise.all(shards.map(async (s) => [s, await sizeOf(env[s])])));
  const rows = (
    await db
      .prepare(
        `SELECT c.id AS container_id, c.state AS container_state, c.origin_language AS container_origin, d.shard AS shard,
           v.id AS video_id, v.state AS video_state, v.origin_language AS video_origin, v.number AS number
         FROM containers c JOIN shard_directory d ON d.container_id = c.id JOIN videos v ON v.container_id = c.id
         WHERE c.id > ${CONTAINER_BASE} ORDER BY (c.id * 7919) % 10007, c.id, v.id`,
      )
      .all()
  ).results;
  const perVideo = CUES * 3;
  const picked = [];
  for (let i = 0; i < rows.length && picked.length * perVideo < target;) {
    const j = rows.findIndex((r, k) => k > i && r.container_id !== rows[i].container_id);
    const end = j === -1 ? rows.length : j;
    picked.push(...rows.slice(i, end));
    i = end;
  }
  if (picked.length * perVideo < target) throw new Error(`only ${fmt(picked.length)} videos: raise --containers`);
  log(`${fmt(new Set(picked.map((r) => r.container_id)).size)} containers, ${fmt(picked.length)} videos picked`);

  const loads = {};
  for (const shard of shards) {
    const n = Number(shard.slice(6));
    const videos = picked.filter((r) => r.shard === n);
    if (!videos.length) throw new Error(`no picked container is on ${shard}: the directory did not spread them`);
    loads[shard] = await shardLoad(env[shard], n, videos, (line) => log(`${shard}: ${line}`), model);
    loads[shard].check = await verifyShard(env[shard]);
    log(`${shard}: counts ${loads[shard].check.ok ? "verified" : "WRONG"}`);
  }
  const after = Object.fromEntries(await Promise.all(shards.map(async (s) => [s, await sizeOf(env[s])])));
  return { shards, before, after, loads, picked };
}

/**
 * One run of a subtitle-load bench, in a fresh temporary state (never the developer's .wrangler/state): the
 * migrations, the large catalogue of `containers`, then `measure(db, env)` on the local D1s (it loads with
 * `loadSubtitles` and answers what that returned, with its own figures), and the state's files measured once wrangler
 * has closed them. A shard whose derived counts do not match its rows is printed and fails the run (exit code 1). The
 * state is removed unless `keep`. Answers `{measured, files, seeded, seconds}`.
 */
export async function benchRun({ prefix, containers, keep }, measure) {
  const started = performance.now();
  const persistTo = mkdtempSync(join(tmpdir(), prefix));
  console.log(`state: ${persistTo}`);
  try {
    await migrateLocal(persistTo);
    const seeded = await seedLarge({ persistTo, containers });
    const measured = await withLocalD1(persistTo, measure);
    const files = await fileStats(persistTo);
    const wrong = measured.shards.filter((s) => !measured.loads[s].check.ok);
    for (const s of wrong) console.error(`${s}: derived counts do not match: ${JSON.stringify(measured.loads[s].check)}`);
    if (wrong.length) process.exitCode = 1;
    return { measured, files, seeded, seconds: (performance.now() - started) / 1000 };
  } finally {
    if (keep) console.log(`state kept in ${persistTo}`);
    else rmSync(persistTo, { recursive: true, force: true });
  }
}
