import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordEvent } from "../../src/db/queries/webhook-events";
import { applications } from "../../src/db/schema";
import { verifyWebhookSignature } from "../../src/lib/webhook-signature";
import { sendDeliveries } from "../../src/webhooks/pump";
import { db } from "../helpers";
import { clearWebhooks, deliveriesOf, endpointFor, interceptFetch } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("webhooks end to end in workerd", () => {
  it("an event recorded with its change reaches the receiver as a signed POST through the real queue", async () => {
    await clearWebhooks();
    const { app, endpoint } = await endpointFor({ official: true });
    const { received } = interceptFetch(() => new Response(null, { status: 204 }));

    // The change and its event in one batch, as a write service does; then the pump message on the real queue.
    const [, [event]] = await db().batch([
      db()
        .update(applications)
        .set({ name: `${app.name} (renamed)` })
        .where(eq(applications.id, app.id)),
      recordEvent(db(), { type: "container.updated", data: { container_id: "12c", path: "/v4/containers/12c.json" } }).returning(),
    ]);
    await sendDeliveries(env);

    // The queue's consumer runs in this isolate, so the intercepted fetch sees its request.
    const deadline = Date.now() + 15_000;
    while (!received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(1);
    const [req] = received;
    expect(req.url).toBe(endpoint.url);
    expect(req.headers.get("webhook-id")).toBe(`${event.id}e`);
    expect(JSON.parse(req.body)).toMatchObject({
      id: `${event.id}e`,
      type: "container.updated",
      data: { container_id: "12c", url: `${env.API_ORIGIN}/v4/containers/12c.json` },
    });
    expect(
      await verifyWebhookSignature(endpoint.secret, req.headers.get("webhook-signature"), req.headers.get("webhook-timestamp"), req.body),
    ).toBe(true);

    while ((await deliveriesOf(endpoint.id))[0].status !== "succeeded" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 204 });
  });
});
