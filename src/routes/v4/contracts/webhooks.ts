import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from "../../../db/schema";
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../../../domain/webhook-events";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { jsonBody } from "../../../lib/schemas";
import { LEGACY_SIGNATURE_UNTIL } from "../../../lib/webhook-signature";
import { MAX_WEBHOOK_URL_LENGTH } from "../../../lib/webhook-url";
import { MAX_ENDPOINTS_PER_APPLICATION, MAX_WEBHOOK_DESCRIPTION_LENGTH } from "../../../services/webhooks";

const Time = z.string().openapi({ example: "2026-05-01T12:00:00Z" });

const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: "3w" }),
    url: z.string().openapi({ example: "https://receiver.example.com/hooks/media" }),
    description: z.string().nullable(),
    events: z.array(z.string()).openapi({ example: ["job.succeeded", "job.failed"] }),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
    paused_reason: z
      .string()
      .nullable()
      .openapi({ description: "why the service paused it; null when the application did, or when active" }),
    paused_at: Time.nullable(),
    failures: z
      .object({ consecutive: z.number().int(), since: Time.nullable() })
      .openapi({ description: "failed attempts in a row and since when; a success resets both" }),
    previous_secret_expires_at: Time.nullable().openapi({
      description: "after a rotation, until when deliveries are also signed with the previous secret",
    }),
    created_at: Time.nullable(),
    updated_at: Time.nullable(),
    deliveries_url: z.string(),
  })
  .openapi("Webhook");

export const WebhookEnvelope = z.object({ webhook: WebhookSchema }).openapi("WebhookEnvelope");

export const WebhookWithSecret = z
  .object({
    webhook: WebhookSchema,
    secret: z.string().openapi({
      description:
        "the endpoint's signing secret (`whsec_` + 32 random bytes in base64, the Standard Webhooks form): shown only here; keep it",
      example: "whsec_x3Jq5sZ0d2Yv9bqkR3L4m1Nw7oPpQe8TtUuVvWwXxYy",
    }),
  })
  .openapi("WebhookWithSecret");

export const WebhookList = listEnvelopeSchema(WebhookSchema, "WebhookList");

const eventList = z
  .array(z.string())
  .openapi({ description: "event types (GET /v4/webhooks/events.json); not `ping`, which is sent on request", example: ["job.succeeded"] });
const description = z
  .string()
  .max(MAX_WEBHOOK_DESCRIPTION_LENGTH, `at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`)
  .nullable()
  .openapi({ description: `a note for the application's own use, at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters` });
const url = z
  .string()
  .trim()
  .openapi({
    description:
      `the receiver: an absolute \`https\` URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters, without credentials or ` +
      "fragment, not on this service nor on a loopback, private, link-local or local-only host",
    example: "https://receiver.example.com/hooks/media",
  });

export const WebhookCreateBody = z
  .object({
    url,
    events: eventList.optional().openapi({ description: "default: every type this application may subscribe to" }),
    description: description.optional(),
    active: z.boolean().optional().openapi({ description: "default true; false creates it paused" }),
  })
  .openapi("WebhookCreate");

export const WebhookUpdateBody = z
  .object({
    url: url.optional(),
    events: eventList.optional(),
    description: description.optional(),
    active: z.boolean().optional().openapi({ description: "true resumes a paused endpoint (failure counters reset); false pauses it" }),
  })
  .openapi("WebhookUpdate");

export const webhookParam = z.object({
  webhook_id: z.string().openapi({ param: { name: "webhook_id", in: "path" }, example: "3w" }),
});

export const deliveryParams = webhookParam.extend({
  delivery_id: z.string().openapi({ param: { name: "delivery_id", in: "path" }, example: "5d" }),
});

export const WebhookListQuery = z.object({ ...pagingQuery });

export const DeliveryListQuery = z.object({
  ...pagingQuery,
  status: z
    .enum(WEBHOOK_DELIVERY_STATUSES, { error: `one of ${WEBHOOK_DELIVERY_STATUSES.join(", ")}` })
    .optional()
    .openapi({ description: "only deliveries in this state" }),
});

/** The body of every delivery: the same `id` on every attempt and redelivery, so receivers drop duplicates. */
const eventEnvelope = (type: WebhookEventType) =>
  z.object({
    id: z.string().openapi({ example: "81e", description: "the event's id: the same on every attempt and redelivery" }),
    type: z.literal(type),
    created_at: Time,
    data: WEBHOOK_EVENTS[type].data,
  });

