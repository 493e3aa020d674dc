// Part of npm run test:backup: shard ids stay unique after a shard is restored (docs/decisions.md, "Backups";
// docs/operations.md, "Shard ids after a restore"). On two fresh local shard databases: shard 1 issues ids to a
// container's comments and segments, a backup is taken, shard 1 issues more, the container moves to shard 2 (its rows
// keep their ids), then `db:restore` loads shard 1 from the older backup. Checks that the restore raised shard 1's
// counter past the ids of its range now on shard 2, and that the id the app's allocation then issues is in use
// nowhere; then, as a Time Travel restore would leave them, shard 1's counter lowered again and shard 2's row
// gone, `npm run admin -- shards reseat-ids` raises and recreates them, and a second run changes nothing. Prints a
// an ok or not ok line per check and the closing line CI reads ("backup ids: N passed, N failed"); exits 1 on any failure.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, checklist, migrateLocal, wrangler } from "./lib.mjs";

const DIR = join(ROOT, ".wrangler", "backup-ids-test");
const STATE = join(DIR, "state");
const BACKUP = join(DIR, "backup");
const R = 2 ** 32;

/** The rows of each statement on a shard's local database. */
function d1(binding, sql) {
  const out = wrangler(["d1", "execute", binding, "--local", "--persist-to", STATE, "--json", "--command", sql], { quiet: true });
  return JSON.parse(out).map((s) => s.results);
}
const script = (name, args) =>
  spawnSync(process.execPath, [join(ROOT, "scripts", name), ...args, "--persist-to", STATE], { cwd: ROOT, encoding: "utf8" });
const counters = (binding) => Object.fromEntries(d1(binding, "SELECT shard, next_id FROM shard_ids")[0].map((c) => [c.shard, c.next_id]));
const comment = (id, container) =>
  `INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment) VALUES (${id}, ${container}, ${container}, 'en', 1, 'alice', 0, 'c${id}')`;
const segment = (id, container) =>
  `INSERT INTO segments (id, container_id, video_id, start_ms, end_ms) VALUES (${id}, ${container}, ${container}, ${id % 1000}, ${(id % 1000) + 1})`;
/** The highest id of range `range` on both shards, read straight from every id-bearing table here. */
function highest(range) {
  const tables = ["timed_comments", "segments", "subtitles", "subtitle_histories", "subtitle_versions", "reports", "caption_suggestions"];
  // One scalar per table: D1 allows few terms in a compound SELECT.
  const each = tables.map((t) => `coalesce((SELECT max(id) FROM ${t} WHERE id > ${range * R} AND id <= ${(range + 1) * R}), 0)`);
  return Math.max(...["SHARD_1", "SHARD_2"].map((b) => d1(b, `SELECT max(${each.join(", ")}) AS m`)[0][0].m));
}

const { step: check, finish } = checklist();

rmSync(DIR, { recursive: true, force: true });
await migrateLocal(STATE);
// Before the backup: shard 1 has issued R+1..R+3 to container 10, shard 2 2R+1..2R+2 to container 20.
d1("SHARD_1", [comment(R + 1, 10), comment(R + 2, 10), segment(R + 3, 10), `INSERT INTO shard_ids VALUES (1, ${R + 3})`].join(";"));
d1("SHARD_2", [comment(2 * R + 1, 20), comment(2 * R + 2, 20), `INSERT INTO shard_ids VALUES (2, ${2 * R + 2})`].join(";"));

