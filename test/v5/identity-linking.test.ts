import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/db/schema";
import { api, db, errorBody, signedInUser } from "../helpers";
import { TEST_IDP, TEST_SOCIAL, idToken, postSession, sessionOf, uniquePerson } from "../helpers/identity";

const row = async (id: number) => (await db().select().from(users).where(eq(users.id, id)).get())!;

/** A logged-in password user (email `<username>@example.com`) and an ID token for that email. */
async function loggedIn() {
  const u = await signedInUser();
  await db().update(users).set({ name: "", avatarUrl: null }).where(eq(users.id, u.user.id));
  return u;
}

describe("social_token with token= of a logged-in user updates that user (interface, Sessions v5)", () => {
  it("links the social id, fills the empty name and avatar, and answers 201 with a new session", async () => {
    const u = await loggedIn();
    const p = uniquePerson();
    const social_token = await idToken("social", {
      sub: p.sub,
      email: u.user.email.toUpperCase(),
      name: "Linked Name",
      picture: "https://img.test/l.png",
    });
    const res = await postSession({ social_token }, { token: u.token });
    const body = await sessionOf(res);
    expect(body.user).toMatchObject({ id: u.id, name: "Linked Name", images: { avatar: { url: "https://img.test/l.png" } } });
    expect(body.token).not.toBe(u.token);
    const linked = await row(u.user.id);
    expect(linked.socialId).toBe(`${TEST_SOCIAL.name}:${p.sub}`);
    // Both sessions work; the social login now reaches this account.
    expect((await api(`/v5/sessions/${u.token}.json`)).status).toBe(200);
    expect((await api(`/v5/sessions/${body.token}.json`)).status).toBe(200);
    const again = await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: "x@mail.test" }) }));
    expect(again.user.id).toBe(u.id);
  });

  it("keeps a name the user already has, and accepts Authorization: Bearer for the token", async () => {
    const u = await signedInUser();
    const p = uniquePerson();
    const res = await api("/v5/sessions.json", {
      method: "POST",
      headers: { authorization: `Bearer ${u.token}` },
      json: { social_token: await idToken("social", { sub: p.sub, email: u.user.email, name: "Ignored" }) },
    });
    expect((await sessionOf(res)).user.name).toBe(u.user.name);
    expect((await row(u.user.id)).socialId).toBe(`${TEST_SOCIAL.name}:${p.sub}`);
  });

  it("is idempotent for the social id the user is already linked to", async () => {
    const u = await loggedIn();
    const p = uniquePerson();
    const token = () => idToken("social", { sub: p.sub, email: u.user.email });
    await sessionOf(await postSession({ social_token: await token() }, { token: u.token }));
    const again = await postSession({ social_token: await token() }, { token: u.token });
    expect((await sessionOf(again)).user.id).toBe(u.id);
  });

  it("refuses a user linked to a different social id (409)", async () => {
    const u = await loggedIn();
    const p = uniquePerson();
    await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: u.user.email }) }, { token: u.token }));
    const res = await postSession(
      { social_token: await idToken("social", { sub: `${p.sub}-2`, email: u.user.email }) },
      { token: u.token },
    );
    expect(res.status).toBe(409);
    expect(await errorBody(res)).toEqual({ error: "this account is already linked to a different social network account", vcode: 5409 });
    expect((await row(u.user.id)).socialId).toBe(`${TEST_SOCIAL.name}:${p.sub}`);
  });

  it("refuses when the emails differ (403), linking nothing", async () => {
    const u = await loggedIn();
    const res = await postSession({ social_token: await idToken("social", { email: "someone-else@mail.test" }) }, { token: u.token });
    expect(res.status).toBe(403);
    expect(await errorBody(res)).toEqual({
      error: "the email of the social network account does not match this account's email",
      vcode: 5403,
    });
    expect((await row(u.user.id)).socialId).toBeNull();
  });

  it("refuses a social id that another account holds (409)", async () => {
    const p = uniquePerson();
    await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    const u = await loggedIn();
    const res = await postSession({ social_token: await idToken("social", { sub: p.sub, email: u.user.email }) }, { token: u.token });
    expect(res.status).toBe(409);
    expect((await errorBody(res)).error).toBe("this social network account is linked to another account");
  });

  it("a token= that names no session is 401 vcode 11", async () => {
    const res = await postSession({ social_token: await idToken("social") }, { token: "not-a-session" });
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(11);
  });

  it("an invalid social_token with a valid token= is the same 401 as without", async () => {
    const u = await loggedIn();
    const res = await postSession({ social_token: await idToken("social", { email: u.user.email, aud: "nope" }) }, { token: u.token });
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(7403);
  });

  it("idp_token with token= follows the same rules in the idp column", async () => {
    const u = await loggedIn();
    const p = uniquePerson();
    await sessionOf(await postSession({ idp_token: await idToken("idp", { sub: p.sub, email: u.user.email }) }, { token: u.token }));
    expect((await row(u.user.id)).idpId).toBe(`${TEST_IDP.name}:${p.sub}`);
    expect((await postSession({ idp_token: await idToken("idp", { email: "x@mail.test" }) }, { token: u.token })).status).toBe(409);
  });

  it("other credential bodies ignore token=, as password logins always have", async () => {
    const u = await loggedIn();
    const other = await signedInUser();
    const res = await postSession({ username: other.user.username, password: other.password }, { token: u.token });
    expect((await sessionOf(res)).user.id).toBe(other.id);
  });
});