const WebhookEventSchema = z
  .object({
    id: z.string().openapi({ example: "81e" }),
    type: z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]),
    created_at: Time.nullable(),
    data: z.record(z.string(), z.unknown()).openapi({ description: "by type: see the `webhooks` section of this document" }),
  })
  .openapi("WebhookEvent");

const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "5d" }),
    event: WebhookEventSchema,
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    next_attempt_at: Time.nullable().openapi({ description: "when it is (next) due; null once it succeeded or failed for good" }),
    last_attempt: z
      .object({
        at: Time,
        status_code: z.number().int().nullable().openapi({ description: "the receiver's status; null when it did not answer" }),
        latency_ms: z.number().int().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    redelivery_of: z.string().nullable().openapi({ description: "the delivery this one repeats", example: "4d" }),
    created_at: Time.nullable(),
  })
  .openapi("WebhookDelivery");

export const DeliveryEnvelope = z.object({ delivery: DeliverySchema }).openapi("WebhookDeliveryEnvelope");
export const DeliveryList = listEnvelopeSchema(DeliverySchema, "WebhookDeliveryList");

export const EventCatalogue = z
  .object({
    events: z.array(
      z.object({
        type: z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]),
        description: z.string(),
        audience: z.enum(["application", "official"]).openapi({
          description: "`application`: the application's own jobs and pings; `official`: catalogue events, for official applications",
        }),
        subscribable: z.boolean(),
        available: z.boolean().optional().openapi({ description: "with a signed application: whether it may subscribe to it" }),
      }),
    ),
  })
  .openapi("WebhookEventCatalogue");

export const LIMIT_TEXT = `At most ${MAX_ENDPOINTS_PER_APPLICATION} endpoints per application (409 beyond).`;

/** What every delivery request carries (src/webhooks/attempt.ts); README "Webhooks" shows how to verify the signature. */
const DeliveryHeaders = z.object({
  "webhook-id": z
    .string()
    .openapi({ description: "the event id, the same on every attempt and redelivery: drop duplicates by it", example: "81e" }),
  "webhook-delivery": z.string().openapi({ description: "this delivery (a redelivery has its own)", example: "5d" }),
  "webhook-event": z.string().openapi({ description: "the event type", example: "job.succeeded" }),
  "webhook-attempt": z.string().openapi({ description: "1 for the first attempt of this delivery, then 2, 3, ...", example: "1" }),
  "webhook-timestamp": z.string().openapi({ description: "unix seconds of this attempt, signed with the body", example: "1777636800" }),
  "webhook-signature": z.string().openapi({
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed by the bytes of the ' +
      `endpoint's \`whsec_\` secret>\`, then (until ${LEGACY_SIGNATURE_UNTIL}, deprecated)` +
      ' `v1=<hex HMAC-SHA256 of "<webhook-timestamp>.<body>" ' +
      "keyed by the secret's text>`, space-separated; after a rotation one value of each kind for the previous secret " +
      "too, until `previous_secret_expires_at`",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
  }),
});

const pascal = (type: string) => type.replace(/(?:^|[._])([a-z])/g, (_, ch: string) => ch.toUpperCase());

/**
 * The event catalogue as the OpenAPI 3.1 `webhooks` section: one POST per type, whose body is the event envelope
 * with that type's `data`. Registered on the webhooks router, so the document is built from the same schemas.
 */
export function registerEventWebhooks(registry: OpenAPIHono["openAPIRegistry"]) {
  for (const type of WEBHOOK_EVENT_TYPES) {
    const { audience, description } = WEBHOOK_EVENTS[type];
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `webhook${pascal(type)}`,
      tags: ["webhooks"],
      // The receiver's side: the request proves itself by webhook-signature, the receiver asks for nothing.
      security: [],
      summary: `${type} (audience: ${audience})`,
      description,
      request: { headers: DeliveryHeaders, body: jsonBody(eventEnvelope(type)) },
      responses: {
        200: { description: "any 2xx acknowledges the delivery" },
        "4XX": { description: "any other answer (or none within the timeout) is retried with backoff, then the delivery fails" },
      },
    });
  }
}
