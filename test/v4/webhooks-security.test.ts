// Webhook endpoints (docs/decisions.md, "Signed webhooks"): who may call them, what another application sees, the
// loopback rule as production has it, resuming a paused endpoint, and the per-application limit on requests that call
// receivers.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { webhookEndpoints } from "../../src/db/schema";
import { writeKindOf } from "../../src/middleware/write-limits";
import { changeEndpoint, createEndpoint } from "../../src/services/webhooks";
import { api, createApplication, db, errorBody } from "../helpers";
import { describe, expect, test } from "../helpers/fixtures";
import { stubReceivers } from "../helpers/outbound";

type Webhook = {
  id: string;
  url: string;
  status: string;
  paused_reason: string | null;
  failures: { consecutive: number; since: string | null };
};

stubReceivers();

async function setup() {
  const owner = await createApplication();
  const res = await api("/v4/webhooks.json", { app: owner.wireId, method: "POST", json: { url: "https://receiver.example.com/hook" } });
  const { webhook } = (await res.json()) as { webhook: Webhook };
  const ping = (await (await api(`/v4/webhooks/${webhook.id}/ping.json`, { app: owner.wireId, method: "POST" })).json()) as {
    delivery: { id: string };
  };
  return { owner, webhook, delivery: ping.delivery.id };
}

/** Every route of an endpoint, with a body that would succeed for its owner. */
const ROUTES = (w: string, d: string): [string, string, unknown?][] => [
  ["GET", `/v4/webhooks/${w}.json`],
  ["PATCH", `/v4/webhooks/${w}.json`, { description: "taken over" }],
  ["PUT", `/v4/webhooks/${w}.json`, { url: "https://attacker.example.com/" }],
  ["DELETE", `/v4/webhooks/${w}.json`],
  ["POST", `/v4/webhooks/${w}/secret.json`],
  ["GET", `/v4/webhooks/${w}/deliveries.json`],
  ["POST", `/v4/webhooks/${w}/deliveries/${d}/redeliver.json`],
  ["POST", `/v4/webhooks/${w}/ping.json`],
];

describe("authentication: an application signing as itself", () => {
  test("unsigned is a 401 naming sig, a wrong signature a 401, no app= a 400 naming app", async () => {
    const { owner, webhook, delivery } = await setup();
    const routes: [string, string, unknown?][] = [
      ["GET", "/v4/webhooks.json"],
      ["POST", "/v4/webhooks.json", { url: "https://receiver.example.com/x" }],
      ...ROUTES(webhook.id, delivery),
    ];
    for (const [method, path, json] of routes) {
      const what = `${method} ${path}`;
      const unsigned = await errorBody(await api(path, { app: owner.wireId, method, json, unsigned: true }));
      expect({ vcode: unsigned.vcode, fields: unsigned.details?.map((d) => d.field) }, `${what} unsigned`).toEqual({
        vcode: 4,
        fields: ["sig"],
      });
      const forged = await api(path, {
        app: owner.wireId,
        method,
        json,
        headers: { signature: "0".repeat(40), timestamp: String(Math.floor(Date.now() / 1000)) },
      });
      expect({ status: forged.status, vcode: (await errorBody(forged)).vcode }, `${what} forged`).toEqual({ status: 401, vcode: 4 });
      const anonymous = await api(path, { method, json });
      expect(anonymous.status, `${what} without app=`).toBe(400);
      expect((await errorBody(anonymous)).details?.map((d) => d.field)).toEqual(["app"]);
    }
    // Nothing above changed the endpoint.
    const read = (await (await api(`/v4/webhooks/${webhook.id}.json`, { app: owner.wireId })).json()) as { webhook: Webhook };
    expect(read.webhook.url).toBe("https://receiver.example.com/hook");
  });
});

