import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/db/schema";
import { PBKDF2_ITERATIONS } from "../../src/lib/password";
import { createUser, db, errorBody } from "../helpers";
import { TEST_IDP, TEST_SOCIAL, idToken, postSession, sessionOf, strangerKey, uniquePerson, userRow } from "../helpers/identity";

/** A password user whose email is the given one, verified unless said otherwise. */
async function passwordUserWithEmail(email: string, emailVerified = true) {
  const u = await createUser({ emailVerified });
  await db().update(users).set({ email }).where(eq(users.id, u.user.id));
  return u;
}

describe("social_token: creation and linking (interface, Sessions v5)", () => {
  it("an unknown person with an unused email gets a new account with a random password, and is logged in", async () => {
    const p = uniquePerson("Zoe.");
    const res = await postSession({
      social_token: await idToken("social", { sub: p.sub, email: p.email.toUpperCase(), name: "Zoë Q", picture: "https://img.test/z.png" }),
    });
    expect(res.status).toBe(201);
    const { token, user } = await sessionOf(res);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Emails are stored lower case; the username is the email's local part, cleaned.
    expect(user).toMatchObject({ email: p.email.toLowerCase(), name: "Zoë Q", images: { avatar: { url: "https://img.test/z.png" } } });
    expect(user.username).toBe(p.email.split("@")[0].toLowerCase().replace(".", "_"));
    const row = await userRow(user.id);
    expect(row.socialId).toBe(`${TEST_SOCIAL.name}:${p.sub}`);
    expect(row.passwordHash.startsWith(`pbkdf2-sha256$${PBKDF2_ITERATIONS}$`)).toBe(true);
    // Nobody knows the password: the account logs in only through the social network.
    expect((await postSession({ username: user.username, password: "" })).status).toBe(400);
  });

  it("logs the linked account in again (even with another email in the token), never creating a second one", async () => {
    const p = uniquePerson();
    const first = await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    const token = await idToken("social", { sub: p.sub, email: `changed-${p.email}` });
    const again = await sessionOf(await postSession({ social_token: token }));
    expect(again.user.id).toBe(first.user.id);
    expect(again.token).not.toBe(first.token);
    // An ID token is a bearer credential for its short lifetime: sending it twice logs the same account in twice.
    expect((await sessionOf(await postSession({ social_token: token }))).user.id).toBe(first.user.id);
    const rows = await db()
      .select()
      .from(users)
      .where(eq(users.socialId, `${TEST_SOCIAL.name}:${p.sub}`));
    expect(rows).toHaveLength(1);
  });

  it("an existing account with the same email is linked and logged in; an empty avatar is filled", async () => {
    const p = uniquePerson();
    const existing = await passwordUserWithEmail(p.email);
    const res = await postSession({
      social_token: await idToken("social", { sub: p.sub, email: p.email, name: "Other Name", picture: "https://img.test/a.png" }),
    });
    const { user } = await sessionOf(res);
    expect(user.id).toBe(existing.id);
    expect(user.name).toBe(existing.user.name); // not empty, so kept
    expect(user.images).toEqual({ avatar: { url: "https://img.test/a.png" } });
    expect((await userRow(user.id)).socialId).toBe(`${TEST_SOCIAL.name}:${p.sub}`);
    // The password still works.
    expect((await postSession({ username: existing.user.username, password: existing.password })).status).toBe(201);
  });

  it("an account with the same but unverified email is a 409 telling how to link, and nothing is linked", async () => {
    const p = uniquePerson();
    const existing = await passwordUserWithEmail(p.email, false);
    const res = await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) });
    expect(res.status).toBe(409);
    expect(await errorBody(res)).toEqual({
      error:
        "an account with this email exists and is not linked to this social network account: " +
        "sign in to that account and link this one with token=",
      vcode: 5409,
    });
    expect((await userRow(existing.id)).socialId).toBeNull();
  });

  it("a new account made from a verified email is verified itself", async () => {
    const p = uniquePerson();
    const { user } = await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    expect((await userRow(user.id)).emailVerified).toBe(true);
  });

  it("an account with the same email linked to a different social id is a 409", async () => {
    const p = uniquePerson();
    await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    const res = await postSession({ social_token: await idToken("social", { sub: `${p.sub}-other`, email: p.email }) });
    expect(res.status).toBe(409);
    expect(await errorBody(res)).toEqual({
      error: "the account with this email is linked to a different social network account",
      vcode: 5409,
    });
  });

  it("derives unique usernames from the email", async () => {
    const local = uniquePerson("same").id;
    const a = await sessionOf(await postSession({ social_token: await idToken("social", { email: `${local}@one.test` }) }));
    const b = await sessionOf(await postSession({ social_token: await idToken("social", { email: `${local}@two.test` }) }));
    expect(a.user.username).toBe(local);
    expect(b.user.username).toMatch(new RegExp(`^${local}_\\d{4}$`));
  });
});

