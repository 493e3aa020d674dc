// Webhook endpoints (docs/decisions.md, "Signed webhooks"): CRUD, secrets, limits, validation, deliveries, redelivery, ping.
// Who may call them (unsigned, no app, another application) is in webhooks-security.test.ts.
import { eq } from "drizzle-orm";
import { recordEvent } from "../../src/db/queries/webhook-events";
import { webhookDeliveries, webhookEndpoints } from "../../src/db/schema";
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events";
import { MAX_ENDPOINTS_PER_APPLICATION } from "../../src/services/webhooks";
import { api, createApplication, db, errorBody } from "../helpers";
import { describe, expect, test } from "../helpers/fixtures";
import { stubReceivers } from "../helpers/outbound";

type Webhook = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  status: string;
  paused_reason: string | null;
  paused_at: string | null;
  failures: { consecutive: number; since: string | null };
  previous_secret_expires_at: string | null;
  deliveries_url: string;
};
type Delivery = {
  id: string;
  event: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  status: string;
  redelivery_of: string | null;
  next_attempt_at: string | null;
  last_attempt: unknown;
};

// The consumer runs in this isolate: receivers answer 200 at once, and nothing leaves the machine.
stubReceivers();

async function create(app: string, json: Record<string, unknown> = {}) {
  const res = await api("/v4/webhooks.json", { app, method: "POST", json: { url: "https://receiver.example.com/hook", ...json } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { webhook: Webhook; secret: string };
}

async function refused(res: Response, status: number, field: string) {
  const body = await errorBody(res);
  expect({ status: res.status, fields: body.details?.map((d) => d.field) }, JSON.stringify(body)).toEqual({ status, fields: [field] });
  return body;
}

describe("the event catalogue", () => {
  test("public: every type, its audience, and whether endpoints subscribe to it", async () => {
    const res = await api("/v4/webhooks/events.json");
    expect(res.status).toBe(200);
    const { events } = (await res.json()) as { events: { type: string; audience: string; subscribable: boolean; available?: boolean }[] };
    expect(events.map((e) => e.type)).toEqual(WEBHOOK_EVENT_TYPES);
    expect(events.filter((e) => e.subscribable).map((e) => e.type)).toEqual(SUBSCRIBABLE_EVENT_TYPES);
    expect(events.find((e) => e.type === "subtitles.updated")?.audience).toBe("official");
    expect(events.some((e) => "available" in e)).toBe(false);
  });

  test("a signed application also learns which it may subscribe to", async ({ partnerApp, officialApp }) => {
    const availability = async (app: string) => {
      const { events } = (await (await api("/v4/webhooks/events.json", { app })).json()) as {
        events: { type: string; available: boolean }[];
      };
      return Object.fromEntries(events.map((e) => [e.type, e.available]));
    };
    expect(await availability(partnerApp)).toMatchObject({ "job.succeeded": true, "subtitles.updated": false, ping: false });
    expect(await availability(officialApp)).toMatchObject({ "job.failed": true, "container.deleted": true, ping: false });
  });
});

describe("creating, reading, listing, changing and deleting endpoints", () => {
  test("the secret is answered once; GET and the list never show it", async () => {
    const app = (await createApplication()).wireId;
    const { webhook, secret } = await create(app, { description: "orders" });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({
      url: "https://receiver.example.com/hook",
      description: "orders",
      // The default: every type a non-official application may subscribe to.
      events: ["job.succeeded", "job.failed"],
      status: "active",
      paused_reason: null,
      failures: { consecutive: 0, since: null },
      previous_secret_expires_at: null,
      deliveries_url: `https://api.test/v4/webhooks/${webhook.id}/deliveries.json`,
    });
    const read = await api(`/v4/webhooks/${webhook.id}.json`, { app });
    const text = await read.text();
    expect(read.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ webhook });
    expect(text).not.toContain(secret);
    const listed = await api("/v4/webhooks.json", { app });
    expect(await listed.text()).not.toContain("whsec_");
  });

  test("an official application subscribes to the catalogue events by default; active=false creates it paused", async ({ officialApp }) => {
    const { webhook } = await create(officialApp, { active: false });
    expect(webhook.events).toEqual(SUBSCRIBABLE_EVENT_TYPES);
    expect(webhook).toMatchObject({ status: "paused", paused_reason: null });
    expect(webhook.paused_at).toMatch(/Z$/);
  });

  test("the list holds the application's endpoints only, with the usual paging", async () => {
    const app = (await createApplication()).wireId;
    const other = (await createApplication()).wireId;
    const mine = [await create(app), await create(app), await create(app)].map((c) => c.webhook.id);
    await create(other);
    const page = (await (await api("/v4/webhooks.json?per_page=2&with_paging=true", { app })).json()) as {
      more: boolean;
      response: Webhook[];
      count: number;
    };
    expect(page).toMatchObject({ more: true, count: 3 });
    expect(page.response.map((w) => w.id)).toEqual(mine.slice(0, 2));
    const ids = (await (await api("/v4/webhooks.json?only_ids=true", { app })).json()) as { response: string[] };
    expect(ids.response).toEqual(mine);
  });

  test("PATCH and PUT change the fields sent and leave the others", async ({ officialApp }) => {
    const { webhook } = await create(officialApp, { events: ["job.failed"], description: "first" });
    const patched = await api(`/v4/webhooks/${webhook.id}.json`, {
      app: officialApp,
      method: "PATCH",
      json: { url: "https://other.example.com/in", events: ["container.updated", "job.failed"] },
    });
    expect(patched.status).toBe(200);
    const after = ((await patched.json()) as { webhook: Webhook }).webhook;
    expect(after).toMatchObject({ url: "https://other.example.com/in", events: ["container.updated", "job.failed"], description: "first" });
    const put = await api(`/v4/webhooks/${webhook.id}.json`, {
      app: officialApp,
      method: "PUT",
      json: { description: null, active: false },
    });
    expect(((await put.json()) as { webhook: Webhook }).webhook).toMatchObject({
      url: "https://other.example.com/in",
      description: null,
      status: "paused",
      paused_reason: null,
    });
  });

  test("rotation answers a new secret and keeps the old one signing for 24 hours", async () => {
    const app = (await createApplication()).wireId;
    const { webhook, secret } = await create(app);
    const res = await api(`/v4/webhooks/${webhook.id}/secret.json`, { app, method: "POST" });
    expect(res.status).toBe(200);
    const rotated = (await res.json()) as { webhook: Webhook; secret: string };
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    const expires = Date.parse(rotated.webhook.previous_secret_expires_at!);
    expect(Math.abs(expires - (Date.now() + 24 * 3600 * 1000))).toBeLessThan(60_000);
    const row = await db()
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, Number.parseInt(webhook.id, 10)))
      .get();
    expect({ secret: row?.secret, previous: row?.previousSecret }).toEqual({ secret: rotated.secret, previous: secret });
  });

  test("DELETE answers 204, the endpoint is gone and its deliveries with it", async () => {
    const app = (await createApplication()).wireId;
    const { webhook } = await create(app);
    expect((await api(`/v4/webhooks/${webhook.id}/ping.json`, { app, method: "POST" })).status).toBe(202);
    const id = Number.parseInt(webhook.id, 10);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)).all()).toHaveLength(1);
    expect((await api(`/v4/webhooks/${webhook.id}.json`, { app, method: "DELETE" })).status).toBe(204);
    expect((await api(`/v4/webhooks/${webhook.id}.json`, { app })).status).toBe(404);
    expect((await api(`/v4/webhooks/${webhook.id}.json`, { app, method: "DELETE" })).status).toBe(404);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)).all()).toHaveLength(0);
  });

  test(`at most ${MAX_ENDPOINTS_PER_APPLICATION} endpoints per application: the next is a 409 that says the limit`, async () => {
    const app = (await createApplication()).wireId;
    const made = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_APPLICATION; i++) made.push((await create(app, { url: `https://r${i}.example.com/` })).webhook);
    const res = await api("/v4/webhooks.json", { app, method: "POST", json: { url: "https://r.example.com/" } });
    const body = await errorBody(res);
    expect({ status: res.status, vcode: body.vcode }).toEqual({ status: 409, vcode: 5409 });
    expect(body.error).toContain(String(MAX_ENDPOINTS_PER_APPLICATION));
    // Another application is not affected, and deleting one makes room.
    await create((await createApplication()).wireId);
    expect((await api(`/v4/webhooks/${made[0].id}.json`, { app, method: "DELETE" })).status).toBe(204);
    await create(app);
  });
});