describe("each application sees and touches only its own endpoints", () => {
  test("another application gets 404 on every route of the endpoint, and an empty list", async ({ officialApp }) => {
    const { owner, webhook, delivery } = await setup();
    for (const [method, path, json] of ROUTES(webhook.id, delivery)) {
      const res = await api(path, { app: officialApp, method, json });
      expect({ status: res.status, vcode: (await errorBody(res)).vcode }, `${method} ${path}`).toEqual({ status: 404, vcode: 404 });
    }
    const list = (await (await api("/v4/webhooks.json", { app: officialApp })).json()) as { response: Webhook[] };
    expect(list.response.map((w) => w.id)).not.toContain(webhook.id);
    const row = await db()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, Number.parseInt(webhook.id, 10)))
      .get();
    expect(row).toMatchObject({ url: "https://receiver.example.com/hook", description: null, previousSecret: null });
    const deliveries = (await (await api(`/v4/webhooks/${webhook.id}/deliveries.json`, { app: owner.wireId })).json()) as {
      response: unknown[];
    };
    expect(deliveries.response, "no redelivery or ping was added by the other application").toHaveLength(1);
  });
});

describe("the loopback exception is for local development only", () => {
  test("with WEBHOOKS_ALLOW_LOOPBACK=false (staging, production) loopback and plain http are refused", async () => {
    const app = await createApplication();
    const production = { ...env, WEBHOOKS_ALLOW_LOOPBACK: "false", API_ORIGIN: "https://api.example.com" } as Env;
    const deps = { db: db(), env: production };
    for (const url of [
      "http://127.0.0.1:9999/hook",
      "https://127.0.0.1:9443/",
      "http://localhost:9999/",
      "http://[::1]:9999/",
      "https://api.example.com/x",
    ]) {
      const err = await createEndpoint(deps, app, { url }, "https://api.example.com").catch((e: unknown) => e);
      expect(err, url).toMatchObject({ status: 400, details: [{ field: "url" }] });
    }
    const { endpoint } = await createEndpoint(deps, app, { url: "https://receiver.example.com/" }, "https://api.example.com");
    expect(endpoint.url).toBe("https://receiver.example.com/");
  });
});

describe("trailing dots and empty labels", () => {
  test("a receiver host with an empty label, or a loopback name with a trailing dot, is a 400 naming url, even locally", async () => {
    const app = await createApplication();
    // Here WEBHOOKS_ALLOW_LOOPBACK is true, as locally: only https://localhost/, https://127.0.0.1/ and [::1] as written.
    for (const url of [
      "https://localhost../",
      "https://localhost./",
      "https://foo.localhost./",
      "https://127.0.0.1./",
      "https://127.0.0.1../",
      "https://a..b.example.com/",
    ]) {
      const res = await api("/v4/webhooks.json", { app: app.wireId, method: "POST", json: { url } });
      expect({ status: res.status, fields: (await errorBody(res)).details?.map((d) => d.field) }, url).toEqual({
        status: 400,
        fields: ["url"],
      });
    }
  });
});

