import { describe, expect, it } from "vitest";
import { clientOf } from "../../src/services/login-limits";
import { api, createApplication, createUser, randomAddress } from "../helpers";
import { postSession } from "../helpers/identity";

/**
 * Nobody can lock a known username out by failing to log in as it: the per-account limit counts per account and
 * client, after the password check, so someone else's failures never refuse the owner's login from their own address
 * (docs/api.md, "Login rate limits"). The guessing client itself is refused even with the right password.
 */
async function freshWindow() {
  // The local limiter counts in 60 s windows aligned to the clock: start early in one rather than straddle two.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 250));
}

describe("failed logins from other clients do not lock the owner out", () => {
  it("30 wrong passwords for a staff username from three addresses: each is refused, the owner still logs in", async () => {
    await freshWindow();
    const staff = await createUser({ staff: true });
    const attackers = [randomAddress(), randomAddress(), randomAddress()];
    for (const address of attackers) {
      for (let i = 0; i < 10; i++) {
        expect((await postSession({ username: staff.user.username, password: `guess-${i}` }, { address })).status).toBe(401);
      }
      // Past its limit the attacking client learns nothing more, not even from the right password.
      expect((await postSession({ username: staff.user.username, password: staff.password }, { address })).status).toBe(429);
    }
    const owner = await postSession({ username: staff.user.username, password: staff.password }, { address: randomAddress() });
    expect(owner.status).toBe(201);
  });

  it("the same through the v3 password grant", async () => {
    await freshWindow();
    const client = await createApplication({ secret: "lockout-secret" });
    const victim = await createUser();
    const grant = (password: string, address: string) =>
      api("/oauth/token", {
        method: "POST",
        headers: { "cf-connecting-ip": address },
        json: {
          grant_type: "password",
          client_id: client.wireId,
          client_secret: "lockout-secret",
          username: victim.user.username,
          password,
        },
      });
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
