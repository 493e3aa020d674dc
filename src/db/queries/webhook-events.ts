import type { DB } from "../client";
import { webhookEvents } from "../schema";
import type { StoredEventData, WebhookEventType } from "../../domain/webhook-events";

/**
 * An event to record in the same batch as the change that causes it (docs/decisions.md, "Signed webhooks"): put the
 * returned statement in that change's `db.batch`. The trigger webhook_events_fan_out (migrations/0020_webhooks.sql)
 * creates its deliveries in the same transaction; after the batch, `sendDeliveries(env)` (src/webhooks/pump.ts) asks
 * the consumer to send them, and the sweeper sends them anyway if that message is lost. One row written per event.
 *
 * `applicationId` set: only that application's endpoints hear it; left out: every official application's.
 * `endpointId`: that endpoint only (ping).
 */
export type EventInput = { type: WebhookEventType; data: StoredEventData; applicationId?: number; endpointId?: number };

export const recordEvent = (db: DB, event: EventInput) =>
  db.insert(webhookEvents).values({
    type: event.type,
    data: event.data,
    applicationId: event.applicationId ?? null,
    endpointId: event.endpointId ?? null,
  });
