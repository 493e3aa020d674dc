import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { ApiError } from "../../src/lib/errors";
import { registeredRoutes } from "../../src/lib/route-registry";
import { WRITE_WINDOW_SECONDS, writePolicy } from "../../src/middleware/write-limits";
import { takeQuota } from "../../src/services/rate-limits";
import { api, createApplication, createUser, errorBody, signedInUser } from "../helpers";

/**
 * The IETF RateLimit header fields (docs/api.md, "Write limits"; docs/decisions.md, "Rate limits"): every counted
 * request answers `RateLimit-Policy` and, with the state the RateLimitCounter Durable Object counted, `RateLimit`,
 * on success and on a 429.
 */

/** `"name";r=<remaining>;t=<reset>` items of a RateLimit field. */
function states(field: string | null) {
  return [...(field ?? "").matchAll(/"([\w-]+)";r=(\d+);t=(\d+)/g)].map((m) => ({ name: m[1], r: Number(m[2]), t: Number(m[3]) }));
}

describe("rate-limit policies", () => {
  it("are counted by the RateLimitCounter Durable Object, bound in every environment", () => {
    const bindings = [
      ...wranglerToml.matchAll(
        /name = "RATE_LIMITS", class_name = "RateLimitCounter"|name = "RATE_LIMITS"\nclass_name = "RateLimitCounter"/g,
      ),
    ];
    // The top level, staging and production.
    expect(bindings).toHaveLength(3);
    expect(wranglerToml).toMatch(/new_sqlite_classes = \["RateLimitCounter"\]/);
    expect(wranglerToml).not.toMatch(/ratelimits/);
  });

  it("exist for the kind of every route that declares a write limit", () => {
    const kinds = registeredRoutes().flatMap((r) => (r.properties.writeLimit ? [r.properties.writeLimit] : []));
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds) expect(writePolicy(kind).quota, kind).toBeGreaterThan(0);
  });

  it("count exactly: each success says what remains, the first refusal says when the window ends, and nothing is counted for it", async () => {
    const policy = { name: "test-exact", quota: 3, window: 60 };
    const key = `k${crypto.randomUUID()}`;
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) seen.push((await takeQuota({ env, report: (s) => seen.push(-1 - s.remaining) }, policy, key)).remaining);
    // Reported, then returned: -3, 2, -2, 1, -1, 0.
    expect(seen).toEqual([-3, 2, -2, 1, -1, 0]);
    const err = await takeQuota({ env }, policy, key).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const headers = (err as ApiError).headers ?? {};
    const reset = Number(headers["retry-after"]);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expect(headers).toEqual({
      "retry-after": String(reset),
      "ratelimit-policy": '"test-exact";q=3;w=60',
      ratelimit: `"test-exact";r=0;t=${reset}`,
    });
    // Another key is its own count.
    expect((await takeQuota({ env }, policy, `${key}-other`)).remaining).toBe(2);
  });
});

/** Windows are 60 s aligned to the clock: a counting test starts early in one. */
async function freshWindow() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 250));
}

