// npm run test:admin: the admin CLI (scripts/admin.mjs) against a fresh local D1 (.admin-test/state, demo data
// seeded), each result checked in the rows, then over HTTP against a `wrangler dev` on that state: the staff user
// logs in with the password the CLI hashed, the new application's rotated secret signs an official-only request, the
// old one too until app:end-overlap (or its expiry) and not after, a container shows its new manager, and a job
// retried with `jobs retry` is run by the sweeper and the queue consumer (scripts/test-admin-jobs.mjs), and a container
// moved with `shards move` reads the same from its new shard (scripts/test-admin-shards.mjs).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { checklist, ensureDevVars, migrateLocal, ROOT, seedLocal, signedHeaders, startDev } from "./lib.mjs";
import { fileRows, localD1File } from "./local-d1-file.mjs";
import { jobStepsOffline, jobStepsOnline } from "./test-admin-jobs.mjs";
import { shardStepsOffline, shardStepsOnline } from "./test-admin-shards.mjs";

const persistTo = join(ROOT, ".admin-test", "state");
const PORT = Number(process.env.ADMIN_TEST_PORT ?? 8794);
rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
await migrateLocal(persistTo);
await seedLocal(persistTo);

/** The CLI as an operator runs it, with --json so its answer can be read (`text`: without, as a person reads it). */
function admin(args, input, { text = false } = {}) {
  const res = spawnSync(
    process.execPath,
    [join(ROOT, "scripts", "admin.mjs"), ...args, "--persist-to", persistTo, ...(text ? [] : ["--json"])],
    {
      cwd: ROOT,
      input: input ?? "",
      encoding: "utf8",
    },
  );
  let json;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    // a refusal prints nothing on stdout
  }
  return { status: res.status, json, stdout: res.stdout, stderr: res.stderr };
}

/** The checks' own reads and set-ups of the catalogue, from its file (scripts/local-d1-file.mjs). */
const dbFile = localD1File(persistTo);
const rows = (sql) => fileRows(dbFile, sql);

const { step, finish } = checklist();
const ok = (res) => assert.equal(res.status, 0, `exit ${res.status}: ${res.stderr}`);
const n = (wireId) => Number.parseInt(wireId, 10);

const HOSTILE_NAME = 'O\'Brien "Ops"; DROP TABLE users; --';
const STDIN_PASSWORD = "correct horse battery staple";
const state = {};

await step("app:create --official --unhosted: the row, with the secret printed once", () => {
  const res = admin(["app:create", HOSTILE_NAME, "--official", "--unhosted"]);
  ok(res);
  const { application, secret } = res.json;
  assert.match(application.id, /^[1-9]\d*a$/);
  assert.match(secret, /^[0-9a-f]{64}$/);
  const [row] = rows(`SELECT name, official, unhosted_access, secret FROM applications WHERE id = ${n(application.id)}`);
  assert.deepEqual(row, { name: HOSTILE_NAME, official: 1, unhosted_access: 1, secret });
  assert.ok(rows("SELECT count(*) AS c FROM users")[0].c > 0, "the users table is still there");
  state.official = { id: application.id, secret };
});

await step("app:create: a non-official application by default", () => {
  const res = admin(["app:create", "Partner Two"]);
  ok(res);
  const [row] = rows(`SELECT official, unhosted_access FROM applications WHERE id = ${n(res.json.application.id)}`);
  assert.deepEqual(row, { official: 0, unhosted_access: 0 });
  state.partner = { id: res.json.application.id, secret: res.json.secret };
});