await check("db:backup of the two shards (and the catalogue)", () => {
  const res = script("db-backup.mjs", ["--out", BACKUP]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
});

// After it: shard 1 issues R+4 and R+5 to container 10, which then moves to shard 2 with its ids.
d1("SHARD_1", [comment(R + 4, 10), segment(R + 5, 10), `UPDATE shard_ids SET next_id = ${R + 5} WHERE shard = 1`].join(";"));
const moved = d1(
  "SHARD_1",
  "SELECT * FROM timed_comments WHERE container_id = 10 ORDER BY id; SELECT * FROM segments WHERE container_id = 10",
);
d1(
  "SHARD_2",
  [
    ...moved[0].map((c) => comment(c.id, 10)),
    ...moved[1].map((s) => segment(s.id, 10)),
    // The app's allocation (src/db/queries/shard-rows.ts) issues from shard 2 meanwhile: its counter goes on.
    `UPDATE shard_ids SET next_id = next_id + 1 WHERE shard = 2`,
    comment(2 * R + 3, 20),
  ].join(";"),
);
d1("SHARD_1", "DELETE FROM timed_comments WHERE container_id = 10; DELETE FROM segments WHERE container_id = 10");

await check("db:restore of shard 1 from the older backup raises its counter past the ids of its range on shard 2", () => {
  const res = script("db-restore.mjs", ["--file", join(BACKUP, "SHARD_1.sql"), "--force"]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  // The backup's counter (R+3) is below R+5, the moved segment's id on shard 2.
  assert.match(res.stdout, new RegExp(`SHARD_1: range 1 counter raised ${R + 3} → ${R + 5}`));
  assert.deepEqual(counters("SHARD_1"), { 1: R + 5 });
  assert.deepEqual(counters("SHARD_2"), { 2: 2 * R + 3 }, "shard 2's counter is past its ids already, and gets no row for range 1");
  assert.equal(highest(1), R + 5);
  return res.stdout.split("\n").find((l) => l.includes("raised"));
});

await check("the next id shard 1 issues, as the app allocates it, is in use on no shard", () => {
  d1(
    "SHARD_1",
    `INSERT INTO shard_ids (shard, next_id) VALUES (1, ${R + 1}) ON CONFLICT (shard) DO UPDATE SET next_id = next_id + 1;
     ${comment("(SELECT next_id FROM shard_ids WHERE shard = 1)", 11)}`,
  );
  const [[issued]] = d1("SHARD_1", "SELECT id FROM timed_comments WHERE container_id = 11");
  assert.equal(issued.id, R + 6);
  assert.deepEqual(
    d1("SHARD_2", `SELECT id FROM timed_comments WHERE id = ${issued.id} UNION SELECT id FROM segments WHERE id = ${issued.id}`)[0],
    [],
  );
  return `${issued.id}`;
});

// As a Time Travel restore of each would leave them: shard 1 back before R+4, shard 2 before its first id was issued
// (its rows are there still, as if the counter alone had gone: the command must create it).
d1("SHARD_1", `UPDATE shard_ids SET next_id = ${R + 3} WHERE shard = 1`);
d1("SHARD_2", "DELETE FROM shard_ids");

await check("shards reseat-ids: every counter past the highest id of its range on any shard, the missing one created", () => {
  const res = script("admin.mjs", ["shards", "reseat-ids", "--json"]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  const out = JSON.parse(res.stdout);
  assert.deepEqual(out.ranges, [
    { range: 1, max_id: R + 6, found_on: "SHARD_1.timed_comments" },
    { range: 2, max_id: 2 * R + 3, found_on: "SHARD_2.timed_comments" },
  ]);
  assert.deepEqual(out.shards, [
    { binding: "SHARD_1", migrated: true, counters: [{ range: 1, before: R + 3, after: R + 6, raised: true }] },
    { binding: "SHARD_2", migrated: true, counters: [{ range: 2, before: null, after: 2 * R + 3, raised: true }] },
  ]);
  for (const [binding, range] of [
    ["SHARD_1", 1],
    ["SHARD_2", 2],
  ]) {
    const next = counters(binding)[range];
    assert.ok(next >= highest(range), `${binding}: next_id ${next} below ${highest(range)}`);
  }
  return `range 1 → ${R + 6}, range 2 → ${2 * R + 3}`;
});

await check("shards reseat-ids again: nothing to raise, nothing written", () => {
  const res = script("admin.mjs", ["shards", "reseat-ids"]);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /nothing to raise/);
  assert.deepEqual([counters("SHARD_1"), counters("SHARD_2")], [{ 1: R + 6 }, { 2: 2 * R + 3 }]);
  assert.equal(script("admin.mjs", ["shards", "reseat-ids", "1"]).status, 2, "it takes no argument");
});

finish("backup ids");
