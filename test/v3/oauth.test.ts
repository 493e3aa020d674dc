import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { issueV3Token } from "../../src/lib/v3-tokens";
import { api, createApplication, createUser } from "../helpers";

let client: Awaited<ReturnType<typeof createApplication>>;
let user: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  client = await createApplication({ secret: "v3-client-secret" });
  user = await createUser();
});

const form = (params: Record<string, string>) =>
  api("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });

describe("POST /oauth/token", () => {
  it("grants client_credentials from a form body", async () => {
    const res = await form({ grant_type: "client_credentials", client_id: client.wireId, client_secret: "v3-client-secret" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "bearer", expires_in: 86400, scope: "public" });
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.user_id).toBeUndefined();
  });

  it("grants password with the user id, from JSON and from the query", async () => {
    const json = await api("/oauth/token", {
      method: "POST",
      json: {
        grant_type: "password",
        client_id: String(client.id),
        client_secret: "v3-client-secret",
        username: user.user.username,
        password: user.password,
      },
    });
    expect(json.status).toBe(200);
    expect(((await json.json()) as { user_id: number }).user_id).toBe(user.user.id);
    const q = new URLSearchParams({
      grant_type: "password",
      client_id: client.wireId,
      client_secret: "v3-client-secret",
      username: user.user.username,
      password: user.password,
    });
    const query = await api(`/oauth/token?${q}`, { method: "POST" });
    expect(query.status).toBe(200);
    expect(((await query.json()) as { user_id: number }).user_id).toBe(user.user.id);
  });

  it("answers OAuth error bodies", async () => {
    const badClient = await form({ grant_type: "client_credentials", client_id: client.wireId, client_secret: "nope" });
    expect(badClient.status).toBe(401);
    expect(await badClient.json()).toEqual({
      error: "invalid_client",
      error_description: expect.any(String),
      request_id: expect.any(String),
    });

    const badGrant = await form({ grant_type: "implicit", client_id: client.wireId, client_secret: "v3-client-secret" });
    expect(badGrant.status).toBe(400);
    expect(((await badGrant.json()) as { error: string }).error).toBe("unsupported_grant_type");

    const badPassword = await form({
      grant_type: "password",
      client_id: client.wireId,
      client_secret: "v3-client-secret",
      username: user.user.username,
      password: "wrong",
    });
    expect(badPassword.status).toBe(400);
    expect(((await badPassword.json()) as { error: string }).error).toBe("invalid_grant");

    const malformed = await api("/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toBe("invalid_request");
  });
});

describe("the password grant is HTTPS-only, as v5 logins are", () => {
  /** A token request over plain HTTP, its credentials in the body (form or JSON), through the Worker with `environment`. */
  async function overHttp(fields: Record<string, string>, { json = false, environment = "production" } = {}) {
    const request = new Request("http://api.test/oauth/token", {
      method: "POST",
      headers: {
        "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
        "cf-connecting-ip": `198.51.100.${1 + Math.floor(Math.random() * 250)}`,
      },
      body: json ? JSON.stringify(fields) : new URLSearchParams(fields),
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(request, { ...env, ENVIRONMENT: environment } as Env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }
  const clientOf = () => ({ client_id: client.wireId, client_secret: "v3-client-secret" });

  it("refuses a username and password, or a social_access_token, sent over plain HTTP (400 invalid_request), issuing nothing", async () => {
    const password = { grant_type: "password", ...clientOf(), username: user.user.username, password: user.password };
    const social = { grant_type: "password", ...clientOf(), social_access_token: "not-even-a-jwt" };
    for (const [fields, json] of [
      [password, false],
      [password, true],
      [social, false],
    ] as const) {
      const res = await overHttp(fields, { json });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(await res.json()).toEqual({
        error: "invalid_request",
        error_description: "the password grant requires HTTPS",
        request_id: expect.any(String),
      });
    }
    // A wrong client secret is not even looked at: the refusal comes first, and says nothing of the client.
    const wrongClient = await overHttp({ ...password, client_secret: "nope" });
    expect(((await wrongClient.json()) as { error: string }).error).toBe("invalid_request");
  });

  it("leaves client_credentials over plain HTTP and the password grant in local development alone", async () => {
    const credentials = await overHttp({ grant_type: "client_credentials", ...clientOf() });
    expect(credentials.status).toBe(200);
    const local = await overHttp(
      { grant_type: "password", ...clientOf(), username: user.user.username, password: user.password },
      { environment: "development" },
    );
    expect(local.status).toBe(200);
    expect(((await local.json()) as { user_id: number }).user_id).toBe(user.user.id);
  });
});

describe("v3 token cycle (401 / 403 / new token works)", () => {
  const path = "/api/v3/genres/movies.json";
  it("missing or invalid token is 401 with the v3 error body", async () => {
    const missing = await api(path);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: expect.any(String), status: 401, request_id: expect.any(String) });
    expect((await api(`${path}?access_token=garbage`)).status).toBe(401);
  });

  it("an expired token is 403; a new token makes the repeated request succeed", async () => {
    const dayAndASecondAgo = Math.floor(Date.now() / 1000) - 86401;
    const expired = await issueV3Token(env.V3_TOKEN_SECRET, { clientId: client.id }, dayAndASecondAgo);
    const refused = await api(`${path}?access_token=${expired}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { status: number }).status).toBe(403);

    const res = await form({ grant_type: "client_credentials", client_id: client.wireId, client_secret: "v3-client-secret" });
    const { access_token } = (await res.json()) as { access_token: string };
    const repeated = await api(`${path}?access_token=${access_token}`);
    expect(repeated.status).toBe(200);
  });

  it("a token signed with another secret is invalid", async () => {
    const forged = await issueV3Token("another-secret-another-secret-xx", { clientId: client.id });
    expect((await api(`${path}?access_token=${forged}`)).status).toBe(401);
  });
});

describe("/oauth/token answers every error with an RFC 6749 body", () => {
  it("for a query it cannot read, a body too large, a wrong method and an unreadable body", async () => {
    const cases: Array<[Response, number]> = [
      [
        await api("/oauth/token?grant_type=client_credentials&client_id=1&client_id=2&client_secret=x&client_secret=y&username[]=a", {
          method: "POST",
        }),
        401,
      ],
      [
        await api("/oauth/token", {
          method: "POST",
          body: "x".repeat(70 * 1024),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        }),
        413,
      ],
      [await api("/oauth/token", { method: "GET" }), 405],
      [await api("/oauth/token", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } }), 400],
    ];
    for (const [res, status] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["error", "error_description", "request_id"]);
      expect(["invalid_request", "invalid_client"]).toContain(body.error);
    }
  });

  it("answers 503 temporarily_unavailable, not 500, when the server has no V3_TOKEN_SECRET", async () => {
    const request = new Request("https://api.test/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": "192.0.2.14" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.wireId, client_secret: "v3-client-secret" }),
    });
    const ctx = createExecutionContext();
    const res = await worker.fetch(request, { ...env, V3_TOKEN_SECRET: "" } as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: "temporarily_unavailable",
      error_description: expect.stringContaining("V3_TOKEN_SECRET"),
    });
  });
});
