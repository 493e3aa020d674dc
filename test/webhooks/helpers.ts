import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import { recordEvent } from "../../src/db/queries/webhook-events";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../src/db/schema";
import { createApplication, db } from "../helpers";

/** What the intercepted receiver got: the request as it arrived, body read as the exact text sent. */
export interface Received {
  url: string;
  method: string;
  redirect: string | undefined;
  headers: Headers;
  body: string;
}

type Reply = (req: Received, signal: AbortSignal | undefined) => Response | Promise<Response>;

/**
 * Intercepts outbound fetch (the consumer runs in the test's isolate, so a spy on globalThis.fetch sees its
 * requests) and answers with `reply`; restored by `vi.restoreAllMocks()` in afterEach.
 */
export function interceptFetch(reply: Reply = () => new Response("ok")) {
  const received: Received[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    const got: Received = {
      url: req.url,
      method: req.method,
      redirect: init?.redirect,
      headers: req.headers,
      body: await req.text(),
    };
    received.push(got);
    return reply(got, init?.signal ?? undefined);
  });
  return { received, spy, setReply: (r: Reply) => void (reply = r) };
}

/** A receiver that never answers: the request ends only when its signal aborts, as a real fetch would. */
export const hang: Reply = (_req, signal) =>
  new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(signal.reason));
  });

/** A WEBHOOKS binding that records the pump messages instead of running the real consumer in the background. */
export function recordingEnv() {
  const sent: { body: unknown; delaySeconds: number }[] = [];
  const WEBHOOKS = {
    send: async (body: unknown, opts?: QueueSendOptions) => void sent.push({ body, delaySeconds: opts?.delaySeconds ?? 0 }),
    sendBatch: async () => undefined,
  } as unknown as Env["WEBHOOKS"];
  return { sent, env: { ...env, WEBHOOKS } as Env, deps: { db: db(), env: { ...env, WEBHOOKS } as Env } };
}

/** A movable clock for the consumer and the sweeper, starting now (events are stamped with the real time). */
export function clock() {
  let t = Math.floor(Date.now() / 1000) + 1;
  return {
    now: () => new Date(t * 1000),
    seconds: () => t,
    set: (seconds: number) => void (t = seconds),
    advance: (seconds: number) => void (t += seconds),
  };
}

let counter = 0;

/** An application with one endpoint subscribed to its job events (and, for official ones, the catalogue). */
export async function endpointFor(
  opts: { official?: boolean; status?: "active" | "paused"; events?: string[] } & Partial<typeof webhookEndpoints.$inferInsert> = {},
) {
  const app = await createApplication({ official: opts.official });
  counter += 1;
  const { official: _o, ...values } = opts;
  const [endpoint] = await db()
    .insert(webhookEndpoints)
    .values({
      url: `https://receiver.test/hooks/${counter}`,
      events: ["job.succeeded", "job.failed", "container.updated"],
      secret: `whsec_${crypto.randomUUID()}`,
      ...values,
      applicationId: app.id,
    })
    .returning();
  return { app, endpoint };
}

/** A job.succeeded event for `applicationId`, recorded as a write service does; returns the event row. */
export async function jobEvent(applicationId: number, jobId = 7) {
  const [event] = await recordEvent(db(), {
    type: "job.succeeded",
    applicationId,
    data: {
      job_id: `${jobId}j`,
      job_type: "srt-import",
      status: "succeeded",
      path: `/v4/jobs/${jobId}j.json`,
      result: { cues: 3 },
      error: null,
    },
  }).returning();
  return event;
}

export const pingEvent = async (endpointId: number, applicationId: number) =>
  (
    await recordEvent(db(), {
      type: "ping",
      applicationId,
      endpointId,
      data: { webhook_id: `${endpointId}w`, message: "ping" },
    }).returning()
  )[0];

export const deliveriesOf = (endpointId: number) =>
  db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.id);

export const endpointRow = async (id: number) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];

/** Each test starts with no webhook rows: the consumer claims whatever is due in the whole database. */
export async function clearWebhooks() {
  await db().delete(webhookEvents);
  await db().delete(webhookEndpoints);
}

export const secondsOf = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
