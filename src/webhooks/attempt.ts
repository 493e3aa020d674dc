import type { DeliveryEndpoint, DeliveryEvent } from "../db/queries/webhook-deliveries";
import { formatId } from "../lib/ids";
import { signatureHeader } from "../lib/webhook-signature";
import { webhookEventView } from "./event-body";

/** Identifies the sender to receivers and their firewalls; bump the version if the request format changes. */
const WEBHOOK_USER_AGENT = "media-catalogue-webhooks/1";

/** What one HTTP attempt gave: a 2xx is a success, anything else (or no response) a failure with its reason. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** At most 200 characters; null on success. */
  error: string | null;
}

const MAX_ERROR_LENGTH = 200;

/** The signing secrets: the current one, and the previous one while the rotation's overlap lasts. */
function signingSecrets(endpoint: DeliveryEndpoint, nowSeconds: number): string[] {
  const until = endpoint.previousSecretUntil ? Math.floor(endpoint.previousSecretUntil.getTime() / 1000) : 0;
  return endpoint.previousSecret && until > nowSeconds ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
}

/** The exact bytes POSTed, and signed: the same event renders the same body on every attempt and redelivery. */
const deliveryBody = (event: DeliveryEvent, origin: string) => JSON.stringify(webhookEventView(event, origin));

/**
 * POSTs one delivery and reports how it went; never throws. Redirects are not followed: a receiver that moved must
 * be updated by its application, and following one would send the signed body somewhere nobody registered.
 */
export async function attemptDelivery(
  input: {
    deliveryId: number;
    attempt: number;
    event: DeliveryEvent;
    endpoint: DeliveryEndpoint;
    origin: string;
    nowSeconds: number;
    timeoutMs: number;
  },
  send: typeof fetch = fetch,
): Promise<AttemptOutcome> {
  const { event, endpoint, nowSeconds, timeoutMs } = input;
  const body = deliveryBody(event, input.origin);
  const eventId = formatId(event.id, "e");
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await send(endpoint.url, {
      method: "POST",
      body,
      redirect: "manual",
      signal,
      headers: {
        "content-type": "application/json",
        "user-agent": WEBHOOK_USER_AGENT,
        "webhook-id": eventId,
        "webhook-delivery": formatId(input.deliveryId, "d"),
        "webhook-event": event.type,
        "webhook-attempt": String(input.attempt),
        "webhook-timestamp": String(nowSeconds),
        "webhook-signature": await signatureHeader(signingSecrets(endpoint, nowSeconds), eventId, nowSeconds, body),
      },
    });
    const latencyMs = latency();
    // The body is not kept: reading it would only cost time, and a receiver's page is not ours to store.
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status, latencyMs, error: null };
    const error = res.status >= 300 && res.status < 400 ? `HTTP ${res.status}: redirect not followed` : `HTTP ${res.status}`;
    return { ok: false, statusCode: res.status, latencyMs, error };
  } catch (err) {
    // Tell our own timeout from the receiver's failures by the signal, not by the error's name (runtimes differ).
    const error = signal.aborted ? `timeout after ${timeoutMs / 1000} s` : `${err instanceof Error ? err.message : String(err)}`;
    return { ok: false, statusCode: null, latencyMs: latency(), error: error.slice(0, MAX_ERROR_LENGTH) || "fetch failed" };
  }
}
