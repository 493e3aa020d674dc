import { webhookEvents } from "../db/schema";
import type { WebhookEventType } from "../domain/webhook-events";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

type StoredEvent = Pick<typeof webhookEvents.$inferSelect, "id" | "type" | "data" | "createdAt">;

/**
 * The stored `data` as the wire has it: every `path` becomes `url` and every `<name>_path` becomes `<name>_url`,
 * absolute under `origin` (API_ORIGIN: deliveries are made in the queue consumer, which has no request).
 */
export function renderEventData(data: Record<string, unknown>, origin: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if ((key === "path" || key.endsWith("_path")) && typeof value === "string") out[`${key.slice(0, -4)}url`] = `${origin}${value}`;
    else out[key] = value;
  }
  return out;
}

/** The body of every delivery (README.md "Webhooks"): `id` is the same on every attempt and redelivery, for deduplication. */
export function webhookEventView(event: StoredEvent, origin: string) {
  return {
    id: formatId(event.id, "e"),
    type: event.type as WebhookEventType,
    created_at: isoTime(event.createdAt),
    data: renderEventData(event.data, origin),
  };
}
