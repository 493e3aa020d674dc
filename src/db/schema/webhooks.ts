import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { applications } from "./users";

export const WEBHOOK_ENDPOINT_STATUSES = ["active", "paused"] as const;

/**
 * pending: due at next_attempt_at; sending: claimed until lease_until; then succeeded or failed for good. held: waiting
 * for its paused endpoint to be resumed (triggers of src/db/triggers/webhooks.sql), outside the claim's index.
 */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "sending", "held", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An application's receiver (docs/decisions.md, "Signed webhooks"): where events are POSTed, which ones, and with which secret. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    applicationId: integer("application_id")
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    // A JSON array of event types (src/domain/webhook-events.ts); the fan-out trigger reads it with json_each.
    events: text("events", { mode: "json" }).notNull().$type<string[]>(),
    status: text("status", { enum: WEBHOOK_ENDPOINT_STATUSES }).notNull().default("active"),
    // Why the service paused it (null when the application did, or when active).
    pausedReason: text("paused_reason"),
    pausedAt: integer("paused_at", { mode: "timestamp" }),
    // Kept as the secret itself, like applications.secret: deliveries are HMACs keyed by it.
    secret: text("secret").notNull(),
    // After a rotation the previous secret also signs, until previous_secret_until, so receivers can switch over.
    previousSecret: text("previous_secret"),
    previousSecretUntil: integer("previous_secret_until", { mode: "timestamp" }),
    // Failed attempts in a row, and since when; a success resets both (auto-pause, src/webhooks/delivery.ts).
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    failingSince: integer("failing_since", { mode: "timestamp" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_application").on(t.applicationId)],
);

/**
 * What happened, recorded in the same D1 batch as the change (or by a trigger on the changed row), so a change and
 * its event never part. `application_id` set: only that application's endpoints hear it (its jobs, its pings);
 * null: every official application's endpoints subscribed to the type. `endpoint_id`: one endpoint only (ping).
 * `data` holds ids and paths; the delivery renders the paths as URLs under API_ORIGIN.
 */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type").notNull(),
    applicationId: integer("application_id").references(() => applications.id, { onDelete: "cascade" }),
    endpointId: integer("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    data: text("data", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  // Partial: most events name neither (catalogue events), and an index entry per event would double its cost in rows
  // written. A cascade's `application_id = ?` implies IS NOT NULL, so it still uses them.
  (t) => [
    index("webhook_events_application")
      .on(t.applicationId)
      .where(sql`${t.applicationId} is not null`),
    index("webhook_events_endpoint")
      .on(t.endpointId)
      .where(sql`${t.endpointId} is not null`),
  ],
);

/** One event to one endpoint, with its attempts (the trigger webhook_events_fan_out, src/db/triggers/webhooks.sql, creates them). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp" })
      .notNull()
      .default(sql`(unixepoch())`),
    // While sending: when the sweeper may take it back (a consumer that crashed mid-batch).
    leaseUntil: integer("lease_until", { mode: "timestamp" }),
    lastStatusCode: integer("last_status_code"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp" }),
    // A redelivery names the delivery it repeats.
    redeliveryOf: integer("redelivery_of"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // An endpoint's recent deliveries, newest first.
    index("webhook_deliveries_endpoint").on(t.endpointId, t.id),
    index("webhook_deliveries_event").on(t.eventId),
    // The consumer's and the sweeper's range scans over unfinished deliveries only.
    index("webhook_deliveries_due")
      .on(t.status, t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
  ],
);