describe("write limits answer their policy", () => {
  it("on success (what remains) and on 429 (r=0, t and Retry-After when the window ends)", async () => {
    await freshWindow();
    const sender = await signedInUser();
    const to = await createUser();
    const start = () =>
      api(`/v4/users/${sender.id}/threads.json?token=${sender.token}`, { method: "POST", json: { to: to.id, content: "hi" } });
    const policy = '"writes-threads";q=10;w=60';
    for (let i = 0; i < 10; i++) {
      const ok = await start();
      expect(ok.status).toBe(201);
      expect(ok.headers.get("ratelimit-policy")).toBe(policy);
      const [state] = states(ok.headers.get("ratelimit"));
      expect(state).toMatchObject({ name: "writes-threads", r: 9 - i });
      expect(state.t).toBeGreaterThan(0);
      expect(state.t).toBeLessThanOrEqual(WRITE_WINDOW_SECONDS);
    }
    const refused = await start();
    expect(refused.status).toBe(429);
    const reset = Number(refused.headers.get("retry-after"));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-policy")).toBe(policy);
    expect(refused.headers.get("ratelimit")).toBe(`"writes-threads";r=0;t=${reset}`);
    expect(await errorBody(refused)).toEqual({ error: "rate limited", vcode: 5429 });
    // A refusal by the handler after counting names the policy too; an uncounted request (no user) does not.
    const bad = await api(`/v4/users/${to.id}/threads.json?token=${sender.token}`, { method: "POST", json: { to: to.id, content: "hi" } });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.headers.get("ratelimit-policy")).toBe(policy);
    const anonymous = await api(`/v4/users/${sender.id}/threads.json`, { method: "POST", json: { to: to.id, content: "hi" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("ratelimit-policy")).toBeNull();
    // Browser scripts may read them.
    const exposed = (await api("/v4/containers.json", { headers: { origin: "https://www.example.com" } })).headers.get(
      "access-control-expose-headers",
    );
    expect(exposed).toContain("ratelimit-policy");
    expect(exposed).toMatch(/(^|, )ratelimit(,|$)/);
  });

  it("per signed application for webhook pings", async () => {
    const app = (await createApplication()).wireId;
    const created = await api("/v4/webhooks.json", { method: "POST", app, json: { url: "https://receiver.example.com/limits" } });
    const { webhook } = (await created.json()) as { webhook: { id: string } };
    const ping = await api(`/v4/webhooks/${webhook.id}/ping.json`, { method: "POST", app });
    expect(ping.status).toBe(202);
    expect(ping.headers.get("ratelimit-policy")).toBe('"writes-webhooks";q=30;w=60');
    expect(states(ping.headers.get("ratelimit"))).toMatchObject([{ name: "writes-webhooks", r: 29 }]);
    // Gone before the delivery is attempted: the receiver does not exist.
    expect((await api(`/v4/webhooks/${webhook.id}.json`, { method: "DELETE", app })).status).toBe(204);
  });
});

describe("login limits answer their policies", () => {
  const both = '"login-address";q=20;w=60, "login-account";q=10;w=60, "login-account-ceiling";q=20;w=60';

  it("on every login answer, a refused one included, v5 and the v3 password grant, with each counted policy's state", async () => {
    await freshWindow();
    const address = "192.0.2.77";
    const res = await api("/v5/sessions.json", {
      method: "POST",
      headers: { "cf-connecting-ip": address },
      json: { username: `nobody-${crypto.randomUUID()}`, password: "x" },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit-policy")).toBe(both);
    // Counted against the address first, then (after the password check) the username for this client, then the
    // username across clients (this client is new to it).
    expect(states(res.headers.get("ratelimit"))).toMatchObject([
      { name: "login-address", r: 19 },
      { name: "login-account", r: 9 },
      { name: "login-account-ceiling", r: 19 },
    ]);
    const someone = await createUser();
    const ok = await api("/v5/sessions.json", {
      method: "POST",
      headers: { "cf-connecting-ip": address },
      json: { username: someone.user.username, password: someone.password },
    });
    expect(ok.status).toBe(201);
    expect(states(ok.headers.get("ratelimit"))).toMatchObject([
      { name: "login-address", r: 18 },
      { name: "login-account", r: 9 },
      { name: "login-account-ceiling", r: 19 },
    ]);
    // A client that logged in to the account before is not counted against the ceiling.
    const again = await api("/v5/sessions.json", {
      method: "POST",
      headers: { "cf-connecting-ip": address },
      json: { username: someone.user.username, password: someone.password },
    });
    expect(states(again.headers.get("ratelimit"))).toMatchObject([
      { name: "login-address", r: 17 },
      { name: "login-account", r: 8 },
    ]);
    const client = await createApplication({ secret: "rate-limit-client-secret" });
    const v3 = await api("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": address },
      body: new URLSearchParams({
        grant_type: "password",
        client_id: client.wireId,
        client_secret: "rate-limit-client-secret",
        username: "nobody-here",
        password: "x",
      }).toString(),
    });
    expect(v3.status).toBe(400);
    expect(v3.headers.get("ratelimit-policy")).toBe(both);
    expect(states(v3.headers.get("ratelimit"))[0]).toMatchObject({ name: "login-address", r: 16 });
  });

  it("on a 429: which policy ran out, nothing remaining, reset when its window ends", async () => {
    await freshWindow();
    const address = "192.0.2.78";
    let last: Response | undefined;
    for (let i = 0; i < 21; i++) {
      last = await api("/v5/sessions.json", {
        method: "POST",
        headers: { "cf-connecting-ip": address },
        json: { social_token: "not-a-jwt" },
      });
    }
    expect(last!.status).toBe(429);
    const reset = Number(last!.headers.get("retry-after"));
    expect(reset).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-policy")).toBe(both);
    expect(last!.headers.get("ratelimit")).toBe(`"login-address";r=0;t=${reset}`);
  });
});
