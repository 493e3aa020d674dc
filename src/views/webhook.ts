import type { DeliveryRow, WebhookEndpointRow } from "../db/queries/webhook-endpoints";
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, maySubscribe } from "../domain/webhook-events";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import { webhookEventView } from "../webhooks/event-body";

/** An endpoint as its application sees it: never a secret, only until when a rotated-out one still signs. */
export function webhookView(e: WebhookEndpointRow, origin: string, now = new Date()) {
  const id = formatId(e.id, "w");
  const overlap = e.previousSecret && e.previousSecretUntil && e.previousSecretUntil > now ? e.previousSecretUntil : null;
  return {
    id,
    url: e.url,
    description: e.description ?? null,
    events: e.events,
    status: e.status,
    paused_reason: e.status === "paused" ? (e.pausedReason ?? null) : null,
    paused_at: e.status === "paused" ? isoTime(e.pausedAt) : null,
    failures: { consecutive: e.consecutiveFailures, since: isoTime(e.failingSince) },
    previous_secret_expires_at: isoTime(overlap),
    created_at: isoTime(e.createdAt),
    updated_at: isoTime(e.updatedAt),
    deliveries_url: `${origin}/v4/webhooks/${id}/deliveries.json`,
  };
}

const FINISHED = new Set(["succeeded", "failed"]);

/** One delivery with the event it carries, rendered as the receiver gets it (URLs under API_ORIGIN). */
export function deliveryView(d: DeliveryRow, apiOrigin: string) {
  return {
    id: formatId(d.id, "d"),
    event: webhookEventView({ id: d.eventId, type: d.eventType, data: d.eventData, createdAt: d.eventCreatedAt }, apiOrigin),
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: FINISHED.has(d.status) ? null : isoTime(d.nextAttemptAt),
    last_attempt: d.lastAttemptAt
      ? {
          at: isoTime(d.lastAttemptAt)!,
          status_code: d.lastStatusCode ?? null,
          latency_ms: d.lastLatencyMs ?? null,
          error: d.lastError ?? null,
        }
      : null,
    redelivery_of: d.redeliveryOf === null ? null : formatId(d.redeliveryOf, "d"),
    created_at: isoTime(d.createdAt),
  };
}

/** The event catalogue; with a calling application, whether it may subscribe to each type. */
export function eventCatalogueView(application?: { official: boolean }) {
  return WEBHOOK_EVENT_TYPES.map((type) => ({
    type,
    description: WEBHOOK_EVENTS[type].description,
    audience: WEBHOOK_EVENTS[type].audience,
    subscribable: (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(type),
    ...(application ? { available: maySubscribe(type, application) } : {}),
  }));
}
