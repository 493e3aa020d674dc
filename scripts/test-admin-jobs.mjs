// The `jobs` commands of the admin CLI (scripts/admin/jobs.mjs), part of npm run test:admin (scripts/test-admin.mjs):
// jobs put in the rows as each state leaves them, each command's answer checked against them, then, with `wrangler dev`
// running (its crons fired every 10 s), a CLI retry that the sweeper sends and the queue consumer runs, read back
// over HTTP through GET /v4/jobs.json and GET /v4/jobs/<id>.json as staff.
import assert from "node:assert/strict";

const COMPLETION = JSON.stringify({ videoIds: [], containerIds: [] });
const DEAD_LETTER = "failed after 6 attempts: R2 unavailable";

/**
 * The jobs of the checks below, made through SQL: `retryable` failed 2 hours ago (its params run), `deadLetter` was
 * failed by the dead-letter queue 5 minutes ago (its upload key kept), `overdue` is queued and 20 minutes past its
 * deadline, `old` failed 3 days ago. Answers their ids.
 */
function seedJobs(rows) {
  const insert = (sql) => rows(`${sql} RETURNING id`)[0].id;
  return {
    old: insert(`INSERT INTO jobs (type, status, params, error, attempts, created_at, finished_at)
      VALUES ('completion', 'failed', '${COMPLETION}', 'boom', 1, unixepoch() - 3 * 86400, unixepoch() - 3 * 86400)`),
    retryable: insert(`INSERT INTO jobs (type, status, params, error, attempts, created_at, finished_at)
      VALUES ('completion', 'failed', '${COMPLETION}', 'D1 is busy', 1, unixepoch() - 7200, unixepoch() - 7100)`),
    overdue: insert(`INSERT INTO jobs (type, status, params, attempts, created_at, lease_until)
      VALUES ('list-edit', 'queued', '{"listId": 999999999, "ids": []}', 0, unixepoch() - 1200, unixepoch() - 1200)`),
    deadLetter: insert(`INSERT INTO jobs (type, status, params, payload_key, error, attempts, created_at, finished_at, dead_lettered_at)
      VALUES ('srt-import', 'failed', '{}', 'imports/0/upload', '${DEAD_LETTER}', 6, unixepoch() - 600, unixepoch() - 300, unixepoch() - 300)`),
  };
}