describe("pausing and resuming", () => {
  test("active=true on an endpoint the service paused resets its failures and sends the held deliveries", async () => {
    const app = await createApplication();
    const sent: unknown[] = [];
    const WEBHOOKS = { send: async (body: unknown) => void sent.push(body) } as unknown as Env["WEBHOOKS"];
    const deps = { db: db(), env: { ...env, WEBHOOKS } as Env };
    const { endpoint } = await createEndpoint(deps, app, { url: "https://receiver.example.com/" }, "https://api.test");
    const failing = { consecutiveFailures: 7, failingSince: new Date(Date.now() - 3600_000) };
    await db()
      .update(webhookEndpoints)
      .set({ ...failing, status: "paused", pausedReason: "7 failures in a row", pausedAt: new Date() })
      .where(eq(webhookEndpoints.id, endpoint.id));

    const paused = (await (await api(`/v4/webhooks/${endpoint.id}w.json`, { app: app.wireId })).json()) as { webhook: Webhook };
    expect(paused.webhook).toMatchObject({ status: "paused", paused_reason: "7 failures in a row", failures: { consecutive: 7 } });

    const resumed = await changeEndpoint(deps, app, endpoint.id, { active: true }, "https://api.test");
    expect(resumed).toMatchObject({ status: "active", pausedReason: null, pausedAt: null, consecutiveFailures: 0, failingSince: null });
    expect(sent).toEqual([{ kind: "webhook-deliveries" }]);

    // Through the route too; re-affirming an active endpoint keeps the failures that may pause it.
    await db().update(webhookEndpoints).set(failing).where(eq(webhookEndpoints.id, endpoint.id));
    const still = await api(`/v4/webhooks/${endpoint.id}w.json`, { app: app.wireId, method: "PATCH", json: { active: true } });
    expect(((await still.json()) as { webhook: Webhook }).webhook.failures.consecutive).toBe(7);
    await db().update(webhookEndpoints).set({ status: "paused", pausedReason: "timeout" }).where(eq(webhookEndpoints.id, endpoint.id));
    const res = await api(`/v4/webhooks/${endpoint.id}w.json`, { app: app.wireId, method: "PATCH", json: { active: "true" } });
    expect(((await res.json()) as { webhook: Webhook }).webhook).toMatchObject({
      status: "active",
      paused_reason: null,
      failures: { consecutive: 0, since: null },
    });
  });

  test("active=false pauses it as the application's choice (no reason)", async () => {
    const app = (await createApplication()).wireId;
    const { webhook } = (await (
      await api("/v4/webhooks.json", { app, method: "POST", json: { url: "https://receiver.example.com/" } })
    ).json()) as { webhook: Webhook };
    const res = await api(`/v4/webhooks/${webhook.id}.json`, { app, method: "PATCH", json: { active: false } });
    expect(((await res.json()) as { webhook: Webhook }).webhook).toMatchObject({ status: "paused", paused_reason: null });
  });
});

describe("pings and redeliveries are limited per application", () => {
  test("30 a minute, then 429 with Retry-After; another application is not affected", async () => {
    const { owner, webhook, delivery } = await setup();
    // setup() sent one ping already.
    for (let i = 1; i < 30; i++) {
      const path = i % 2 ? `/v4/webhooks/${webhook.id}/ping.json` : `/v4/webhooks/${webhook.id}/deliveries/${delivery}/redeliver.json`;
      expect((await api(path, { app: owner.wireId, method: "POST" })).status, `request ${i + 1}`).toBe(202);
    }
    const refused = await api(`/v4/webhooks/${webhook.id}/ping.json`, { app: owner.wireId, method: "POST" });
    expect(refused.status).toBe(429);
    // When the 60 s window ends.
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await errorBody(refused)).toEqual({ error: "rate limited", vcode: 5429 });
    // Reads and other writes of the same application are not counted.
    expect((await api(`/v4/webhooks/${webhook.id}/deliveries.json`, { app: owner.wireId })).status).toBe(200);
    const other = await setup();
    expect((await api(`/v4/webhooks/${other.webhook.id}/ping.json`, { app: other.owner.wireId, method: "POST" })).status).toBe(202);
  });

  test("the limit table names the two routes and nothing else of /v4/webhooks", () => {
    expect(writeKindOf("POST", "/v4/webhooks/3w/ping")).toBe("webhooks");
    expect(writeKindOf("POST", "/v4/webhooks/3w/deliveries/5d/redeliver")).toBe("webhooks");
    for (const [method, path] of [
      ["POST", "/v4/webhooks"],
      ["PATCH", "/v4/webhooks/3w"],
      ["POST", "/v4/webhooks/3w/secret"],
      ["GET", "/v4/webhooks/3w/deliveries"],
    ]) {
      expect(writeKindOf(method, path), `${method} ${path}`).toBeUndefined();
    }
  });
});