await step("app:list: every application, never a secret", () => {
  const res = admin(["app:list"]);
  ok(res);
  const ids = res.json.applications.map((a) => a.id);
  assert.ok(ids.includes("100000a") && ids.includes(state.official.id) && ids.includes(state.partner.id));
  assert.equal(res.json.applications.find((a) => a.id === state.official.id).name, HOSTILE_NAME);
  assert.ok(!res.stdout.includes(state.official.secret) && !res.stdout.includes("official-dev-secret"));
  assert.ok(!/secret/.test(res.stdout));
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 60 * 60;
const rotation = (wireId) =>
  rows(`SELECT secret, previous_secret, previous_secret_expires_at AS until FROM applications WHERE id = ${n(wireId)}`)[0];

await step("app:rotate-secret (bare integer id): a new secret; the old one signs for the default 7 days", () => {
  const before = nowSeconds();
  const res = admin(["app:rotate-secret", String(n(state.official.id))]);
  ok(res);
  assert.equal(res.json.application.id, state.official.id);
  assert.notEqual(res.json.secret, state.official.secret);
  const row = rotation(state.official.id);
  assert.equal(row.secret, res.json.secret);
  assert.equal(row.previous_secret, state.official.secret);
  assert.ok(row.until >= before + 7 * DAY && row.until <= nowSeconds() + 7 * DAY, `expiry ${row.until}`);
  assert.equal(res.json.application.overlap_until, new Date(row.until * 1000).toISOString());
  state.oldSecret = state.official.secret;
  state.official.secret = res.json.secret;
});

await step("app:list: the overlap's end, still never a secret", () => {
  const res = admin(["app:list"]);
  ok(res);
  const listed = res.json.applications.find((a) => a.id === state.official.id);
  assert.equal(listed.overlap_until, new Date(rotation(state.official.id).until * 1000).toISOString());
  assert.equal(res.json.applications.find((a) => a.id === state.partner.id).overlap_until, null);
  assert.ok(!res.stdout.includes(state.oldSecret) && !res.stdout.includes(state.official.secret) && !/secret/.test(res.stdout));
});

await step("app:rotate-secret --overlap 12h, then --overlap 0: the previous secret kept 12 hours, then none", () => {
  const before = nowSeconds();
  const res = admin(["app:rotate-secret", state.partner.id, "--overlap", "12h"]);
  ok(res);
  const row = rotation(state.partner.id);
  assert.equal(row.previous_secret, state.partner.secret);
  assert.ok(row.until >= before + 12 * 60 * 60 && row.until <= nowSeconds() + 12 * 60 * 60, `expiry ${row.until}`);
  const none = admin(["app:rotate-secret", state.partner.id, "--overlap=0"]);
  ok(none);
  assert.equal(none.json.application.overlap_until, null);
  assert.deepEqual(rotation(state.partner.id), { secret: none.json.secret, previous_secret: null, until: null });
  state.partner.secret = none.json.secret;
});

await step("app:rotate-secret refuses an unknown (1) or malformed (2) id, and a bad --overlap (2), changing nothing", () => {
  assert.equal(admin(["app:rotate-secret", "999999a"]).status, 1);
  assert.equal(admin(["app:rotate-secret", "12x"]).status, 2);
  assert.equal(admin(["app:rotate-secret", "1 OR 1=1"]).status, 2);
  const before = rotation(state.official.id);
  for (const overlap of ["7x", "-1d", "1.5d", "91d", "12", "", "7d; DROP TABLE applications"]) {
    assert.equal(admin(["app:rotate-secret", state.official.id, `--overlap=${overlap}`]).status, 2, overlap);
  }
  assert.equal(admin(["app:end-overlap", state.official.id, "--overlap=1d"]).status, 2);
  assert.deepEqual(rotation(state.official.id), before);
});

await step("app:end-overlap: nothing to end on an application without one; unknown (1) or malformed (2) id", () => {
  const res = admin(["app:end-overlap", state.partner.id]);
  ok(res);
  assert.equal(res.json.ended, false);
  assert.equal(admin(["app:end-overlap", "999999a"]).status, 1);
  assert.equal(admin(["app:end-overlap", "1a'--"]).status, 2);
});

await step("user:create-staff: a generated password, printed once, hashed as the app hashes", () => {
  const res = admin(["user:create-staff", "ops_staff", "Ops.Staff@Example.com", "--name", "Ops Staff"]);
  ok(res);
  assert.match(res.json.user.id, /^[1-9]\d*u$/);
  assert.equal(typeof res.json.password, "string");
  const [row] = rows(`SELECT username, email, name, staff, email_verified, password_hash FROM users WHERE id = ${n(res.json.user.id)}`);
  assert.equal(row.username, "ops_staff");
  assert.equal(row.email_verified, 0, "an email an operator typed is unverified");
  assert.equal(row.email, "ops.staff@example.com");
  assert.equal(row.name, "Ops Staff");
  assert.equal(row.staff, 1);
  assert.match(row.password_hash, /^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
  assert.ok(!row.password_hash.includes(res.json.password));
  state.staff = { ...res.json.user, password: res.json.password };
});

await step("user:create-staff --password-stdin: the password read from stdin, not printed", () => {
  const res = admin(["user:create-staff", "ops_stdin", "ops.stdin@example.com", "--password-stdin"], `${STDIN_PASSWORD}\n`);
  ok(res);
  assert.equal(res.json.password, undefined);
  assert.ok(!res.stdout.includes(STDIN_PASSWORD));
  assert.equal(rows("SELECT staff FROM users WHERE username = 'ops_stdin'")[0].staff, 1);
});

await step("user:create-staff --email-verified: the operator vouches for the address", () => {
  const res = admin(["user:create-staff", "ops_verified", "ops.verified@example.com", "--email-verified"]);
  ok(res);
  assert.equal(res.json.user.email_verified, true);
  assert.equal(rows("SELECT email_verified FROM users WHERE username = 'ops_verified'")[0].email_verified, 1);
});

await step("user:create-staff refuses bad usernames and emails, taken names, short passwords", () => {
  for (const [username, email] of [
    ["Ops Staff", "x1@example.com"],
    ["ab", "x2@example.com"],
    ["o'neil", "x3@example.com"],
    ["ops_fine", "not-an-email"],
    ["ops_fine", "x4@example.com' OR '1'='1"],
  ]) {
    assert.equal(admin(["user:create-staff", username, email]).status, 2, `${username} ${email}`);
  }
  assert.equal(admin(["user:create-staff", "ops_staff", "other@example.com"]).status, 1, "username taken");
  assert.equal(admin(["user:create-staff", "ops_other", "OPS.STAFF@example.com"]).status, 1, "email taken");
  assert.equal(admin(["user:create-staff", "ops_short", "short@example.com", "--password-stdin"], "short\n").status, 2);
  assert.equal(rows("SELECT count(*) AS c FROM users WHERE username IN ('ops_fine', 'ops_other', 'ops_short')")[0].c, 0);
});

// The jobs commands (scripts/test-admin-jobs.mjs): their jobs are made here, one is retried once the server runs.
const jobIds = await jobStepsOffline({ step, admin, rows, ok });
// The shards commands (scripts/test-admin-shards.mjs): a move is run by the server's sweeper.
await shardStepsOffline({ step, admin, rows, ok });

const [{ id: demoContainer }] = rows(
  `SELECT id FROM containers WHERE state = 'normal'
   AND id NOT IN (SELECT container_id FROM container_managers) ORDER BY id LIMIT 1`,
);
const [{ id: alice }] = rows("SELECT id FROM users WHERE username = 'alice'");

/**
 * fetch, tried again while nothing listens: wrangler dev restarts its Worker when a source file changes, which in
 * a shared working tree can happen mid-run. HTTP answers, errors included, are returned as they are.
 */
async function fetch(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await globalThis.fetch(url, init);
    } catch (err) {
      if (attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

const server = await startDev({ port: PORT, persistTo, stdio: "ignore" });
try {
  const base = server.base;
  const login = (username, password) =>
    fetch(`${base}/v5/sessions.json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
  /** Alice's subscriptions: official applications only (signed), and only her or staff. */
  const aliceSubscriptions = (app, secret, token) => {
    const url = `${base}/v4/users/${alice}u/subscriptions.json?app=${app}&token=${token}`;
    return fetch(url, { headers: signedHeaders(url, null, secret) });
  };

  await step("HTTP: the staff user logs in with the generated password", async () => {
    const res = await login("ops_staff", state.staff.password);
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.equal(body.user.id, state.staff.id);
    state.token = body.token;
    assert.equal((await login("ops_staff", `${state.staff.password}x`)).status, 401);
  });

  await step("HTTP: the --password-stdin user logs in with that password", async () => {
    assert.equal((await login("ops_stdin", STDIN_PASSWORD)).status, 201);
  });

  await step("HTTP: the rotated secret signs for the new official app, and staff may read alice's data", async () => {
    const res = await aliceSubscriptions(state.official.id, state.official.secret, state.token);
    assert.equal(res.status, 200, await res.clone().text());
    assert.ok(Array.isArray((await res.json()).response));
  });

  await step("HTTP: during the overlap the secret before the rotation still signs", async () => {
    const res = await aliceSubscriptions(state.official.id, state.oldSecret, state.token);
    assert.equal(res.status, 200, await res.clone().text());
  });

  await step("HTTP: after app:end-overlap the old secret no longer signs; the new one does", async () => {
    const res = admin(["app:end-overlap", state.official.id]);
    ok(res);
    assert.deepEqual(res.json, { application: { ...res.json.application, overlap_until: null }, ended: true });
    assert.deepEqual(rotation(state.official.id), { secret: state.official.secret, previous_secret: null, until: null });
    assert.equal((await aliceSubscriptions(state.official.id, state.oldSecret, state.token)).status, 401);
    assert.equal((await aliceSubscriptions(state.official.id, state.official.secret, state.token)).status, 200);
  });

  await step("HTTP: a rotation's old secret stops signing when its overlap expires", async () => {
    const res = admin(["app:rotate-secret", state.official.id, "--overlap", "1d"]);
    ok(res);
    const [previous, current] = [state.official.secret, res.json.secret];
    state.official.secret = current;
    assert.equal((await aliceSubscriptions(state.official.id, previous, state.token)).status, 200);
    rows(`UPDATE applications SET previous_secret_expires_at = unixepoch() - 1 WHERE id = ${n(state.official.id)}`);
    assert.equal((await aliceSubscriptions(state.official.id, previous, state.token)).status, 401);
    assert.equal((await aliceSubscriptions(state.official.id, current, state.token)).status, 200);
    const listed = admin(["app:list"]).json.applications.find((a) => a.id === state.official.id);
    assert.equal(listed.overlap_until, null, "an expired overlap is not listed");
  });

  await step("HTTP: the non-official application is refused on official-only routes", async () => {
    const res = await aliceSubscriptions(state.partner.id, state.partner.secret, state.token);
    assert.equal(res.status, 403);
  });

  await step("manager:add <username> <n>c: the row, and the container lists its new manager", async () => {
    const res = admin(["manager:add", "ops_staff", `${demoContainer}c`]);
    ok(res);
    assert.deepEqual(res.json, {
      manager: { user: state.staff.id, username: "ops_staff", container: `${demoContainer}c` },
      added: true,
    });
    const where = `container_id = ${demoContainer} AND user_id = ${n(state.staff.id)}`;
    assert.equal(rows(`SELECT count(*) AS c FROM container_managers WHERE ${where}`)[0].c, 1);
    const page = await fetch(`${base}/v4/containers/${demoContainer}c.json`);
    assert.equal(page.status, 200);
    assert.deepEqual(
      (await page.json()).managers.map((m) => m.id),
      [state.staff.id],
    );
  });

  await step("manager:add again (<n>u <n>): nothing changes; unknown user or container is refused", () => {
    const again = admin(["manager:add", state.staff.id, String(demoContainer)]);
    ok(again);
    assert.equal(again.json.added, false);
    assert.equal(rows(`SELECT count(*) AS c FROM container_managers WHERE container_id = ${demoContainer}`)[0].c, 1);
    assert.equal(admin(["manager:add", "nobody_here", `${demoContainer}c`]).status, 1);
    assert.equal(admin(["manager:add", "x' OR '1'='1", `${demoContainer}c`]).status, 1);
    assert.equal(admin(["manager:add", "ops_staff", "999999999c"]).status, 1);
    assert.equal(admin(["manager:add", "ops_staff", "1v"]).status, 2);
  });

  await jobStepsOnline({ step, admin, rows, ok, ids: jobIds, base, token: state.token, fetch });
  await shardStepsOnline({ step, admin, rows, ok, base, token: state.token, fetch });
} finally {
  server.stop();
}

await step("usage errors: unknown command or flag, --remote without --env, an environment not in the config", () => {
  assert.equal(admin(["app:delete", "1a"]).status, 2);
  assert.equal(admin(["app:list", "--env", "no_such_environment"]).status, 2);
  assert.equal(admin(["app:list", "--official"]).status, 2);
  assert.equal(admin(["app:list", "--remote"]).status, 2);
});

finish("admin");