/** The checks that need no server. `admin(args)` runs the CLI with --json; `rows(sql)` reads the local D1. */
export async function jobStepsOffline({ step, admin, rows, ok }) {
  const ids = seedJobs(rows);
  const wire = (name) => `${ids[name]}j`;
  const listed = (args) => {
    const res = admin(["jobs", "list", "--limit", "1000", ...args]);
    ok(res);
    return res.json.jobs.map((j) => j.id).filter((id) => Object.values(ids).includes(Number.parseInt(id, 10)));
  };

  await step("jobs list: newest first; --status, --type, --since and --limit narrow it", () => {
    assert.deepEqual(listed([]), [wire("deadLetter"), wire("overdue"), wire("retryable"), wire("old")]);
    assert.deepEqual(listed(["--status", "failed"]), [wire("deadLetter"), wire("retryable"), wire("old")]);
    assert.deepEqual(listed(["--type", "completion"]), [wire("retryable"), wire("old")]);
    assert.deepEqual(listed(["--status", "failed", "--type", "completion", "--since", "1d"]), [wire("retryable")]);
    assert.deepEqual(listed(["--since", "1h"]), [wire("deadLetter"), wire("overdue")]);
    const one = admin(["jobs", "list", "--limit", "1"]);
    ok(one);
    assert.equal(one.json.jobs.length, 1);
    assert.equal(one.json.more, true);
    const [job] = admin(["jobs", "list", "--type", "srt-import", "--limit", "1"]).json.jobs;
    assert.deepEqual(job, { ...job, id: wire("deadLetter"), status: "failed", attempts: 6, error: DEAD_LETTER });
  });

  await step("jobs list refuses a bad --status, --type, --since or --limit (2)", () => {
    for (const args of [
      ["--status", "done"],
      ["--type", "srt_import'"],
      ["--since", "yesterday"],
      ["--since", "1h; DROP TABLE jobs"],
      ["--limit", "0"],
      ["--limit", "abc"],
      ["extra"],
    ]) {
      assert.equal(admin(["jobs", "list", ...args]).status, 2, args.join(" "));
    }
    assert.ok(rows("SELECT count(*) AS c FROM jobs")[0].c >= 4, "the jobs table is still there");
  });

  await step("jobs show: every field, times in ISO 8601, params parsed; unknown (1) or malformed (2) ids", () => {
    const res = admin(["jobs", "show", String(ids.deadLetter)]);
    ok(res);
    const [row] = rows(`SELECT created_at, dead_lettered_at FROM jobs WHERE id = ${ids.deadLetter}`);
    assert.equal(res.json.job.id, wire("deadLetter"));
    assert.equal(res.json.job.payload_key, "imports/0/upload");
    assert.deepEqual(res.json.job.params, {});
    assert.equal(res.json.job.created_at, new Date(row.created_at * 1000).toISOString().replace(".000Z", "Z"));
    assert.equal(res.json.job.dead_lettered_at, new Date(row.dead_lettered_at * 1000).toISOString().replace(".000Z", "Z"));
    assert.equal(admin(["jobs", "show", "999999999j"]).status, 1);
    assert.equal(admin(["jobs", "show", "1 OR 1=1"]).status, 2);
    assert.equal(admin(["jobs", "show", "12v"]).status, 2);
  });

  await step("jobs dead-letters: only what the dead-letter queue failed, with its error and time; --since narrows", () => {
    const res = admin(["jobs", "dead-letters"]);
    ok(res);
    assert.deepEqual(
      res.json.jobs.map((j) => [j.id, j.error]),
      [[wire("deadLetter"), DEAD_LETTER]],
    );
    assert.ok(res.json.jobs[0].dead_lettered_at);
    assert.deepEqual(admin(["jobs", "dead-letters", "--since", "1m"]).json.jobs, []);
    assert.equal(admin(["jobs", "dead-letters", "--status", "failed"]).status, 2);
  });

  await step("jobs backlog: queued and running jobs by type and age, and the overdue ones", () => {
    const res = admin(["jobs", "backlog"]);
    ok(res);
    const listEdit = res.json.backlog.find((b) => b.type === "list-edit" && b.status === "queued");
    assert.ok(listEdit.jobs >= 1 && listEdit.oldest_age_seconds >= 1200, JSON.stringify(listEdit));
    assert.ok(res.json.overdue.jobs >= 1, JSON.stringify(res.json.overdue));
  });

  await step("jobs retry refuses a job that kept an upload, one not failed (1), an unknown (1) or malformed (2) id", () => {
    assert.equal(admin(["jobs", "retry", wire("deadLetter")]).status, 1);
    assert.equal(admin(["jobs", "retry", wire("overdue")]).status, 1);
    assert.equal(admin(["jobs", "retry", "999999999"]).status, 1);
    assert.equal(admin(["jobs", "retry", "12j'"]).status, 2);
    assert.deepEqual(rows(`SELECT status, dead_lettered_at IS NOT NULL AS dead FROM jobs WHERE id = ${ids.deadLetter}`), [
      { status: "failed", dead: 1 },
    ]);
  });
  return ids;
}

/** With `wrangler dev` running at `base`: `token` is a staff user's session, `fetch` retries while the server restarts. */
export async function jobStepsOnline({ step, admin, rows, ok, ids, base, token, fetch }) {
  await step("HTTP: GET /v4/jobs.json (staff) lists the failed jobs the CLI lists", async () => {
    const res = await fetch(`${base}/v4/jobs.json?status=failed&type=completion&per_page=100&token=${token}`);
    assert.equal(res.status, 200, await res.clone().text());
    const api = (await res.json()).response.map((j) => j.id);
    const cli = admin(["jobs", "list", "--status", "failed", "--type", "completion", "--limit", "100"]).json.jobs.map((j) => j.id);
    assert.deepEqual(api, cli);
    assert.ok(api.includes(`${ids.retryable}j`));
  });

  await step("jobs retry: queued again, refused a second time; the sweeper sends it and the consumer runs it", async () => {
    const res = admin(["jobs", "retry", `${ids.retryable}j`]);
    ok(res);
    assert.deepEqual(
      { id: res.json.job.id, status: res.json.job.status, attempts: res.json.job.attempts },
      { id: `${ids.retryable}j`, status: "queued", attempts: 0 },
    );
    assert.equal(admin(["jobs", "retry", `${ids.retryable}j`]).status, 1);
    // Crons fire every 10 s (scripts/lib.mjs): the first sends it, the consumer runs it at once.
    const deadline = Date.now() + 60_000;
    let job;
    while (Date.now() < deadline) {
      const read = await fetch(`${base}/v4/jobs/${ids.retryable}j.json?token=${token}`);
      assert.equal(read.status, 200);
      job = (await read.json()).job;
      if (job.status === "succeeded" || job.status === "failed") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    // The sweep that sent it counted as attempt 1 (a job due with no message), the delivery as attempt 2.
    assert.deepEqual(
      { status: job.status, error: job.error, attempts: job.attempts },
      { status: "succeeded", error: null, attempts: 2 },
      JSON.stringify(job),
    );
    assert.equal(rows(`SELECT status FROM jobs WHERE id = ${ids.retryable}`)[0].status, "succeeded");
  });
}
