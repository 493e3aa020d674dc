// npm run bench:shard-sizes [-- --subtitles N] [--containers N] [--keep]
//
// How big the shard databases get under a realistic subtitle load (docs/decisions.md, "Shards: the subtitle family"),
// for docs/scaling.md. In a fresh temporary state (never the developer's .wrangler/state): the migrations, the large
// catalogue of `npm run seed:large` (its directory places the containers on SHARD_1 and SHARD_2), then, on each
// container's own shard, its facts first (the triggers read them), and for each of its videos 600 segments, subtitles
// in 3 languages (the video's origin language, so the other two count as translations) of about 40 characters, one
// subtitle_histories row per (video, language, kind) with `count` = the cues it stands for, and 3 subtitle_versions
// rows per track. Whole containers (every video, whatever its state) are taken until at least `--subtitles` rows
// (default 2,000,000). Rows are made in SQL (recursive CTEs), at most 600 rows per statement and one batch per video,
// with ids from each shard's range. Prints one table: database sizes, rows, bytes per subtitle row and load times,
// the capacity of a 10 GB shard, and checks that the trigger-derived counts match the rows. Not part of CI.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { migrateLocal } from "./lib.mjs";
import { CONTAINER_BASE } from "./large-catalogue-sql.mjs";
import { seedLarge, withLocalD1 } from "./seed-large.mjs";
import { shardLoad, verifyShard } from "./shard-sizes/load.mjs";
import { fileStats, report } from "./shard-sizes/report.mjs";

const { values } = parseArgs({
  options: {
    subtitles: { type: "string", default: "2000000" },
    containers: { type: "string", default: "10000" },
    keep: { type: "boolean" },
  },
});
const target = Number(values.subtitles);
const containers = Number(values.containers);
if (!Number.isInteger(target) || target < 1 || !Number.isInteger(containers) || containers < 1) {
  console.error("usage: bench-shard-sizes.mjs [--subtitles N] [--containers N] [--keep]");
  process.exit(2);
}

const fmt = (n) => n.toLocaleString("en-US");
const started = performance.now();
const persistTo = mkdtempSync(join(tmpdir(), "shard-sizes-"));
console.log(`state: ${persistTo}`);
try {
  await migrateLocal(persistTo);
  const seeded = await seedLarge({ persistTo, containers });
  const measured = await withLocalD1(persistTo, async (db, env) => {
    const shards = Object.keys(env)
      .filter((name) => /^SHARD_\d+$/.test(name))
      .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
    // D1's own figure (it refuses PRAGMA page_count); the files are measured once wrangler has closed them.
    const sizeOf = async (d1) => (await d1.prepare("SELECT 1").run()).meta.size_after;
    const before = Object.fromEntries(await Promise.all(shards.map(async (s) => [s, await sizeOf(env[s])])));

    // Whole containers of the large catalogue, spread over its range, until their videos carry `target` subtitles.
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
    const perVideo = 600 * 3;
    const picked = [];
    for (let i = 0; i < rows.length && picked.length * perVideo < target;) {
      const j = rows.findIndex((r, k) => k > i && r.container_id !== rows[i].container_id);
      const end = j === -1 ? rows.length : j;
      picked.push(...rows.slice(i, end));
      i = end;
    }
    if (picked.length * perVideo < target) throw new Error(`only ${fmt(picked.length)} videos: raise --containers`);
    console.log(`${fmt(new Set(picked.map((r) => r.container_id)).size)} containers, ${fmt(picked.length)} videos picked`);

    const loads = {};
    for (const shard of shards) {
      const n = Number(shard.slice(6));
      const videos = picked.filter((r) => r.shard === n);
      if (!videos.length) throw new Error(`no picked container is on ${shard}: the directory did not spread them`);
      loads[shard] = await shardLoad(env[shard], n, videos, (line) => console.log(`${shard}: ${line}`));
      loads[shard].check = await verifyShard(env[shard]);
      console.log(`${shard}: counts ${loads[shard].check.ok ? "verified" : "WRONG"}`);
    }

    const after = Object.fromEntries(await Promise.all(shards.map(async (s) => [s, await sizeOf(env[s])])));
    const catalogue = {
      sizeAfter: await sizeOf(db),
      counts: await db.prepare("SELECT (SELECT count(*) FROM containers) AS containers, (SELECT count(*) FROM videos) AS videos").first(),
    };
    return { shards, before, after, loads, catalogue };
  });
  const files = await fileStats(persistTo);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${report({ ...measured, files, seeded, seconds })}\n`);
  const wrong = measured.shards.filter((s) => !measured.loads[s].check.ok);
  for (const s of wrong) console.error(`${s}: derived counts do not match: ${JSON.stringify(measured.loads[s].check)}`);
  if (wrong.length) process.exitCode = 1;
} finally {
  if (values.keep) console.log(`state kept in ${persistTo}`);
  else rmSync(persistTo, { recursive: true, force: true });
}
