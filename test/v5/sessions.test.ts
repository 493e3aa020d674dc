import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createUser, errorBody } from "../helpers";

let alice: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  alice = await createUser({ username: "alice_s" });
});

const loginBody = () => ({ username: "alice_s", password: "alice_s-password" });

describe("POST /v5/sessions.json (none -> valid)", () => {
  it("logs in with username and password and returns a token and the user summary", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", json: loginBody() });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { token: string; user: Record<string, unknown> };
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({ id: alice.id, username: "alice_s", email: "alice_s@example.com" });
    expect(body.user.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("refuses a wrong password and an unknown user with the same 401", async () => {
    const wrong = await api("/v5/sessions.json", { method: "POST", json: { username: "alice_s", password: "nope" } });
    const unknown = await api("/v5/sessions.json", { method: "POST", json: { username: "nobody_here", password: "nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await errorBody(wrong)).toEqual({ error: "invalid username or password", vcode: 7403 });
    expect(await errorBody(unknown)).toEqual({ error: "invalid username or password", vcode: 7403 });
  });

  it("refuses login over plain HTTP outside local development", async () => {
    const res = await SELF.fetch("http://api.test/v5/sessions.json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(loginBody()),
    });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
  });
});

describe("bad input to POST /v5/sessions.json is a 4xx with the error body of docs/spec/wire.md", () => {
  it("names missing fields", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", json: { username: "alice_s" } });
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.vcode).toBe(5002);
    expect(body.details).toEqual([{ field: "password", message: "required" }]);
  });

  it("names fields of the wrong type", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", json: { username: { name: "alice_s" }, password: ["x"] } });
    expect(res.status).toBe(400);
    const fields = (await errorBody(res)).details!.map((d) => d.field).sort();
    expect(fields).toEqual(["password", "username"]);
  });

  it("ignores unknown fields, naming them in x-ignored-fields", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", json: { ...loginBody(), admin: true } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-ignored-fields")).toBe("admin");
    const body = (await res.json()) as { token: string; user: Record<string, unknown> };
    expect(body.user).toMatchObject({ id: alice.id, username: "alice_s" });
    expect(body.user).not.toHaveProperty("admin");
  });

  it("refuses malformed JSON", async () => {
    const res = await api("/v5/sessions.json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"username": "alice_s",',
    });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).vcode).toBe(5002);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", body: "username=alice_s" });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).vcode).toBe(5002);
  });

  it("refuses a 1 MB body with 413", async () => {
    const res = await api("/v5/sessions.json", { method: "POST", json: { username: "alice_s", password: "x".repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect((await errorBody(res)).vcode).toBe(5413);
  });

  it("answers a garbled external credential with a 401 naming it, never a 500", async () => {
    // Every kind is configured in tests; unconfigured kinds (400 "not enabled") are in test/services/identity.test.ts.
    for (const field of ["social_token", "idp_token", "retailer_params", "store_token"]) {
      const res = await api("/v5/sessions.json", { method: "POST", json: { [field]: "abc" } });
      expect(res.status).toBe(401);
      expect(await errorBody(res)).toMatchObject({ error: expect.stringContaining(`invalid ${field}:`), vcode: 7403 });
    }
  });
});

describe("session token state table", () => {
  it("GET reads the user of a valid token; unknown tokens are 404 vcode 11", async () => {
    const { token } = (await (await api("/v5/sessions.json", { method: "POST", json: loginBody() })).json()) as { token: string };
    const res = await api(`/v5/sessions/${token}.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: alice.id, username: "alice_s" });

    const missing = await api("/v5/sessions/not-a-token.json");
    expect(missing.status).toBe(404);
    expect((await errorBody(missing)).vcode).toBe(11);
  });

  it("PUT (valid -> replaced) issues a new token and deletes all the user's sessions", async () => {
    const first = ((await (await api("/v5/sessions.json", { method: "POST", json: loginBody() })).json()) as { token: string }).token;
    const second = ((await (await api("/v5/sessions.json", { method: "POST", json: loginBody() })).json()) as { token: string }).token;
    const res = await api(`/v5/sessions/${first}.json`, { method: "PUT" });
    expect(res.status).toBe(201);
    const renewed = (await res.json()) as { token: string; user: { id: string } };
    expect(renewed.token).not.toBe(first);
    expect(renewed.user.id).toBe(alice.id);

    expect((await api(`/v5/sessions/${first}.json`)).status).toBe(404);
    expect((await api(`/v5/sessions/${second}.json`)).status).toBe(404);
    expect((await api(`/v5/sessions/${renewed.token}.json`)).status).toBe(200);
  });

  it("DELETE (valid -> destroyed) makes every token of the user useless at once", async () => {
    const a = ((await (await api("/v5/sessions.json", { method: "POST", json: loginBody() })).json()) as { token: string }).token;
    const b = ((await (await api("/v5/sessions.json", { method: "POST", json: loginBody() })).json()) as { token: string }).token;
    const res = await api(`/v5/sessions/${a}.json?token=${a}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect((await api(`/v5/sessions/${a}.json`)).status).toBe(404);
    expect((await api(`/v5/sessions/${b}.json`)).status).toBe(404);
    // A destroyed token no longer authenticates v4 requests either.
    const v4 = await api(`/v4/jobs/1j.json?token=${b}`);
    expect(v4.status).toBe(401);
    expect((await errorBody(v4)).vcode).toBe(11);
  });

  it("PUT and DELETE on an unknown token are 404", async () => {
    expect((await api("/v5/sessions/nope.json", { method: "PUT" })).status).toBe(404);
    expect((await api("/v5/sessions/nope.json", { method: "DELETE" })).status).toBe(404);
  });

  it("a token works as token= and as Authorization: Bearer", async () => {
    const { token } = (await (await api("/v5/sessions.json", { method: "POST", json: loginBody() })).json()) as { token: string };
    // Job 999999 does not exist: the 404 (not 401) proves the token was accepted.
    expect((await api(`/v4/jobs/999999j.json?token=${token}`)).status).toBe(404);
    expect((await api("/v4/jobs/999999j.json", { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    expect((await api("/v4/jobs/999999j.json")).status).toBe(401);
  });
});
