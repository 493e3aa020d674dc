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
import { parseArgs } from "node:util";
import { report } from "./shard-sizes/report.mjs";
import { benchRun, loadSubtitles, sizeOf } from "./shard-sizes/run.mjs";

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

const { measured, files, seeded, seconds } = await benchRun({ prefix: "shard-sizes-", containers, keep: values.keep }, async (db, env) => {
  const { shards, before, after, loads } = await loadSubtitles(db, env, { target });
  const catalogue = {
    sizeAfter: await sizeOf(db),
    counts: await db.prepare("SELECT (SELECT count(*) FROM containers) AS containers, (SELECT count(*) FROM videos) AS videos").first(),
  };
  return { shards, before, after, loads, catalogue };
});
console.log(`\n${report({ ...measured, files, seeded, seconds })}\n`);
