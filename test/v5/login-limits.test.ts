import { describe, expect, it } from "vitest";
import { api, createApplication, createUser, errorBody, randomAddress } from "../helpers";
import { idToken, postSession, retailerParams, uniquePerson } from "../helpers/identity";

/**
 * src/services/login-limits.ts: 20 login attempts a minute per address, 10 per account. Windows are 60 s,
 * aligned to the clock, so a counting test starts early in a window rather than straddle two.
 */
async function freshWindow() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 250));
}

async function expectRateLimited(res: Response) {
  expect(res.status).toBe(429);
  // When the 60 s window ends.
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  expect(await errorBody(res)).toEqual({ error: "rate limited", vcode: 5429 });
}

describe("per address: 20 login attempts a minute, whatever the credential kind", () => {
  it("answers the 21st attempt from one address 429 with Retry-After; other addresses go on", async () => {
    await freshWindow();
    const address = randomAddress();
    const bodies = [
      ...Array.from({ length: 10 }, (_, i) => ({ username: `nobody_${i}_${uniquePerson().id}`, password: "x" })),
      ...Array.from({ length: 10 }, () => ({ social_token: "not-a-jwt" })),
    ];
    for (const body of bodies) expect((await postSession(body, { address })).status).toBe(401);
    await expectRateLimited(await postSession({ retailer_params: await retailerParams() }, { address }));
    await expectRateLimited(await postSession({ username: "anyone", password: "x" }, { address }));
    expect((await postSession({ username: "anyone", password: "x" })).status).toBe(401);
  });
});

describe("per account and client: 10 password logins a minute, counted after the password check", () => {
  it("locks a username for the client that failed 10 times, even with the right password; other clients go on", async () => {
    await freshWindow();
    const victim = await createUser();
    const address = randomAddress();
    for (let i = 0; i < 10; i++) {
      expect((await postSession({ username: victim.user.username, password: "guess" }, { address })).status).toBe(401);
    }
    await expectRateLimited(await postSession({ username: victim.user.username, password: victim.password }, { address }));
    // The owner, from another address, is not locked out by someone else's failures.
    expect((await postSession({ username: victim.user.username, password: victim.password })).status).toBe(201);
    const other = await createUser();
    expect((await postSession({ username: other.user.username, password: other.password }, { address })).status).toBe(201);
  });

  it("treats an unknown username the same way, so the limit reveals no account", async () => {
    await freshWindow();
    const ghost = `ghost_${uniquePerson().id}`;
    const address = randomAddress();
    for (let i = 0; i < 10; i++) expect((await postSession({ username: ghost, password: "guess" }, { address })).status).toBe(401);
    await expectRateLimited(await postSession({ username: ghost, password: "guess" }, { address }));
  });

  it("counts an IPv6 client by its /64, so rotating addresses inside it buys nothing", async () => {
    await freshWindow();
    const victim = await createUser();
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    for (let i = 0; i < 10; i++) {
      const address = `${prefix}::${(i + 1).toString(16)}`;
      expect((await postSession({ username: victim.user.username, password: "guess" }, { address })).status).toBe(401);
    }
    await expectRateLimited(
      await postSession({ username: victim.user.username, password: victim.password }, { address: `${prefix}:0:0:0:ff` }),
    );
  });
});

describe("per verified identity: 10 external logins a minute, from any number of addresses", () => {
  it("counts a verified external identity as the account", async () => {
    await freshWindow();
    const p = uniquePerson();
    for (let i = 0; i < 10; i++) {
      expect((await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) })).status).toBe(201);
    }
    await expectRateLimited(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    expect((await postSession({ social_token: await idToken("social") })).status).toBe(201);
  });
});

describe("v3 password grant", () => {
  it("is limited per account and client too, with the OAuth error body and Retry-After", async () => {
    await freshWindow();
    const client = await createApplication({ secret: "limits-secret" });
    const user = await createUser();
    const address = randomAddress();
    const grant = (password: string) =>
      api("/oauth/token", {
        method: "POST",
        headers: { "cf-connecting-ip": address },
        json: { grant_type: "password", client_id: client.wireId, client_secret: "limits-secret", username: user.user.username, password },
      });
    for (let i = 0; i < 10; i++) expect((await grant("guess")).status).toBe(400);
    const res = await grant(user.password);
    expect(res.status).toBe(429);
    // When the 60 s window ends.
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await res.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: "rate limited",
      request_id: expect.any(String),
    });
  });

  it("is limited per address", async () => {
    await freshWindow();
    const client = await createApplication({ secret: "limits-secret-2" });
    const address = randomAddress();
    const grant = (username: string) =>
      api("/oauth/token", {
        method: "POST",
        headers: { "cf-connecting-ip": address },
        json: { grant_type: "password", client_id: client.wireId, client_secret: "limits-secret-2", username, password: "x" },
      });
    for (let i = 0; i < 20; i++) expect((await grant(`nobody_${i}_${uniquePerson().id}`)).status).toBe(400);
    expect((await grant("one-more")).status).toBe(429);
  });
});
