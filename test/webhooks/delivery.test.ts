import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { webhookEndpoints } from "../../src/db/schema";
import { verifyWebhookSignature } from "../../src/lib/webhook-signature";
import { BACKOFF_SECONDS, deliverDue, MAX_ATTEMPTS, PAUSE_AFTER_FAILURES, PAUSE_AFTER_SECONDS } from "../../src/webhooks/delivery";
import { db } from "../helpers";
import {
  clearWebhooks,
  clock,
  deliveriesOf,
  endpointFor,
  endpointRow,
  hang,
  interceptFetch,
  jobEvent,
  pingEvent,
  recordingEnv,
  secondsOf,
} from "./helpers";

let logs: string[];
beforeEach(async () => {
  await clearWebhooks();
  logs = [];
  const keep = (...args: unknown[]) => void logs.push(args.map(String).join(" "));
  vi.spyOn(console, "log").mockImplementation(keep);
  vi.spyOn(console, "warn").mockImplementation(keep);
  vi.spyOn(console, "error").mockImplementation(keep);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("webhook delivery: the request", () => {
  it("POSTs the event with its headers and a signature that verifies over the exact bytes received", async () => {
    const { app, endpoint } = await endpointFor();
    await db()
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 4, failingSince: new Date() })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const event = await jobEvent(app.id, 12);
    const { received } = interceptFetch();
    const { deps } = recordingEnv();
    const t = clock();

    const run = await deliverDue(deps, { now: t.now });
    expect(run.succeeded).toHaveLength(1);
    expect(received).toHaveLength(1);
    const [req] = received;
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(req.url).toBe(endpoint.url);
    expect(req.method).toBe("POST");
    expect(req.redirect).toBe("manual");
    expect(Object.fromEntries(req.headers)).toMatchObject({
      "content-type": "application/json",
      "user-agent": "media-catalogue-webhooks/1",
      "webhook-id": `${event.id}e`,
      "webhook-delivery": `${delivery.id}d`,
      "webhook-event": "job.succeeded",
      "webhook-attempt": "1",
      "webhook-timestamp": String(t.seconds()),
    });
    expect(JSON.parse(req.body)).toEqual({
      id: `${event.id}e`,
      type: "job.succeeded",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      data: {
        job_id: "12j",
        job_type: "srt-import",
        status: "succeeded",
        url: `${env.API_ORIGIN}/v4/jobs/12j.json`,
        result: { cues: 3 },
        error: null,
      },
    });

    const sig = req.headers.get("webhook-signature")!;
    const ts = req.headers.get("webhook-timestamp")!;
    expect(sig).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1=[0-9a-f]{64}$/);
    expect(await verifyWebhookSignature(endpoint.secret, sig, ts, req.body, 300, t.seconds())).toBe(true);
    expect(await verifyWebhookSignature("another secret", sig, ts, req.body, 300, t.seconds())).toBe(false);
    expect(await verifyWebhookSignature(endpoint.secret, sig, ts, `${req.body} `, 300, t.seconds())).toBe(false);
    expect(await verifyWebhookSignature(endpoint.secret, sig, ts, req.body, 300, t.seconds() + 301)).toBe(false);

    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, lastError: null, leaseUntil: null });
    expect(delivery.lastLatencyMs).toBeGreaterThanOrEqual(0);
    // A success ends the failure streak.
    expect(await endpointRow(endpoint.id)).toMatchObject({ consecutiveFailures: 0, failingSince: null, status: "active" });
    // One log line per attempt, and never the secret.
    expect(logs.some((l) => l.includes('"event":"webhook"') && l.includes('"transition":"succeeded"'))).toBe(true);
    expect(logs.join("\n")).not.toContain(endpoint.secret);
  });

  it("signs with both secrets while a rotation overlaps, then with the new one only", async () => {
    const t = clock();
    const { app, endpoint } = await endpointFor({
      previousSecret: "whsec_old",
      previousSecretUntil: new Date((t.seconds() + 3600) * 1000),
    });
    await jobEvent(app.id);
    await jobEvent(app.id);
    const { received } = interceptFetch();
    const { deps } = recordingEnv();

    await deliverDue(deps, { now: t.now });
    await db()
      .update(webhookEndpoints)
      .set({ previousSecretUntil: new Date((t.seconds() - 1) * 1000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await jobEvent(app.id);
    await deliverDue(deps, { now: t.now });

    expect(received).toHaveLength(3);
    const [during, , after] = received;
    const header = during.headers.get("webhook-signature")!;
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}= v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
    const ts = during.headers.get("webhook-timestamp")!;
    for (const secret of [endpoint.secret, "whsec_old"]) {
      expect(await verifyWebhookSignature(secret, header, ts, during.body, 300, t.seconds())).toBe(true);
    }
    const single = after.headers.get("webhook-signature")!;
    expect(single).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1=[0-9a-f]{64}$/);
    expect(await verifyWebhookSignature("whsec_old", single, after.headers.get("webhook-timestamp"), after.body, 300, t.seconds())).toBe(
      false,
    );
  });
});

