import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { redactUrl } from "../../src/lib/redact";
import { hashToken } from "../../src/lib/tokens";
import { liveSession, SESSION_IDLE_SECONDS, SESSION_LIFETIME_SECONDS, SESSION_REFRESH_SECONDS } from "../../src/services/sessions";
import { api, createUser, db, errorBody, login, rowsRead, signedInUser } from "../helpers";
import { createContainer } from "../helpers/catalogue";

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const seconds = (iso: string) => Date.parse(iso) / 1000;

type Row = { last_used_at: number; expires_at: number; created_at: number };
const row = async (token: string) =>
  env.DB.prepare("SELECT last_used_at, expires_at, created_at FROM sessions WHERE token_hash = ?")
    .bind(await hashToken(token))
    .first<Row>();

/** Simulates the passage of time: the stored times are what expiry is decided on. */
async function setTimes(token: string, times: { lastUsedAt?: number; expiresAt?: number }) {
  const res = await env.DB.prepare(
    "UPDATE sessions SET last_used_at = coalesce(?, last_used_at), expires_at = coalesce(?, expires_at) WHERE token_hash = ?",
  )
    .bind(times.lastUsedAt ?? null, times.expiresAt ?? null, await hashToken(token))
    .run();
  expect(res.meta.changes).toBe(1);
}

