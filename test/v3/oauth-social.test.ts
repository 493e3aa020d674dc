import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "../../src/db/schema";
import { api, createApplication, createUser, db } from "../helpers";
import { TEST_SOCIAL, idToken, uniquePerson } from "../helpers/identity";

let client: Awaited<ReturnType<typeof createApplication>>;
beforeAll(async () => {
  client = await createApplication({ secret: "v3-social-secret" });
});

const grant = (params: Record<string, string>) =>
  api("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "password",
      client_id: client.wireId,
      client_secret: "v3-social-secret",
      ...params,
    }).toString(),
  });

const userBySocial = (sub: string) =>
  db()
    .select()
    .from(users)
    .where(eq(users.socialId, `${TEST_SOCIAL.name}:${sub}`))
    .get();

describe("v3 password grant with social_access_token (interface, Authentication v3 item 2)", () => {
  it("creates a user when neither the social id nor the email is in use, answering the token with user_id", async () => {
    const p = uniquePerson();
    const res = await grant({ social_access_token: await idToken("social", { sub: p.sub, email: p.email }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user_id: number; access_token: string };
    expect(body).toMatchObject({ token_type: "bearer", expires_in: 86400, scope: "public" });
    const created = await userBySocial(p.sub);
    expect(created?.email).toBe(p.email);
    expect(body.user_id).toBe(created!.id);
    // The token works on v3.
    expect((await api(`/api/v3/genres/movies.json?access_token=${body.access_token}`)).status).toBe(200);
  });

  it("logs in as the user with that (verified) email and links the social id", async () => {
    const existing = await createUser({ emailVerified: true });
    const p = uniquePerson();
    const res = await grant({ social_access_token: await idToken("social", { sub: p.sub, email: existing.user.email }) });
    expect(((await res.json()) as { user_id: number }).user_id).toBe(existing.user.id);
    expect((await userBySocial(p.sub))?.id).toBe(existing.user.id);
  });

  it("logs the linked user in again, and v5 reaches the same account", async () => {
    const p = uniquePerson();
    const first = (await (await grant({ social_access_token: await idToken("social", { sub: p.sub, email: p.email }) })).json()) as {
      user_id: number;
    };
    const again = (await (await grant({ social_access_token: await idToken("social", { sub: p.sub, email: p.email }) })).json()) as {
      user_id: number;
    };
    expect(again.user_id).toBe(first.user_id);
    const v5 = await api("/v5/sessions.json", {
      method: "POST",
      json: { social_token: await idToken("social", { sub: p.sub, email: p.email }) },
    });
    expect(((await v5.json()) as { user: { id: string } }).user.id).toBe(`${first.user_id}u`);
  });

  it("refuses invalid tokens and link conflicts with invalid_grant naming the reason", async () => {
    const expired = await grant({ social_access_token: await idToken("social", { expiresIn: -300 }) });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      error: "invalid_grant",
      error_description: "invalid social_access_token: token expired",
      request_id: expect.any(String),
    });

    const unverified = await grant({ social_access_token: await idToken("social", { email_verified: false }) });
    expect(((await unverified.json()) as { error_description: string }).error_description).toBe(
      "invalid social_access_token: email not verified",
    );

    const p = uniquePerson();
    await grant({ social_access_token: await idToken("social", { sub: p.sub, email: p.email }) });
    const conflict = await grant({ social_access_token: await idToken("social", { sub: `${p.sub}-x`, email: p.email }) });
    expect(conflict.status).toBe(400);
    expect(await conflict.json()).toEqual({
      error: "invalid_grant",
      error_description: "the account with this email is linked to a different social network account",
      request_id: conflict.headers.get("x-request-id"),
    });
  });

  it("an empty social_access_token is invalid_request", async () => {
    const res = await grant({ social_access_token: "" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });
});
