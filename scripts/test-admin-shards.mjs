// The shards commands of the admin CLI (scripts/admin/shards.mjs), for scripts/test-admin.mjs: offline, what each
// command writes to the catalogue and what it refuses, and `shards reseat-ids` on the demo's id counters; online (wrangler dev running), a container moved with
// `shards move` by the sweeper and the queue consumer, its timed comments and subtitles then read from the other shard
// over HTTP.
import assert from "node:assert/strict";
import { DEMO_OFFICIAL_APP, signedHeaders } from "./lib.mjs";

/** A video's track in a language as the demo official application reads it (a signed GET). */
function track(base, fetch, videoId, language) {
  const url = `${base}/v4/videos/${videoId}v/subtitle_tracks/${language}.json?app=${DEMO_OFFICIAL_APP.id}`;
  return fetch(url, { headers: signedHeaders(url) });
}

export async function shardStepsOffline({ step, admin, rows, ok }) {
  await step("shards list: both shards, their containers, accepting, no move under way", () => {
    const res = admin(["shards", "list"]);
    ok(res);
    const counts = rows("SELECT shard, count(*) AS n FROM shard_directory GROUP BY shard ORDER BY shard");
    assert.deepEqual(
      res.json.shards,
      counts.map((c) => ({
        id: c.shard,
        accepting: true,
        containers: c.n,
        pending: { cleanups: 0, fact_changes: 0 },
        outbox_error: null,
        outbox_error_at: null,
      })),
    );
    assert.deepEqual(res.json.moves, []);
    const [waiting] = rows(
      "SELECT (SELECT count(*) FROM shard_cleanups) AS cleanups, (SELECT count(*) FROM shard_fact_changes) AS fact_changes",
    );
    assert.deepEqual(res.json.outboxes, waiting);
  });

  await step("shards list: each shard's pending outbox rows and the last error a drain met there", () => {
    // As a drain leaves them when shard 2 does not answer (src/services/shard-outbox-errors.ts): its rows wait, the
    // error is on its row. A container on each shard with a fact change pending, and two cleanups for shard 2.
    const [one, two] = [1, 2].map(
      (n) => rows(`SELECT container_id FROM shard_directory WHERE shard = ${n} ORDER BY container_id LIMIT 1`)[0].container_id,
    );
    rows(`INSERT INTO shard_fact_changes (container_id) VALUES (${one}), (${two}), (${two});
      INSERT INTO shard_cleanups (shard, container_id, video_id) VALUES (2, 999999991, NULL), (2, 999999992, NULL);
      UPDATE shards SET outbox_error = 'Error: D1_ERROR: shard 2 unavailable', outbox_error_at = 1796000000 WHERE id = 2`);
    try {
      const res = admin(["shards", "list"]);
      ok(res);
      assert.deepEqual(
        res.json.shards.map((s) => ({ id: s.id, pending: s.pending, outbox_error: s.outbox_error, outbox_error_at: s.outbox_error_at })),
        [
          { id: 1, pending: { cleanups: 0, fact_changes: 1 }, outbox_error: null, outbox_error_at: null },
          {
            id: 2,
            pending: { cleanups: 2, fact_changes: 2 },
            outbox_error: "Error: D1_ERROR: shard 2 unavailable",
            outbox_error_at: "2026-11-30T00:53:20Z",
          },
        ],
      );
      assert.deepEqual(res.json.outboxes, { cleanups: 2, fact_changes: 3 });
      const text = admin(["shards", "list"], undefined, { text: true }).stdout;
      assert.match(
        text,
        /shard 2: .*\n {2}waiting for it: 2 cleanups, 2 fact changes\n {2}last outbox error \(2026-11-30T00:53:20Z\): Error: D1_ERROR: shard 2 unavailable/,
      );
    } finally {
      rows(`DELETE FROM shard_fact_changes; DELETE FROM shard_cleanups; UPDATE shards SET outbox_error = NULL, outbox_error_at = NULL`);
    }
  });

  await step("shards accept off/on, and never the last accepting shard off; shards add needs a binding", () => {
    ok(admin(["shards", "accept", "2", "off"]));
    assert.deepEqual(rows("SELECT id, accepting FROM shards ORDER BY id"), [
      { id: 1, accepting: 1 },
      { id: 2, accepting: 0 },
    ]);
    assert.equal(admin(["shards", "accept", "1", "off"]).status, 1);
    ok(admin(["shards", "add", "2"]));
    assert.equal(rows("SELECT accepting FROM shards WHERE id = 2")[0].accepting, 1);
    assert.equal(admin(["shards", "add", "3"]).status, 1, "no SHARD_3 binding in wrangler.toml");
    assert.equal(admin(["shards", "accept", "9", "on"]).status, 1);
    assert.equal(admin(["shards", "accept", "1", "maybe"]).status, 2);
    assert.equal(admin(["shards", "add", "0; DROP TABLE shards"]).status, 2);
    assert.equal(rows("SELECT count(*) AS c FROM shards")[0].c, 2);
  });

  await step("shards move: refused for the same shard, an unknown container or shard, a malformed id", () => {
    const [{ container_id: id, shard }] = rows("SELECT container_id, shard FROM shard_directory ORDER BY container_id LIMIT 1");
    assert.equal(admin(["shards", "move", `${id}c`, String(shard)]).status, 1);
    assert.equal(admin(["shards", "move", "999999999c", "1"]).status, 1);
    assert.equal(admin(["shards", "move", `${id}c`, "3"]).status, 1);
    assert.equal(admin(["shards", "move", "1v", "2"]).status, 2);
    assert.equal(rows("SELECT count(*) AS c FROM jobs WHERE type = 'container-move'")[0].c, 0);
  });

  // The restore case itself is scripts/test-backup-ids.mjs (npm run test:backup); here, the demo's counters as seeded.
  await step("shards reseat-ids on the demo: each shard's counter already past its range's ids, nothing raised", () => {
    const res = admin(["shards", "reseat-ids"]);
    ok(res);
    assert.deepEqual(
      res.json.shards.map((s) => s.binding),
      ["SHARD_1", "SHARD_2"],
    );
    for (const r of res.json.ranges) {
      assert.ok(r.max_id > r.range * 2 ** 32, `range ${r.range}: the demo seeds rows on each shard`);
      const own = res.json.shards.find((s) => s.binding === `SHARD_${r.range}`).counters.find((c) => c.range === r.range);
      assert.ok(own.after >= r.max_id, `range ${r.range}: counter ${own.after}, highest id ${r.max_id}`);
    }
    assert.ok(res.json.shards.every((s) => s.counters.every((c) => !c.raised)));
  });

  await step("search index-subtitles and subtitles check [--all]: a job per shard, or one on the container's shard", () => {
    const queued = (res) => res.json.jobs.map((j) => ({ type: res.json.type, params: j.params }));
    const index = admin(["search", "index-subtitles"]);
    ok(index);
    assert.deepEqual(queued(index), [
      { type: "subtitle-search-index", params: { shard: 1 } },
      { type: "subtitle-search-index", params: { shard: 2 } },
    ]);
    const [{ container_id: id, shard }] = rows("SELECT container_id, shard FROM shard_directory ORDER BY container_id LIMIT 1");
    const check = admin(["subtitles", "check", `${id}c`, "--all"]);
    ok(check);
    assert.deepEqual(queued(check), [{ type: "subtitle-checks", params: { shard, containerId: id, all: true } }]);
    assert.equal(admin(["subtitles", "check", "999999999c"]).status, 1);
    assert.equal(admin(["subtitles", "check", "1v"]).status, 2);
    assert.equal(admin(["search", "index-subtitles", "--all"]).status, 2);
    // Not for the server's sweeper to send: the checks above are what the commands write.
    rows("DELETE FROM jobs WHERE type IN ('subtitle-search-index', 'subtitle-checks')");
  });
}