describe("validation: a 400 naming the field, a 403 for events the application may not hear", () => {
  test("receiver URLs that are not https, carry credentials or a fragment, or point at this service or a private host", async () => {
    const app = (await createApplication()).wireId;
    const hostile = [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "ftp://files.example.com/",
      "http://receiver.example.com/hook",
      "receiver.example.com/hook",
      "/v4/hook",
      "https://user:pw@receiver.example.com/",
      "https://receiver.example.com/hook#frag",
      `https://receiver.example.com/${"a".repeat(2048)}`,
      "https://api.test/v4/webhooks.json",
      "http://127.0.0.1:8787/hook",
      "http://localhost:8787/hook",
      "https://printer.local/",
      "https://metadata.internal/",
      "https://foo.localhost/",
      "https://10.1.2.3/",
      "https://172.20.0.1/",
      "https://192.168.0.10/",
      "https://169.254.169.254/latest/meta-data",
      "https://0.0.0.0/",
      "https://[fc00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:10.0.0.1]/",
    ];
    for (const url of hostile) {
      const res = await api("/v4/webhooks.json", { app, method: "POST", json: { url } });
      await refused(res, 400, "url");
    }
    await refused(await api("/v4/webhooks.json", { app, method: "POST", json: {} }), 400, "url");
    expect(((await (await api("/v4/webhooks.json", { app })).json()) as { response: unknown[] }).response).toEqual([]);
  });

  test("this configuration (WEBHOOKS_ALLOW_LOOPBACK=true) accepts receivers on loopback", async () => {
    const app = (await createApplication()).wireId;
    for (const url of ["http://127.0.0.1:9999/hook", "http://localhost:9999/", "http://[::1]:9999/", "https://127.0.0.1:9443/"]) {
      expect((await create(app, { url })).webhook.url).toBe(url);
    }
  });

  test("events: known, unique, not ping, not empty; catalogue events for official applications only", async ({
    partnerApp,
    officialApp,
  }) => {
    const post = (app: string, events: unknown) =>
      api("/v4/webhooks.json", { app, method: "POST", json: { url: "https://r.example.com/", events } });
    for (const events of [[], ["job.finished"], ["job.failed", "job.failed"], ["ping"]])
      await refused(await post(partnerApp, events), 400, "events");
    expect((await refused(await post(partnerApp, ["job.failed", "subtitles.updated"]), 403, "events")).error).toContain(
      "subtitles.updated",
    );
    expect((await post(officialApp, ["subtitles.updated"])).status).toBe(201);
    const { webhook } = await create(partnerApp);
    const patch = await api(`/v4/webhooks/${webhook.id}.json`, {
      app: partnerApp,
      method: "PATCH",
      json: { events: ["completion.updated"] },
    });
    await refused(patch, 403, "events");
  });

  test("description: at most 200 characters; PATCH validates the URL as POST does", async ({ partnerApp }) => {
    const long = await api("/v4/webhooks.json", {
      app: partnerApp,
      method: "POST",
      json: { url: "https://r.example.com/", description: "x".repeat(201) },
    });
    await refused(long, 400, "description");
    const { webhook } = await create(partnerApp);
    await refused(
      await api(`/v4/webhooks/${webhook.id}.json`, { app: partnerApp, method: "PATCH", json: { url: "https://10.0.0.1/" } }),
      400,
      "url",
    );
  });
});

