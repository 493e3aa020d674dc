import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { derivedHmacKey, hmacHex } from "../../src/lib/derived-keys";
import { sha256Hex } from "../../src/lib/encoding";
import { clientOf } from "../../src/services/login-limits";
import { api, createApplication, createUser, randomAddress } from "../helpers";
import { postSession } from "../helpers/identity";

/**
 * Nobody can lock a known username out by failing to log in as it: the per-account limit counts per account and
 * client, after the password check, so someone else's failures never refuse the owner's login from their own address
 * (docs/api.md, "Login rate limits"). The guessing client itself is refused even with the right password. A guess
 * spread over many addresses meets the per-account ceiling, which slows only addresses new to the account.
 */
async function freshWindow() {
  // The local limiter counts in 60 s windows aligned to the clock: start early in one rather than straddle two.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 250));
}

/** A user and their v3 password grant through a new client: `grant` logs in as them with `password` from `address`. */
async function passwordGrant(secret: string) {
  const client = await createApplication({ secret });
  const victim = await createUser();
  const grant = (password: string, address = randomAddress()) =>
    api("/oauth/token", {
      method: "POST",
      headers: { "cf-connecting-ip": address },
      json: { grant_type: "password", client_id: client.wireId, client_secret: secret, username: victim.user.username, password },
    });
  return { victim, grant };
}

describe("failed logins from other clients do not lock the owner out", () => {
  it("a guess spread over addresses: each address stops at 10, the account at 20 new-address attempts; the owner still logs in", async () => {
    await freshWindow();
    const staff = await createUser({ staff: true });
    // The owner's address, known to the account since this login (which counted once against the ceiling).
    const home = randomAddress();
    expect((await postSession({ username: staff.user.username, password: staff.password }, { address: home })).status).toBe(201);
    const first = randomAddress();
    for (let i = 0; i < 10; i++) {
      expect((await postSession({ username: staff.user.username, password: `guess-${i}` }, { address: first })).status).toBe(401);
    }
    // Past its limit the attacking client learns nothing more, not even from the right password.
    expect((await postSession({ username: staff.user.username, password: staff.password }, { address: first })).status).toBe(429);
    // One guess from each of nine more addresses reaches the ceiling (1 + 10 + 9 = 20 attempts from addresses new to
    // the account this minute); then every new address is slowed to the window's end, whatever it sends.
    for (let i = 0; i < 9; i++) {
      expect((await postSession({ username: staff.user.username, password: `spread-${i}` })).status, `address ${i}`).toBe(401);
    }
    const slowed = await postSession({ username: staff.user.username, password: "spread-last" });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(slowed.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(slowed.headers.get("ratelimit")).toMatch(/^"login-account-ceiling";r=0;t=\d+$/);
    expect((await postSession({ username: staff.user.username, password: staff.password })).status, "a new address").toBe(429);
    // The owner, from the address that logged in before, is not slowed by anyone's guesses (a typo is a plain 401).
    expect((await postSession({ username: staff.user.username, password: "typo" }, { address: home })).status).toBe(401);
    const owner = await postSession({ username: staff.user.username, password: staff.password }, { address: home });
    expect(owner.status).toBe(201);
    // Another account is untouched.
    const other = await createUser();
    expect((await postSession({ username: other.user.username, password: other.password })).status).toBe(201);
  });

  it("the ceiling through the v3 password grant too, shared with v5 logins", async () => {
    await freshWindow();
    const { victim, grant } = await passwordGrant("ceiling-secret");
    const home = randomAddress();
    expect((await grant(victim.password, home)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await grant(`v3-${i}`)).status, `v3 address ${i}`).toBe(400);
    for (let i = 0; i < 9; i++) {
      expect((await postSession({ username: victim.user.username, password: `v5-${i}` })).status, `v5 address ${i}`).toBe(401);
    }
    const slowed = await grant(victim.password);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await slowed.json()) as { error: string }).error).toBe("temporarily_unavailable");
    expect((await grant(victim.password, home)).status).toBe(200);
  });

  it("the same through the v3 password grant", async () => {
    await freshWindow();
    const { victim, grant } = await passwordGrant("lockout-secret");
    const attacker = randomAddress();
    for (let i = 0; i < 10; i++) expect((await grant("guess", attacker)).status).toBe(400);
    expect((await grant(victim.password, attacker)).status).toBe(429);
    expect((await grant(victim.password, randomAddress())).status).toBe(200);
  });
});

describe("the client a login limit counts", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002::9", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["local", "local"],
  ])("%s → %s", (address, client) => {
    expect(clientOf(address)).toBe(client);
  });
});

describe("the tag a known client is kept under", () => {
  it("is keyed by the server's secret: neither the address nor its plain hash, and another account's differs", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const address = randomAddress();
    for (const u of [a, b]) expect((await postSession({ username: u.user.username, password: u.password }, { address })).status).toBe(201);
    const tags = await env.DB.prepare("SELECT user_id, client FROM login_clients WHERE user_id IN (?, ?) ORDER BY user_id")
      .bind(a.user.id, b.user.id)
      .all<{ user_id: number; client: string }>();
    expect(tags.results).toHaveLength(2);
    const [ta, tb] = tags.results.map((r) => r.client);
    expect(ta).toMatch(/^[0-9a-f]{32}$/);
    expect(ta).not.toBe(tb);
    const name = a.user.username.toLowerCase();
    const client = clientOf(address);
    expect(ta).not.toContain(address);
    expect(ta).not.toBe((await sha256Hex(`login-client:${name}\n${client}`)).slice(0, 32));
    expect(ta).toBe(await hmacHex(await derivedHmacKey(env.V3_TOKEN_SECRET!, "login-client v1"), `${name}\n${client}`, 32));
  });
});