describe("idp_token: the same creation and linking logic, in its own column", () => {
  it("creates, then logs in; any configured audience is accepted", async () => {
    const p = uniquePerson();
    const created = await sessionOf(await postSession({ idp_token: await idToken("idp", { sub: p.sub, email: p.email }) }));
    expect((await userRow(created.user.id)).idpId).toBe(`${TEST_IDP.name}:${p.sub}`);
    const other = await sessionOf(
      await postSession({ idp_token: await idToken("idp", { sub: p.sub, email: p.email, aud: "another-app" }) }),
    );
    expect(other.user.id).toBe(created.user.id);
  });

  it("links an account that already has a social link by email (the kinds are independent)", async () => {
    const p = uniquePerson();
    const social = await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    const idp = await sessionOf(await postSession({ idp_token: await idToken("idp", { sub: `corp-${p.sub}`, email: p.email }) }));
    expect(idp.user.id).toBe(social.user.id);
    const row = await userRow(idp.user.id);
    expect([row.socialId, row.idpId]).toEqual([`${TEST_SOCIAL.name}:${p.sub}`, `${TEST_IDP.name}:corp-${p.sub}`]);
  });
});

describe("ID tokens that fail verification are 401 with the bad-login vcode and the reason", () => {
  const refused = async (body: unknown, reason: string) => {
    const res = await postSession(body);
    expect(res.status).toBe(401);
    const field = Object.keys(body as object)[0];
    expect(await errorBody(res)).toEqual({ error: `invalid ${field}: ${reason}`, vcode: 7403 });
  };

  it("expired (beyond the 60 s clock tolerance), but accepted within it", async () => {
    await refused({ social_token: await idToken("social", { expiresIn: -120 }) }, "token expired");
    expect((await postSession({ social_token: await idToken("social", { expiresIn: -30 }) })).status).toBe(201);
  });
  it("wrongly signed: a key the provider does not have, under the provider's kid", async () => {
    await refused({ social_token: await idToken("social", { key: await strangerKey("RS256") }) }, "bad signature");
    await refused({ idp_token: await idToken("idp", { key: await strangerKey("ES256") }) }, "bad signature");
  });
  it("a signature algorithm the provider does not use", async () => {
    // RS256 provider, ES256 token: no key of the provider fits it.
    await refused({ social_token: await idToken("social", { key: await strangerKey("ES256"), alg: "ES256" }) }, "bad signature");
  });
  it("wrong audience", async () => {
    await refused({ social_token: await idToken("social", { aud: "someone-else" }) }, "wrong audience");
    await refused({ idp_token: await idToken("idp", { aud: "someone-else" }) }, "wrong audience");
  });
  it("wrong issuer, including another kind's provider", async () => {
    await refused({ social_token: await idToken("social", { iss: "https://evil.test" }) }, "issuer not accepted");
    await refused({ social_token: await idToken("idp") }, "issuer not accepted");
  });
  it("unverified, missing or string-verified email", async () => {
    await refused({ social_token: await idToken("social", { email_verified: false }) }, "email not verified");
    await refused({ social_token: await idToken("social", { email_verified: "true" }) }, "email not verified");
    await refused({ idp_token: await idToken("idp", { email_verified: undefined }) }, "email not verified");
    await refused({ social_token: await idToken("social", { email: null }) }, "the token carries no email");
  });
  it("not a JWT at all", async () => {
    await refused({ social_token: "abc" }, "not a JWT");
  });
  it("none of them created an account", async () => {
    const p = uniquePerson();
    await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email, aud: "someone-else" }) });
    expect(await db().select().from(users).where(eq(users.email, p.email))).toHaveLength(0);
  });
});

describe("credential bodies: one at a time, over HTTPS", () => {
  it("refuses plain HTTP for social_token and idp_token", async () => {
    for (const body of [{ social_token: await idToken("social") }, { idp_token: await idToken("idp") }]) {
      const res = await SELF.fetch("http://api.test/v5/sessions.json", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(403);
      expect((await errorBody(res)).vcode).toBe(5403);
    }
  });
  it("names a second credential body", async () => {
    const res = await postSession({ username: "x", password: "y", social_token: await idToken("social") });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details).toEqual([
      { field: "social_token", message: "send one credential body (username is given too)" },
    ]);
  });
  it("an empty credential is a 400 naming it", async () => {
    const res = await postSession({ idp_token: "" });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.[0].field).toBe("idp_token");
  });
});
