import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { ApiError } from "../../src/lib/errors";
import { registeredRoutes } from "../../src/lib/route-registry";
import { WRITE_LIMITS, WRITE_RETRY_AFTER_SECONDS, writePolicy } from "../../src/middleware/write-limits";
import { LOGIN_POLICIES, LOGIN_RETRY_AFTER_SECONDS, limitLoginByAddress } from "../../src/services/login-limits";
import { api, createApplication, createUser, errorBody, signedInUser } from "../helpers";

/**
 * The IETF RateLimit header fields (docs/api.md, "Write limits"): every counted request answers `RateLimit-Policy`,
 * and a 429 adds `RateLimit` with nothing remaining; the binding cannot tell the remaining count otherwise, so a
 * success carries no `RateLimit`.
 */

/** `{binding: limit}` of every `[[ratelimits]]` table and inline entry in wrangler.toml, per environment section. */
function configuredLimits(): Array<{ name: string; limit: number; period: number }> {
  const found: Array<{ name: string; limit: number; period: number }> = [];
  for (const m of wranglerToml.matchAll(/name = "(\w+)",?\s*namespace_id = "\d+",?\s*simple = \{ limit = (\d+), period = (\d+) \}/g))
    found.push({ name: m[1], limit: Number(m[2]), period: Number(m[3]) });
  return found;
}

describe("RateLimit-Policy quotas", () => {
  it("are the quotas wrangler.toml configures, in every environment, with the window Retry-After states", () => {
    const limits = configuredLimits();
    const expected = [
      ...Object.values(WRITE_LIMITS).map((w) => ({ name: w.binding, limit: w.quota, period: WRITE_RETRY_AFTER_SECONDS })),
      { name: "LOGIN_BY_IP", limit: LOGIN_POLICIES.address.quota, period: LOGIN_RETRY_AFTER_SECONDS },
      { name: "LOGIN_BY_ACCOUNT", limit: LOGIN_POLICIES.account.quota, period: LOGIN_RETRY_AFTER_SECONDS },
    ];
    // The top level, staging and production each configure every binding.
    expect(limits).toHaveLength(expected.length * 3);
    for (const limit of limits) expect(expected, limit.name).toContainEqual(limit);
  });

  it("exist for the kind of every route that declares a write limit", () => {
    const kinds = registeredRoutes().flatMap((r) => (r.properties.writeLimit ? [r.properties.writeLimit] : []));
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds) expect(writePolicy(kind).quota, kind).toBeGreaterThan(0);
  });
});

/** The local limiter counts in 60 s windows aligned to the clock: a counting test starts early in one. */
async function freshWindow() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 250));
}

describe("write limits answer their policy", () => {
  it("on success (no RateLimit: the remaining count is unknown) and on 429 (r=0, t the window)", async () => {
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
      expect(ok.headers.get("ratelimit")).toBeNull();
    }
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("ratelimit-policy")).toBe(policy);
    expect(refused.headers.get("ratelimit")).toBe('"writes-threads";r=0;t=60');
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
    // Gone before the delivery is attempted: the receiver does not exist.
    expect((await api(`/v4/webhooks/${webhook.id}.json`, { method: "DELETE", app })).status).toBe(204);
  });
});

describe("login limits answer their policies", () => {
  const both = '"login-address";q=20;w=60, "login-account";q=10;w=60';

  it("on every login answer, a refused one included, v5 and the v3 password grant", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", json: { username: "nobody-here", password: "x" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit-policy")).toBe(both);
    expect(res.headers.get("ratelimit")).toBeNull();
    const client = await createApplication({ secret: "rate-limit-client-secret" });
    const v3 = await api("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
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
  });

  it("on a 429: which policy ran out, nothing remaining, reset within the window", async () => {
    const exhausted = { LOGIN_BY_IP: { limit: async () => ({ success: false }) } } as unknown as Env;
    const err = await limitLoginByAddress({ env: exhausted }, "192.0.2.1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).headers).toEqual({ "retry-after": "60", "ratelimit-policy": both, ratelimit: '"login-address";r=0;t=60' });
  });
});