/** Work after the response runs in waitUntil: poll D1 until it shows, or give up after 2 s. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean) {
  for (let i = 0; i < 40; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

const idleExpired = () => now() - SESSION_IDLE_SECONDS - 1;

describe("existing sessions at migration 0016", () => {
  // First in the file: the backfill updates every row of sessions, so it must run before the other tests' rows exist.
  it("get last_used_at now and at least the idle window, or their full lifetime from creation", async () => {
    const { user } = await createUser();
    const backfill = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0016_"))!.queries.find((q) => q.includes("UPDATE"))!;
    const t = now();
    const legacy = { old: t - 2 * 365 * DAY, recent: t - 10 * DAY };
    for (const [hash, created] of Object.entries(legacy)) {
      // As the row was before the migration: the added columns hold their default, 0.
      await env.DB.prepare("INSERT INTO sessions (token_hash, user_id, created_at) VALUES (?, ?, ?)")
        .bind(`legacy-${hash}`, user.id, created)
        .run();
    }
    await env.DB.prepare(backfill).run();
    const rows = await env.DB.prepare(
      "SELECT token_hash, last_used_at, expires_at FROM sessions WHERE token_hash LIKE 'legacy-%' ORDER BY token_hash",
    ).all<{ token_hash: string; last_used_at: number; expires_at: number }>();
    const [old, recent] = rows.results;
    expect(old.last_used_at).toBeGreaterThanOrEqual(t);
    expect(old.expires_at - old.last_used_at).toBe(SESSION_IDLE_SECONDS);
    expect(recent.expires_at).toBe(legacy.recent + SESSION_LIFETIME_SECONDS);
  });
});

describe("session lifetime", () => {
  it("states the limits the README gives", () => {
    expect([SESSION_IDLE_SECONDS, SESSION_LIFETIME_SECONDS, SESSION_REFRESH_SECONDS]).toEqual([30 * DAY, 365 * DAY, DAY]);
  });

  it("shows expires_at beside the token on POST and PUT, and in GET's summary: the idle expiry of a new session", async () => {
    const u = await createUser();
    const before = now();
    const res = await api("/v5/sessions.json", { method: "POST", json: { username: u.user.username, password: u.password } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { token: string; expires_at: string; user: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["token", "expires_at", "user"]);
    expect(body.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(seconds(body.expires_at)).toBeGreaterThanOrEqual(before + SESSION_IDLE_SECONDS);
    expect(seconds(body.expires_at)).toBeLessThanOrEqual(now() + SESSION_IDLE_SECONDS);
    expect(body.user).not.toHaveProperty("expires_at");

    const stored = (await row(body.token))!;
    expect(stored.expires_at - stored.last_used_at).toBe(SESSION_LIFETIME_SECONDS);
    expect(seconds(body.expires_at)).toBe(stored.last_used_at + SESSION_IDLE_SECONDS);

    const read = await api(`/v5/sessions/${body.token}.json`);
    expect(read.status).toBe(200);
    const summary = (await read.json()) as Record<string, unknown>;
    expect(summary).toMatchObject({ id: u.id, username: u.user.username, expires_at: body.expires_at });

    const put = await api(`/v5/sessions/${body.token}.json`, { method: "PUT" });
    expect(put.status).toBe(201);
    const renewed = (await put.json()) as { token: string; expires_at: string };
    expect(seconds(renewed.expires_at)).toBeGreaterThanOrEqual(before + SESSION_IDLE_SECONDS);
  });

  it("decides expiry in the one indexed read of the session (no write while last_used_at is fresh)", async () => {
    const u = await signedInUser();
    const res = await api(`/v5/sessions/${u.token}.json`);
    const timing = res.headers.get("server-timing") ?? "";
    expect(timing).toContain('d1-queries;desc="1"');
    expect(timing).toContain('d1-rows-written;desc="0"');
    expect(rowsRead(res)).toBeLessThanOrEqual(2);
  });

  it("shows the absolute expiry when it comes first", async () => {
    const u = await signedInUser();
    const end = now() + 5 * DAY;
    await setTimes(u.token, { expiresAt: end });
    const res = await api(`/v5/sessions/${u.token}.json`);
    expect(((await res.json()) as { expires_at: string }).expires_at).toBe(new Date(end * 1000).toISOString().replace(".000", ""));
  });

  it("ends a session at the second its idle time or its lifetime runs out", async () => {
    // The clock is passed in, so the second that decides cannot be crossed by the time the test itself takes.
    const t = now();
    const [edge, idle, endsNow, endsNext] = await Promise.all([1, 2, 3, 4].map(() => signedInUser()));
    await setTimes(edge.token, { lastUsedAt: t - SESSION_IDLE_SECONDS + 1 });
    await setTimes(idle.token, { lastUsedAt: t - SESSION_IDLE_SECONDS });
    await setTimes(endsNow.token, { lastUsedAt: t, expiresAt: t });
    await setTimes(endsNext.token, { lastUsedAt: t, expiresAt: t + 1 });
    // A month unused is also more than a day: the live one is refreshed to `t`, so its idle expiry moves on.
    expect(await liveSession(db(), edge.token, undefined, t)).toMatchObject({ expiresAt: t + SESSION_IDLE_SECONDS });
    expect(await liveSession(db(), endsNext.token, undefined, t)).toMatchObject({ expiresAt: t + 1 });
    expect(await liveSession(db(), idle.token, undefined, t)).toBeUndefined();
    expect(await liveSession(db(), endsNow.token, undefined, t)).toBeUndefined();
    // Without a waitUntil the bookkeeping is awaited: both expired rows are gone, the live ones stay.
    expect([await row(idle.token), await row(endsNow.token)]).toEqual([null, null]);
    expect((await row(edge.token))?.last_used_at).toBe(t);
    expect(await row(endsNext.token)).not.toBeNull();
  });

  it("ends a session left unused for the idle time: 404 on GET, and the row is deleted", async () => {
    const u = await signedInUser();
    await setTimes(u.token, { lastUsedAt: idleExpired() });
    const res = await api(`/v5/sessions/${u.token}.json`);
    expect(res.status).toBe(404);
    expect((await errorBody(res)).vcode).toBe(11);
    expect(
      await eventually(
        () => row(u.token),
        (r) => r === null,
      ),
    ).toBeNull();
  });

  it("ends a session past its absolute lifetime however recently it was used", async () => {
    const u = await signedInUser();
    await setTimes(u.token, { lastUsedAt: now(), expiresAt: now() });
    const res = await api(`/v5/sessions/${u.token}.json`);
    expect(res.status).toBe(404);
    expect((await errorBody(res)).vcode).toBe(11);
  });
});

describe("last_used_at is refreshed at most once a day", () => {
  it("rewrites it when older than a day, and not when younger", async () => {
    const fresh = await signedInUser();
    const stale = await signedInUser();
    const recent = now() - SESSION_REFRESH_SECONDS + 3600;
    const old = now() - SESSION_REFRESH_SECONDS - 3600;
    await setTimes(fresh.token, { lastUsedAt: recent });
    await setTimes(stale.token, { lastUsedAt: old });

    // The decision shows at once in expires_at; the write happens after the response.
    const notRefreshed = await api(`/v4/users/${fresh.id}/threads.json?token=${fresh.token}`);
    expect(notRefreshed.status).toBe(200);
    const freshSummary = (await (await api(`/v5/sessions/${fresh.token}.json`)).json()) as { expires_at: string };
    expect(seconds(freshSummary.expires_at)).toBe(recent + SESSION_IDLE_SECONDS);

    const before = now();
    const refreshed = await api(`/v4/users/${stale.id}/threads.json`, { headers: { authorization: `Bearer ${stale.token}` } });
    expect(refreshed.status).toBe(200);
    const staleRow = await eventually(
      () => row(stale.token),
      (r) => r!.last_used_at !== old,
    );
    expect(staleRow!.last_used_at).toBeGreaterThanOrEqual(before);
    const staleSummary = (await (await api(`/v5/sessions/${stale.token}.json`)).json()) as { expires_at: string };
    expect(seconds(staleSummary.expires_at)).toBe(staleRow!.last_used_at + SESSION_IDLE_SECONDS);

    // By now the refresh of the other token has landed; this one was never written.
    expect((await row(fresh.token))!.last_used_at).toBe(recent);
  });

  it("keeps a session in daily use alive past the idle time", async () => {
    const u = await signedInUser();
    await setTimes(u.token, { lastUsedAt: now() - SESSION_IDLE_SECONDS + 60 });
    expect((await api(`/v5/sessions/${u.token}.json`)).status).toBe(200);
    await eventually(
      () => row(u.token),
      (r) => r!.last_used_at >= now() - 60,
    );
    // What would have been idle expiry a minute from now is a month away.
    expect((await row(u.token))!.last_used_at).toBeGreaterThan(now() - 60);
  });
});

describe("an expired token behaves like a deleted one", () => {
  let container: Awaited<ReturnType<typeof createContainer>>;
  beforeAll(async () => {
    container = await createContainer({ title: "Expiry public read", regions: ["us"] });
  });

  it("is ignored on a public read (x-token-ignored: invalid)", async () => {
    const u = await signedInUser();
    await setTimes(u.token, { lastUsedAt: idleExpired() });
    const res = await api(`/v4/containers/${container.wireId}.json?token=${u.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-token-ignored")).toBe("invalid");
  });

  it("is 401 vcode 11 on a route that needs a user", async () => {
    const u = await signedInUser();
    expect((await api(`/v4/users/${u.id}/threads.json?token=${u.token}`)).status).toBe(200);
    await setTimes(u.token, { expiresAt: now() - 1 });
    const res = await api(`/v4/users/${u.id}/threads.json?token=${u.token}`);
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(11);
  });

  it("is 404 vcode 11 on GET, PUT and DELETE, and DELETE leaves the user's live sessions alone", async () => {
    const u = await signedInUser();
    const live = await login(u.user.username, u.password);
    await setTimes(u.token, { expiresAt: now() - 1 });
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await api(`/v5/sessions/${u.token}.json`, { method });
      expect(res.status, method).toBe(404);
      expect((await errorBody(res)).vcode, method).toBe(11);
    }
    expect((await api(`/v5/sessions/${live}.json`)).status).toBe(200);
  });

  it("cannot link an external identity (POST with token=)", async () => {
    const u = await signedInUser();
    await setTimes(u.token, { lastUsedAt: idleExpired() });
    const res = await api(`/v5/sessions.json?token=${u.token}`, { method: "POST", json: { social_token: "abc" } });
    // The linking token is checked before the credential: the dead token is what is named.
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(11);
  });

  it("is deleted with the user's other expired sessions at their next login", async () => {
    const u = await signedInUser();
    await setTimes(u.token, { lastUsedAt: idleExpired() });
    await login(u.user.username, u.password);
    expect(await row(u.token)).toBeNull();
  });
});

describe("redactUrl", () => {
  const token = "AbC-dEf_0123456789abcdefghijklmnopqrstuvwxy";

  it("redacts the token of session paths, with or without the suffix", () => {
    expect(redactUrl(`/v5/sessions/${token}.json`)).toBe("/v5/sessions/[redacted].json");
    expect(redactUrl(`/v5/sessions/${token}`)).toBe("/v5/sessions/[redacted]");
    expect(redactUrl(`https://api.test/v5/sessions/${token}.json?app=100005a`)).toBe(
      "https://api.test/v5/sessions/[redacted].json?app=100005a",
    );
    expect(redactUrl("/v5/sessions.json")).toBe("/v5/sessions.json");
  });

  it("redacts credential query parameters and keeps the others", () => {
    expect(redactUrl(`/v4/users/1u/threads.json?token=${token}&page=2`)).toBe("/v4/users/1u/threads.json?token=[redacted]&page=2");
    expect(redactUrl(`/api/v3/videos.json?app=1a&access_token=x.y.z&sig=abcd&t=1`)).toBe(
      "/api/v3/videos.json?app=1a&access_token=[redacted]&sig=[redacted]&t=1",
    );
    expect(redactUrl("/v4/containers.json?mytoken=keep&TOKEN=x")).toBe("/v4/containers.json?mytoken=keep&TOKEN=[redacted]");
  });

  it("redacts URLs inside any text, such as an error message", () => {
    const text = `Error: fetch https://api.test/v5/sessions/${token}.json?token=${token} failed\n    at x (/v5/sessions/${token}.json)`;
    expect(redactUrl(text)).not.toContain(token);
  });
});