export async function shardStepsOnline({ step, admin, rows, ok, base, token, fetch }) {
  /** A job the sweeper sends within a minute, polled over HTTP until it ends. */
  async function finished(id) {
    const deadline = Date.now() + 90_000;
    let job;
    while (Date.now() < deadline) {
      job = (await (await fetch(`${base}/v4/jobs/${id}.json?token=${token}`)).json()).job;
      if (job.status === "succeeded" || job.status === "failed") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return job;
  }

  await step(
    "shards move: the sweeper sends the job, the container's comments and subtitles are then read from the other shard",
    async () => {
      // The demo's first episode has timed comments (scripts/demo/community.mjs) and subtitles (scripts/demo/subtitles.mjs).
      const [{ video, container, shard }] = rows(
        "SELECT v.id AS video, v.container_id AS container, d.shard FROM videos v JOIN shard_directory d ON d.container_id = v.container_id WHERE v.id = 1",
      );
      const path = `${base}/v4/videos/${video}v/timed_comments/en.json?token=${token}`;
      const before = await (await fetch(path)).json();
      assert.ok(before.length > 0);
      const subtitles = await track(base, fetch, video, "en");
      assert.equal(subtitles.status, 200, "the demo's subtitles are readable");
      const cues = (await subtitles.json()).cues;
      assert.ok(cues.length > 0);
      const to = shard === 1 ? 2 : 1;
      const res = admin(["shards", "move", `${container}c`, String(to)]);
      ok(res);
      assert.equal(admin(["shards", "move", `${container}c`, String(to)]).status, 1, "one move of a container at a time");
      const id = res.json.job.id;
      const job = await finished(id);
      assert.equal(job.status, "succeeded", JSON.stringify(job));
      assert.equal(rows(`SELECT shard FROM shard_directory WHERE container_id = ${container}`)[0].shard, to);
      assert.deepEqual(await (await fetch(path)).json(), before);
      assert.deepEqual((await (await track(base, fetch, video, "en")).json()).cues, cues);
      assert.deepEqual(admin(["shards", "list"]).json.moves, []);
      return `${before.length} comments and ${cues.length} English cues moved to shard ${to} by job ${id}`;
    },
  );
}
