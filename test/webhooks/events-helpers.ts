import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../src/db/schema";
import { WEBHOOK_EVENTS, type WebhookEventType } from "../../src/domain/webhook-events";
import { renderEventData } from "../../src/webhooks/event-body";
import { db } from "../helpers";

/**
 * Endpoints are rows written here (the endpoints API is tested on its own), paused by default: the real webhook
 * consumer, woken by the pump messages the writes send, only sends to active endpoints, so their deliveries stay
 * `held` for the assertions (the fan-out trigger gives paused endpoints their deliveries all the same, and the
 * trigger webhook_deliveries_hold_when_paused holds them until the endpoint is resumed).
 */
export async function addEndpoint(applicationId: number, events: WebhookEventType[], status: "active" | "paused" = "paused") {
  const [row] = await db()
    .insert(webhookEndpoints)
    .values({ applicationId, url: `https://receiver.invalid/${crypto.randomUUID()}`, events, status, secret: "whsec_test" })
    .returning();
  return row;
}

export const eventRows = (type: WebhookEventType) =>
  db().select().from(webhookEvents).where(eq(webhookEvents.type, type)).orderBy(asc(webhookEvents.id)).all();

/** The events of a type whose stored data has these fields. */
export async function eventsWhere(type: WebhookEventType, fields: Record<string, unknown>) {
  return (await eventRows(type)).filter((e) => Object.entries(fields).every(([k, v]) => e.data[k] === v));
}

/** The one event of a type matching `fields`, its data as the wire has it, checked with the catalogue's schema. */
export async function onlyEvent(type: WebhookEventType, fields: Record<string, unknown>) {
  const found = await eventsWhere(type, fields);
  expect(found, `${type} ${JSON.stringify(fields)}`).toHaveLength(1);
  const data = WEBHOOK_EVENTS[type].data.parse(renderEventData(found[0].data, env.API_ORIGIN));
  return { event: found[0], data: data as Record<string, unknown> };
}

/** The endpoint ids an event is being delivered to, each delivery held for its paused endpoint. */
export async function deliveredTo(eventId: number) {
  const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).all();
  for (const r of rows) expect(r.status).toBe("held");
  return rows.map((r) => r.endpointId).sort((a, b) => a - b);
}

/** A WEBHOOKS binding that counts pump messages, for services called directly. */
export function countingDeps() {
  const pumped: unknown[] = [];
  const WEBHOOKS = { send: async (body: unknown) => void pumped.push(body) } as unknown as Env["WEBHOOKS"];
  return { pumped, deps: { db: db(), env: { ...env, WEBHOOKS } as Env } };
}