describe("deliveries, ping and redelivery", () => {
  test("ping and redeliver create deliveries; the list shows them newest first with the event rendered", async () => {
    const app = (await createApplication()).wireId;
    const { webhook } = await create(app, { events: ["job.failed"] });
    const pinged = await api(`/v4/webhooks/${webhook.id}/ping.json`, { app, method: "POST" });
    expect(pinged.status).toBe(202);
    const ping = ((await pinged.json()) as { delivery: Delivery }).delivery;
    expect(ping.event).toMatchObject({ type: "ping", data: { webhook_id: webhook.id, message: "ping" } });
    expect(ping).toMatchObject({ redelivery_of: null });
    const again = await api(`/v4/webhooks/${webhook.id}/deliveries/${ping.id}/redeliver.json`, { app, method: "POST" });
    expect(again.status).toBe(202);
    const redelivery = ((await again.json()) as { delivery: Delivery }).delivery;
    expect(redelivery.id).not.toBe(ping.id);
    expect(redelivery).toMatchObject({ redelivery_of: ping.id, event: { id: ping.event.id, type: "ping" } });
    const list = (await (await api(`/v4/webhooks/${webhook.id}/deliveries.json`, { app })).json()) as { response: Delivery[] };
    expect(list.response.map((d) => d.id)).toEqual([redelivery.id, ping.id]);
    expect(list.response[1].event).toEqual(ping.event);
    // The receiver may already have answered: a finished delivery has no next attempt.
    for (const d of list.response) if (["succeeded", "failed"].includes(d.status)) expect(d.next_attempt_at).toBeNull();
  });

  test("a job event is rendered with absolute URLs under API_ORIGIN", async () => {
    const app = await createApplication();
    const { webhook } = await create(app.wireId);
    const id = Number.parseInt(webhook.id, 10);
    const data = { job_id: "9j", job_type: "srt-import", status: "failed", path: "/v4/jobs/9j.json", result: null, error: "bad" };
    await recordEvent(db(), { type: "job.failed", applicationId: app.id, data });
    const list = (await (await api(`/v4/webhooks/${webhook.id}/deliveries.json`, { app: app.wireId })).json()) as { response: Delivery[] };
    expect(list.response[0].event).toMatchObject({
      type: "job.failed",
      data: { url: "http://127.0.0.1:8787/v4/jobs/9j.json", job_id: "9j" },
    });
    expect(list.response[0].event.data).not.toHaveProperty("path");
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)).all()).toHaveLength(1);
  });

  test("status filters the list; an unknown status is a 400 naming it", async () => {
    const app = (await createApplication()).wireId;
    const { webhook } = await create(app);
    const id = Number.parseInt(webhook.id, 10);
    for (let i = 0; i < 3; i++) await api(`/v4/webhooks/${webhook.id}/ping.json`, { app, method: "POST" });
    const rows = await db().select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)).all();
    await db()
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 8, lastAttemptAt: new Date(), lastStatusCode: 500, lastLatencyMs: 12, lastError: "HTTP 500" })
      .where(eq(webhookDeliveries.id, rows[0].id));
    const failed = (await (await api(`/v4/webhooks/${webhook.id}/deliveries.json?status=failed`, { app })).json()) as {
      response: Delivery[];
    };
    expect(failed.response).toHaveLength(1);
    expect(failed.response[0]).toMatchObject({
      id: `${rows[0].id}d`,
      status: "failed",
      next_attempt_at: null,
      last_attempt: { status_code: 500, latency_ms: 12, error: "HTTP 500" },
    });
    await refused(await api(`/v4/webhooks/${webhook.id}/deliveries.json?status=lost`, { app }), 400, "status");
  });

  test("another endpoint's delivery, or a malformed id, cannot be redelivered (404)", async () => {
    const app = (await createApplication()).wireId;
    const a = (await create(app)).webhook;
    const b = (await create(app)).webhook;
    const ping = ((await (await api(`/v4/webhooks/${a.id}/ping.json`, { app, method: "POST" })).json()) as { delivery: Delivery }).delivery;
    expect((await api(`/v4/webhooks/${b.id}/deliveries/${ping.id}/redeliver.json`, { app, method: "POST" })).status).toBe(404);
    expect((await api(`/v4/webhooks/${a.id}/deliveries/x${ping.id}/redeliver.json`, { app, method: "POST" })).status).toBe(404);
  });
});