describe("webhook delivery: failures", () => {
  it("retries on the backoff schedule with the same event id, then marks the delivery failed", async () => {
    const { app, endpoint } = await endpointFor();
    const event = await jobEvent(app.id);
    const { received } = interceptFetch(() => new Response("boom", { status: 500 }));
    const { deps, sent } = recordingEnv();
    const t = clock();

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // Not a second early.
      if (attempt > 1) {
        t.advance(BACKOFF_SECONDS[attempt - 2] - 1);
        expect((await deliverDue(deps, { now: t.now })).rounds).toBe(0);
        t.advance(1);
      }
      const run = await deliverDue(deps, { now: t.now });
      expect(run.rounds).toBe(1);
      const [d] = await deliveriesOf(endpoint.id);
      expect(d).toMatchObject({ attempts: attempt, lastStatusCode: 500, lastError: "HTTP 500" });
      if (attempt < MAX_ATTEMPTS) {
        expect(d.status).toBe("pending");
        expect(secondsOf(d.nextAttemptAt)).toBe(t.seconds() + BACKOFF_SECONDS[attempt - 1]);
        // The pump message for the retry is delayed by the backoff, so the attempt is on time.
        expect(sent.at(-1)).toEqual({ body: { kind: "webhook-deliveries" }, delaySeconds: BACKOFF_SECONDS[attempt - 1] });
      } else {
        expect(d.status).toBe("failed");
      }
    }
    expect(received.map((r) => r.headers.get("webhook-attempt"))).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    expect(new Set(received.map((r) => r.headers.get("webhook-id")))).toEqual(new Set([`${event.id}e`]));
    // Failed for good: nothing is due any more.
    t.advance(86_400);
    expect((await deliverDue(deps, { now: t.now })).rounds).toBe(0);
    expect(BACKOFF_SECONDS.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(20.6, 1);
  });

  it("a 3xx is a failure (redirects are not followed), a network error keeps its message", async () => {
    const { app, endpoint } = await endpointFor();
    await jobEvent(app.id);
    const { received, setReply } = interceptFetch(
      () => new Response(null, { status: 302, headers: { location: "https://elsewhere.test/" } }),
    );
    const { deps } = recordingEnv();
    const t = clock();
    await deliverDue(deps, { now: t.now });
    expect(received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({
      status: "pending",
      lastStatusCode: 302,
      lastError: "HTTP 302: redirect not followed",
    });

    setReply(() => {
      throw new TypeError("Network connection lost.");
    });
    t.advance(BACKOFF_SECONDS[0]);
    await deliverDue(deps, { now: t.now });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({
      attempts: 2,
      lastStatusCode: null,
      lastError: "Network connection lost.",
    });
  });

  it("gives up on a receiver that does not answer in time", async () => {
    const { app, endpoint } = await endpointFor();
    await jobEvent(app.id);
    interceptFetch(hang);
    const { deps } = recordingEnv();
    const run = await deliverDue(deps, { now: clock().now, timeoutMs: 50 });
    expect(run.retrying).toHaveLength(1);
    const [d] = await deliveriesOf(endpoint.id);
    expect(d).toMatchObject({ status: "pending", lastStatusCode: null, lastError: "timeout after 0.05 s" });
    expect(d.lastLatencyMs).toBeGreaterThanOrEqual(40);
  });
});

describe("webhook delivery: automatic pause", () => {
  it(`pauses an endpoint after ${PAUSE_AFTER_FAILURES} failures in a row spanning an hour; its deliveries wait, a ping still goes`, async () => {
    const { app, endpoint } = await endpointFor();
    for (let i = 0; i < PAUSE_AFTER_FAILURES; i++) await jobEvent(app.id, i + 1);
    const { received, setReply } = interceptFetch(() => new Response("down", { status: 503 }));
    const { deps } = recordingEnv();
    const t = clock();
    const start = t.seconds();

    await deliverDue(deps, { now: t.now });
    t.advance(BACKOFF_SECONDS[0]);
    await deliverDue(deps, { now: t.now });
    // Twice the threshold, but within ten seconds: not paused.
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "active", consecutiveFailures: 2 * PAUSE_AFTER_FAILURES });
    expect(secondsOf((await endpointRow(endpoint.id)).failingSince)).toBe(start);

    t.set(start + PAUSE_AFTER_SECONDS);
    await deliverDue(deps, { now: t.now });
    const paused = await endpointRow(endpoint.id);
    expect(paused).toMatchObject({ status: "paused", consecutiveFailures: 3 * PAUSE_AFTER_FAILURES });
    expect(secondsOf(paused.pausedAt)).toBe(t.seconds());
    const since = new Date(start * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    expect(paused.pausedReason).toBe(`paused after ${3 * PAUSE_AFTER_FAILURES} failed attempts in a row since ${since}; last: HTTP 503`);

    // Due, but the endpoint is paused: they are held (for the application to resume it), out of every claim's way.
    await jobEvent(app.id, 99);
    t.advance(86_400);
    const before = received.length;
    expect((await deliverDue(deps, { now: t.now })).rounds).toBe(0);
    expect(received.length).toBe(before);
    expect((await deliveriesOf(endpoint.id)).filter((d) => d.status === "held")).toHaveLength(PAUSE_AFTER_FAILURES + 1);
    expect((await deliveriesOf(endpoint.id)).filter((d) => d.status === "pending")).toHaveLength(0);

    // A ping is how the application checks the receiver: it goes out, and its success ends the streak.
    setReply(() => new Response(null, { status: 204 }));
    const ping = await pingEvent(endpoint.id, app.id);
    const run = await deliverDue(deps, { now: t.now });
    expect(run.succeeded).toHaveLength(1);
    expect(received.at(-1)!.headers.get("webhook-id")).toBe(`${ping.id}e`);
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: "paused", consecutiveFailures: 0, failingSince: null });

    // Resumed (as the endpoints API does): the trigger releases the held deliveries, due at once, and they go out.
    await db()
      .update(webhookEndpoints)
      .set({ status: "active", pausedReason: null, pausedAt: null })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const resumed = await deliverDue(deps, { now: t.now });
    expect(resumed.succeeded).toHaveLength(PAUSE_AFTER_FAILURES + 1);
    expect(resumed.rounds).toBe(2);
  });
});
