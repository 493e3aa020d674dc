import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { queue } from "../../queues";
import type { DB } from "../../src/db/client";
import { createDb, emptyStats, instrument } from "../../src/db/client";
import { claimDueDeliveries } from "../../src/db/queries/webhook-deliveries";
import { recordEvent } from "../../src/db/queries/webhook-events";
import { webhookDeliveries, webhookEvents } from "../../src/db/schema";
import { sweepJobs } from "../../src/jobs/sweeper";
import { deliverDue, EVENT_RETENTION_DAYS, LEASE_SECONDS, webhookQueue } from "../../src/webhooks/delivery";
import { sweepWebhooks } from "../../src/webhooks/sweep";
import { db } from "../helpers";
import { clearWebhooks, clock, deliveriesOf, endpointFor, interceptFetch, jobEvent, recordingEnv } from "./helpers";

beforeEach(async () => {
  await clearWebhooks();
  vi.spyOn(console, "log").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const pump = { kind: "webhook-deliveries" };
const batchOf = (bodies: unknown[]) =>
  createMessageBatch(
    env.WEBHOOKS_QUEUE,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );

describe("webhook consumer: at least once, never twice without a crash", () => {
  it("the Worker's queue entry sends due deliveries for a pump message; duplicates and redeliveries send nothing again", async () => {
    const { app, endpoint } = await endpointFor();
    await jobEvent(app.id);
    await jobEvent(app.id);
    const { received } = interceptFetch();

    // Two copies of the message in one batch, and a malformed one: acked, one run.
    const batch = batchOf([pump, pump, { kind: "something else" }]);
    const ctx = createExecutionContext();
    await queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toHaveLength(3);
    expect(received).toHaveLength(2);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded"]);

    // The same message delivered again (the queue is at least once): nothing left to send.
    const again = batchOf([pump]);
    await queue(again, env);
    expect((await getQueueResult(again, createExecutionContext())).explicitAcks).toHaveLength(1);
    expect(received).toHaveLength(2);
    expect(new Set(received.map((r) => r.headers.get("webhook-delivery"))).size).toBe(2);
  });

  it("two consumers running at once never claim the same delivery", async () => {
    const { app } = await endpointFor();
    for (let i = 0; i < 25; i++) await jobEvent(app.id, i + 1);
    const { received } = interceptFetch();
    const { deps } = recordingEnv();
    const runs = await Promise.all([deliverDue(deps), deliverDue(deps), deliverDue(deps)]);
    expect(runs.flatMap((r) => r.succeeded)).toHaveLength(25);
    expect(new Set(received.map((r) => r.headers.get("webhook-delivery"))).size).toBe(25);
    expect(received).toHaveLength(25);
  });

  it("no event is lost when a consumer dies after claiming: the lease expires, the sweep puts them back, the next run sends them", async () => {
    const { app, endpoint } = await endpointFor();
    const events = [await jobEvent(app.id, 1), await jobEvent(app.id, 2)];
    const { received } = interceptFetch();
    const { deps, sent } = recordingEnv();
    const t = clock();

    // A consumer that claimed and died before sending anything.
    const claimed = await claimDueDeliveries(db(), { nowSeconds: t.seconds(), leaseSeconds: LEASE_SECONDS, limit: 10 });
    expect(claimed).toHaveLength(2);
    // Held by the dead consumer: another run leaves them alone, and so does the sweep while the lease lasts.
    expect((await deliverDue(deps, { now: t.now })).rounds).toBe(0);
    t.advance(LEASE_SECONDS - 1);
    expect(await sweepWebhooks(deps, t.now())).toEqual({ reclaimed: 0, pumped: false, pruned: 0 });
    expect(sent).toEqual([]);

    t.advance(1);
    expect(await sweepWebhooks(deps, t.now())).toEqual({ reclaimed: 2, pumped: true, pruned: 0 });
    expect(sent).toEqual([{ body: pump, delaySeconds: 0 }]);
    const back = await deliveriesOf(endpoint.id);
    expect(back.map((d) => [d.status, d.attempts])).toEqual([
      ["pending", 1],
      ["pending", 1],
    ]);
    expect(back[0].lastError).toContain("lease expired");

    const run = await deliverDue(deps, { now: t.now });
    expect(run.succeeded).toHaveLength(2);
    expect(received.map((r) => r.headers.get("webhook-id")).sort()).toEqual(events.map((e) => `${e.id}e`).sort());
    // The lost attempt counted.
    expect(received.map((r) => r.headers.get("webhook-attempt"))).toEqual(["2", "2"]);
  });

  it("a consumer that dies after sending but before recording: the receiver gets the event again, with the same id", async () => {
    const { app, endpoint } = await endpointFor();
    const event = await jobEvent(app.id);
    const { received } = interceptFetch();
    const { deps } = recordingEnv();
    const t = clock();

    // D1 fails on the batch that records the results (the targets' read, made before sending, works).
    const real = db();
    const crashing = Object.assign(Object.create(real), {
      batch: (statements: Parameters<DB["batch"]>[0]) => {
        if (received.length) throw new Error("isolate evicted");
        return real.batch(statements);
      },
    }) as DB;
    const batch = batchOf([pump]);
    await webhookQueue(batch, { db: crashing, env: deps.env }, { now: t.now });
    // The message is retried, and the delivery stays claimed.
    expect((await getQueueResult(batch, createExecutionContext())).retryMessages).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("sending");

    t.advance(LEASE_SECONDS);
    expect((await sweepWebhooks(deps, t.now())).reclaimed).toBe(1);
    await deliverDue(deps, { now: t.now });
    expect(received.map((r) => r.headers.get("webhook-id"))).toEqual([`${event.id}e`, `${event.id}e`]);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});

describe("webhook sweep", () => {
  it("asks the consumer to run when a delivery is due (its pump message was lost), not when none is", async () => {
    const { app } = await endpointFor();
    const { deps, sent } = recordingEnv();
    const t = clock();
    expect(await sweepWebhooks(deps, t.now())).toEqual({ reclaimed: 0, pumped: false, pruned: 0 });
    await jobEvent(app.id);
    expect(await sweepWebhooks(deps, t.now())).toEqual({ reclaimed: 0, pumped: true, pruned: 0 });
    expect(sent).toEqual([{ body: pump, delaySeconds: 0 }]);
  });

  it("does not pump for a paused endpoint's deliveries", async () => {
    const { app } = await endpointFor({ status: "paused" });
    await jobEvent(app.id);
    const { deps, sent } = recordingEnv();
    expect((await sweepWebhooks(deps, clock().now())).pumped).toBe(false);
    expect(sent).toEqual([]);
  });

  it(`prunes events older than ${EVENT_RETENTION_DAYS} days with their deliveries, and reports it through the job sweep`, async () => {
    const { app, endpoint } = await endpointFor();
    const old = await jobEvent(app.id, 1);
    const recent = await jobEvent(app.id, 2);
    await db().update(webhookDeliveries).set({ status: "succeeded" }).where(eq(webhookDeliveries.endpointId, endpoint.id));
    const day = 86_400;
    const now = Math.floor(Date.now() / 1000);
    await db()
      .update(webhookEvents)
      .set({ createdAt: new Date((now - EVENT_RETENTION_DAYS * day - 60) * 1000) })
      .where(eq(webhookEvents.id, old.id));
    const { deps } = recordingEnv();

    const result = await sweepJobs(deps, new Date(now * 1000));
    expect(result.webhooks).toEqual({ reclaimed: 0, pumped: false, pruned: 1 });
    const left = await db().select({ id: webhookEvents.id }).from(webhookEvents);
    expect(left).toEqual([{ id: recent.id }]);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    // Nothing to do: the job sweep's result stays as it was.
    expect(await sweepJobs(deps, new Date(now * 1000))).toEqual({ resent: [], failed: [] });
    const [{ n }] = await db()
      .select({ n: sql<number>`count(*)` })
      .from(webhookDeliveries);
    expect(n).toBe(1);
  });

  it("reads a few rows when nothing is due or old, however many deliveries were made", async () => {
    const { app } = await endpointFor();
    const events = Array.from({ length: 300 }, (_, i) =>
      recordEvent(db(), { type: "job.succeeded", applicationId: app.id, data: { job_id: `${i + 1}j` } }),
    );
    await db().batch([events[0], ...events.slice(1)]);
    await db().update(webhookDeliveries).set({ status: "succeeded" });
    const stats = emptyStats();
    const { env: recording } = recordingEnv();
    expect(await sweepWebhooks({ db: createDb(instrument(env.DB, stats)), env: recording }, clock().now())).toEqual({
      reclaimed: 0,
      pumped: false,
      pruned: 0,
    });
    expect(stats.rowsRead).toBeLessThan(10);
  });
});
