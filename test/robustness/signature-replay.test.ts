import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { hmacSha1Hex, signedMessageBytes } from "../../src/lib/signature";
import { ORIGIN, api, createApplication, errorBody, signedInUser } from "../helpers";

/**
 * Signatures as the only credential (docs/decisions.md, "Signed requests and replay"): a signature captured from a
 * log cannot be sent with another method, nor sent again; the published clients' scheme (v1, path and query only)
 * still works where a user token authenticates the request.
 */

let app: Awaited<ReturnType<typeof createApplication>>;
const SECRET = "replay-test-secret";
beforeAll(async () => {
  app = await createApplication({ official: true, secret: SECRET });
});

const now = () => String(Math.floor(Date.now() / 1000));

/** A request signed as a client would, in the header form; `version` 2 adds `sig_v=2` and signs the method. */
async function signed(method: string, path: string, opts: { version?: 1 | 2; body?: string; query?: string } = {}) {
  const version = opts.version ?? 1;
  const url = `${ORIGIN}${path}?app=${app.wireId}${opts.query ?? ""}${version === 2 ? "&sig_v=2" : ""}`;
  const t = now();
  const body = new TextEncoder().encode(opts.body ?? "");
  const signature = await hmacSha1Hex(SECRET, signedMessageBytes(url, body, t, { version, method }));
  return { url, init: { method, body: opts.body, headers: { timestamp: t, signature, "content-type": "application/json" } } };
}

async function createEndpoint() {
  const res = await api("/v4/webhooks.json", { method: "POST", app: app.wireId, json: { url: "https://receiver.example.com/replay" } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { webhook: { id: string } }).webhook.id;
}

describe("replaying a captured signature", () => {
  it("a signed GET of an endpoint sent again as DELETE is refused, in either signing version", async () => {
    const id = await createEndpoint();
    for (const version of [1, 2] as const) {
      const get = await signed("GET", `/v4/webhooks/${id}.json`, { version });
      expect((await SELF.fetch(get.url, get.init)).status).toBe(200);
      const replay = await SELF.fetch(get.url, { ...get.init, method: "DELETE" });
      expect(replay.status).toBe(401);
      expect((await errorBody(replay)).vcode).toBe(4);
    }
    // The endpoint is still there.
    expect((await api(`/v4/webhooks/${id}.json`, { app: app.wireId })).status).toBe(200);
  });

  it("the same signed POST sent twice is refused the second time, and only one endpoint is made", async () => {
    const before = await api("/v4/webhooks.json", { app: app.wireId });
    const count = ((await before.json()) as { response: unknown[] }).response.length;
    const post = await signed("POST", "/v4/webhooks.json", {
      version: 2,
      body: JSON.stringify({ url: "https://receiver.example.com/twice" }),
    });
    expect((await SELF.fetch(post.url, post.init)).status).toBe(201);
    const again = await SELF.fetch(post.url, post.init);
    expect(again.status).toBe(401);
    expect(await errorBody(again)).toMatchObject({ vcode: 4, error: "this signature was already used: sign every request anew" });
    // Upper-case hex is the same signature.
    const upper = await SELF.fetch(post.url, {
      ...post.init,
      headers: { ...post.init.headers, signature: post.init.headers.signature.toUpperCase() },
    });
    expect(upper.status).toBe(401);
    const after = await api("/v4/webhooks.json", { app: app.wireId });
    expect(((await after.json()) as { response: unknown[] }).response).toHaveLength(count + 1);
    // A nonce tells two identical writes of the same second apart.
    const first = await signed("POST", "/v4/webhooks.json", {
      version: 2,
      query: "&nonce=a",
      body: JSON.stringify({ url: "https://receiver.example.com/n" }),
    });
    const second = await signed("POST", "/v4/webhooks.json", {
      version: 2,
      query: "&nonce=b",
      body: JSON.stringify({ url: "https://receiver.example.com/n" }),
    });
    expect((await SELF.fetch(first.url, first.init)).status).toBe(201);
    expect((await SELF.fetch(second.url, second.init)).status).toBe(201);
  });

  it("a signature-only write in the published clients' scheme (no method signed) is refused, naming sig_v", async () => {
    const id = await createEndpoint();
    const res = await api(`/v4/webhooks/${id}.json`, { method: "DELETE", app: app.wireId, signVersion: 1 });
    expect(res.status).toBe(401);
    expect(await errorBody(res)).toMatchObject({ vcode: 4, details: [{ field: "sig_v", message: expect.any(String) }] });
    const bad = await api(`/v4/webhooks/${id}.json`, { method: "DELETE", app: app.wireId, signVersion: 1, query: { sig_v: "3" } });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).details).toEqual([{ field: "sig_v", message: expect.any(String) }]);
    expect((await api(`/v4/webhooks/${id}.json`, { method: "DELETE", app: app.wireId })).status).toBe(204);
  });

  it("a gem-style signed GET with a user token (query form, path and query only) still works, and again", async () => {
    const owner = await signedInUser();
    const path = `/v4/users/${owner.id}/subscriptions.json?token=${owner.token}&app=${app.wireId}&t=${now()}`;
    const url = `${ORIGIN}${path}&sig=${await hmacSha1Hex(SECRET, path)}`;
    expect((await SELF.fetch(url)).status).toBe(200);
    expect((await SELF.fetch(url)).status).toBe(200);
  });
});
