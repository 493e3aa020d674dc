import { log } from "../lib/log";
import { z } from "zod";

/**
 * The one message of the WEBHOOKS queue: "send what is due". Deliveries live in D1 (webhook_deliveries), so a
 * message names none: the consumer claims due deliveries itself, several consumers never claim the same one, and a
 * lost or duplicated message loses or doubles nothing (the sweeper sends one whenever deliveries are overdue).
 */
export const WebhookPumpMessage = z.object({ kind: z.literal("webhook-deliveries") });
export type WebhookPumpMessage = z.infer<typeof WebhookPumpMessage>;

/**
 * Asks the consumer to send due deliveries, after `delaySeconds` (a retry's backoff). A failed send is logged, not
 * thrown: the change that recorded the event has committed, and the sweeper finds its deliveries within a minute.
 */
export async function sendDeliveries(env: Pick<Env, "WEBHOOKS">, delaySeconds = 0) {
  try {
    await env.WEBHOOKS.send({ kind: "webhook-deliveries" } satisfies WebhookPumpMessage, delaySeconds > 0 ? { delaySeconds } : undefined);
  } catch (err) {
    log("error", { event: "webhook", message: "pump message not sent", error: String(err) });
  }
}
