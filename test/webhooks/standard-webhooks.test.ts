import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toBase64Url } from "../../src/lib/encoding";
import { standardSecret, verifyWebhookSignature } from "../../src/lib/webhook-signature";
import { deliverDue } from "../../src/webhooks/delivery";
import { api, createApplication } from "../helpers";
import { clearWebhooks, clock, endpointFor, interceptFetch, jobEvent, recordingEnv } from "./helpers";

/**
 * Deliveries are signed the Standard Webhooks way (docs/decisions.md, "Signed webhooks"): the `standardwebhooks`
 * library from npm, as a receiver would use it, verifies a real delivery with the secret the API showed, during and
 * after a rotation; the legacy `v1=<hex>` value rides beside it for its deprecation period.
 */

beforeEach(async () => {
  await clearWebhooks();
  vi.spyOn(console, "log").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const headersOf = (h: Headers) => Object.fromEntries(h);

describe("Standard Webhooks", () => {
  it("the library verifies a delivery with the secret shown at creation, and with both secrets while a rotation overlaps", async () => {
    const app = await createApplication();
    const created = await api("/v4/webhooks.json", { method: "POST", app: app.wireId, json: { url: "https://receiver.example.com/std" } });
    expect(created.status).toBe(201);
    const { webhook, secret } = (await created.json()) as { webhook: { id: string }; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const { received } = interceptFetch();
    const { deps } = recordingEnv();
    const event = await jobEvent(app.id, 31);
    await deliverDue(deps, { now: clock().now });
    expect(received).toHaveLength(1);
    const [first] = received;
    expect(new Webhook(secret).verify(first.body, headersOf(first.headers))).toMatchObject({ id: `${event.id}e`, type: "job.succeeded" });
    expect(() =>
      new Webhook(standardSecret(crypto.getRandomValues(new Uint8Array(32)))).verify(first.body, headersOf(first.headers)),
    ).toThrow();
    expect(() => new Webhook(secret).verify(`${first.body} `, headersOf(first.headers))).toThrow();
    // The legacy value is still there and verifies as the README's receiver does.
    const legacy = await verifyWebhookSignature(
      secret,
      first.headers.get("webhook-signature"),
      first.headers.get("webhook-timestamp"),
      first.body,
    );
    expect(legacy).toBe(true);

    const rotated = await api(`/v4/webhooks/${webhook.id}/secret.json`, { method: "POST", app: app.wireId });
    expect(rotated.status).toBe(200);
    const next = ((await rotated.json()) as { secret: string }).secret;
    expect(next).not.toBe(secret);
    await jobEvent(app.id, 32);
    await deliverDue(deps, { now: clock().now });
    expect(received).toHaveLength(2);
    const second = received[1];
    for (const s of [next, secret])
      expect(new Webhook(s).verify(second.body, headersOf(second.headers))).toMatchObject({ type: "job.succeeded" });
  });

  it("an endpoint whose secret predates the standard form (base64url) keeps working: legacy as it is, standard once re-encoded", async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const old = `whsec_${toBase64Url(bytes)}`;
    const { app, endpoint } = await endpointFor({ secret: old });
    const { received } = interceptFetch();
    await jobEvent(app.id);
    await deliverDue(recordingEnv().deps, { now: clock().now });
    const [req] = received;
    expect(await verifyWebhookSignature(old, req.headers.get("webhook-signature"), req.headers.get("webhook-timestamp"), req.body)).toBe(
      true,
    );
    expect(new Webhook(standardSecret(bytes)).verify(req.body, headersOf(req.headers))).toMatchObject({ type: "job.succeeded" });
    expect(endpoint.secret).toBe(old);
  });
});
