import { describe, expect, it } from "vitest";
import { api, createApplication, createUser, errorBody } from "../helpers";
import { TEST_IDP, TEST_SOCIAL, idToken, postSession, retailerParams, sessionOf, uniquePerson, userRow } from "../helpers/identity";

/**
 * Pre-account takeover: whoever makes an account with someone else's email must not receive that person's later
 * social or identity-provider logins. An identity is linked into an existing account by email only when both emails
 * are verified (docs/api.md, "External identity").
 */

const notLinked =
  "an account with this email exists and is not linked to this social network account: sign in to that account and link this one with token=";

describe("an account whose email nobody verified never receives a social or idp login with that email", () => {
  it("refuses the victim's social login into a retailer account made with their email (409), linking nothing", async () => {
    const victim = uniquePerson("victim");
    // The attacker's retailer account carries the victim's address: the retailer asserts it, nobody verified it.
    const planted = await sessionOf(await postSession({ retailer_params: await retailerParams({ email: victim.email }) }));
    expect(planted.user.email).toBe(victim.email);
    expect((await userRow(planted.user.id)).emailVerified).toBe(false);

    const res = await postSession({ social_token: await idToken("social", { sub: victim.sub, email: victim.email }) });
    expect(res.status).toBe(409);
    expect(await errorBody(res)).toEqual({ error: notLinked, vcode: 5409 });
    const idp = await postSession({ idp_token: await idToken("idp", { sub: victim.sub, email: victim.email }) });
    expect(idp.status).toBe(409);
    const after = await userRow(planted.user.id);
    expect([after.socialId, after.idpId]).toEqual([null, null]);
    // The attacker's session still reaches only the account they made, with no identity of the victim's on it.
    const summary = (await (await api(`/v5/sessions/${planted.token}.json`)).json()) as { id: string };
    expect(summary.id).toBe(planted.user.id);
  });

  it("refuses the same through the v3 password grant (invalid_grant)", async () => {
    const victim = uniquePerson("victim3");
    const planted = await sessionOf(await postSession({ retailer_params: await retailerParams({ email: victim.email }) }));
    const client = await createApplication({ secret: "linking-secret" });
    const res = await api("/oauth/token", {
      method: "POST",
      json: {
        grant_type: "password",
        client_id: client.wireId,
        client_secret: "linking-secret",
        social_access_token: await idToken("social", { sub: victim.sub, email: victim.email }),
      },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await userRow(planted.user.id)).socialId).toBeNull();
  });

  it("refuses a staff account whose email an operator typed", async () => {
    const typed = await createUser({ staff: true });
    const res = await postSession({ social_token: await idToken("social", { email: typed.user.email }) });
    expect(res.status).toBe(409);
    expect((await userRow(typed.id)).socialId).toBeNull();
  });

  it("never links a staff account by email, even one marked verified: its holder signs in and links", async () => {
    const staff = await createUser({ staff: true, emailVerified: true });
    const p = uniquePerson();
    for (const kind of ["social", "idp"] as const) {
      const res = await postSession({ [`${kind}_token`]: await idToken(kind, { sub: p.sub, email: staff.user.email }) });
      expect(res.status, kind).toBe(409);
      expect((await errorBody(res)).error, kind).toMatch(/sign in to that account and link this one with token=$/);
    }
    const client = await createApplication({ secret: "staff-linking-secret" });
    const v3 = await api("/oauth/token", {
      method: "POST",
      json: {
        grant_type: "password",
        client_id: client.wireId,
        client_secret: "staff-linking-secret",
        social_access_token: await idToken("social", { sub: p.sub, email: staff.user.email }),
      },
    });
    expect(v3.status).toBe(400);
    expect(((await v3.json()) as { error: string }).error).toBe("invalid_grant");
    expect([(await userRow(staff.id)).socialId, (await userRow(staff.id)).idpId]).toEqual([null, null]);

    // Signed in with the password first, the staff member links the identity on purpose; it then logs in by the link.
    const password = await sessionOf(await postSession({ username: staff.user.username, password: staff.password }));
    const linked = await postSession(
      { social_token: await idToken("social", { sub: p.sub, email: staff.user.email }) },
      { token: password.token },
    );
    expect((await sessionOf(linked)).user.id).toBe(staff.id);
    expect((await userRow(staff.id)).socialId).toBe(`${TEST_SOCIAL.name}:${p.sub}`);
    const again = await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: staff.user.email }) }));
    expect(again.user.id).toBe(staff.id);
  });

  it("the holder of an unverified account links by signing in first; its email is then verified for the other kind", async () => {
    const holder = await createUser();
    const password = await sessionOf(await postSession({ username: holder.user.username, password: holder.password }));
    const p = uniquePerson();
    const linked = await postSession(
      { social_token: await idToken("social", { sub: p.sub, email: holder.user.email }) },
      { token: password.token },
    );
    expect((await sessionOf(linked)).user.id).toBe(holder.id);
    expect((await userRow(holder.id)).emailVerified).toBe(true);
    // Verified now, so an identity provider login with the same verified email joins the same account.
    const idp = await sessionOf(await postSession({ idp_token: await idToken("idp", { sub: p.sub, email: holder.user.email }) }));
    expect(idp.user.id).toBe(holder.id);
    expect((await userRow(holder.id)).idpId).toBe(`${TEST_IDP.name}:${p.sub}`);
  });

  it("a retailer's email never links even a verified account (409)", async () => {
    const p = uniquePerson();
    const owner = await sessionOf(await postSession({ social_token: await idToken("social", { sub: p.sub, email: p.email }) }));
    const res = await postSession({ retailer_params: await retailerParams({ email: p.email }) });
    expect(res.status).toBe(409);
    expect((await userRow(owner.user.id)).retailerRef).toBeNull();
  });
});
