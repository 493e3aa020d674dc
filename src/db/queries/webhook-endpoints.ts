import { and, count, desc, eq, sql } from "drizzle-orm";
import type { DB } from "../client";
import { type WebhookDeliveryStatus, webhookDeliveries, webhookEndpoints, webhookEvents } from "../schema";
import { recordEvent } from "./webhook-events";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** How long a rotated-out secret keeps signing, so receivers can switch over (docs/decisions.md, "Signed webhooks"). */
const PREVIOUS_SECRET_SECONDS = 24 * 60 * 60;

const owned = (applicationId: number, id: number) => and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.applicationId, applicationId));

const endpointQuery = (db: DB, applicationId: number, id: number) => db.select().from(webhookEndpoints).where(owned(applicationId, id));

/** One endpoint of this application; another application's id is simply not found. */
export const findEndpoint = (db: DB, applicationId: number, id: number) => endpointQuery(db, applicationId, id).get();

/** An application's endpoints, oldest first (index webhook_endpoints_application; at most a handful). */
export const listEndpoints = (db: DB, applicationId: number, offset: number, limit: number) =>
  db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.applicationId, applicationId))
    .orderBy(webhookEndpoints.id)
    .limit(limit)
    .offset(offset)
    .all();

export async function countEndpoints(db: DB, applicationId: number) {
  const row = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.applicationId, applicationId)).get();
  return row?.n ?? 0;
}

interface NewEndpoint {
  applicationId: number;
  url: string;
  description: string | null;
  events: string[];
  active: boolean;
  secret: string;
}

/**
 * Adds an endpoint unless the application already has `max` (counted in the same statement, so two concurrent
 * creations cannot both pass the limit), then reads it back. Undefined at the limit.
 */
export async function insertEndpoint(db: DB, e: NewEndpoint, max: number) {
  const paused = e.active ? sql`NULL` : sql`unixepoch()`;
  const [inserted] = await db.all<{ id: number }>(
    sql`INSERT INTO ${webhookEndpoints} (application_id, url, description, events, status, paused_at, secret)
        SELECT ${e.applicationId}, ${e.url}, ${e.description}, ${JSON.stringify(e.events)}, ${e.active ? "active" : "paused"},
               ${paused}, ${e.secret}
        WHERE (SELECT count(*) FROM ${webhookEndpoints} WHERE application_id = ${e.applicationId}) < ${max}
        RETURNING id`,
  );
  return inserted && findEndpoint(db, e.applicationId, inserted.id);
}

export type EndpointChanges = Partial<Pick<WebhookEndpointRow, "url" | "description" | "events">> & {
  /** true resumes (and clears the failure counters), false pauses as the application's own choice. */
  active?: boolean;
};

/** Applies `changes`; answers the updated row, or undefined when the id is not this application's. */
export function updateEndpoint(db: DB, applicationId: number, id: number, changes: EndpointChanges) {
  const { active, ...fields } = changes;
  const status =
    active === undefined
      ? {}
      : active
        ? { status: "active" as const, pausedReason: null, pausedAt: null, consecutiveFailures: 0, failingSince: null }
        : {
            status: "paused" as const,
            pausedReason: null,
            // Already paused (by the service): keep when; the reason becomes the application's.
            pausedAt: sql`coalesce(${webhookEndpoints.pausedAt}, unixepoch())`,
          };
  return db
    .update(webhookEndpoints)
    .set({ ...fields, ...status, updatedAt: sql`(unixepoch())` })
    .where(owned(applicationId, id))
    .returning()
    .get();
}

/** A new secret; the current one keeps signing for PREVIOUS_SECRET_SECONDS. One statement (SET reads the old row). */
export const rotateEndpointSecret = (db: DB, applicationId: number, id: number, secret: string) =>
  db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretUntil: sql`unixepoch() + ${PREVIOUS_SECRET_SECONDS}`,
      secret,
      updatedAt: sql`(unixepoch())`,
    })
    .where(owned(applicationId, id))
    .returning()
    .get();

/** Deletes an endpoint (its deliveries and pings cascade); true when there was one. */
export async function deleteEndpoint(db: DB, applicationId: number, id: number) {
  const gone = await db.delete(webhookEndpoints).where(owned(applicationId, id)).returning({ id: webhookEndpoints.id }).all();
  return gone.length > 0;
}

/** A delivery with its event, as the deliveries list shows it; column names unique (batches read rows by position). */
const deliveryFields = {
  id: webhookDeliveries.id,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastLatencyMs: webhookDeliveries.lastLatencyMs,
  lastError: webhookDeliveries.lastError,
  redeliveryOf: webhookDeliveries.redeliveryOf,
  createdAt: webhookDeliveries.createdAt,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  eventData: webhookEvents.data,
  eventCreatedAt: sql<number>`${webhookEvents.createdAt}`.mapWith(webhookEvents.createdAt).as("event_created_at"),
};

const deliveriesOf = (db: DB) =>
  db.select(deliveryFields).from(webhookDeliveries).innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId)).$dynamic();

export type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveriesOf>["all"]>>[number];

/**
 * The endpoint (ownership) and a page of its deliveries, newest first, in one round trip: a backwards range read of
 * webhook_deliveries_endpoint (endpoint, id), each joined to its event by primary key.
 */
export async function findDeliveryPage(
  db: DB,
  applicationId: number,
  endpointId: number,
  status: WebhookDeliveryStatus | undefined,
  offset: number,
  limit: number,
) {
  const [endpoints, rows] = await db.batch([
    endpointQuery(db, applicationId, endpointId),
    deliveriesOf(db)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), status ? eq(webhookDeliveries.status, status) : undefined))
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit)
      .offset(offset),
  ]);
  return endpoints[0] ? rows : undefined;
}

/**
 * A new delivery of the event of `deliveryId` to the same endpoint, due now, naming the one it repeats; guarded by
 * ownership in the same statement, then read back with its event. Undefined when the endpoint is not this
 * application's or the delivery not the endpoint's.
 */
export async function insertRedelivery(db: DB, applicationId: number, endpointId: number, deliveryId: number) {
  const d = webhookDeliveries;
  const [inserted] = await db.all<{ id: number }>(
    sql`INSERT INTO ${d} (event_id, endpoint_id, redelivery_of)
        SELECT event_id, endpoint_id, id FROM ${d}
        WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}
          AND EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE id = ${endpointId} AND application_id = ${applicationId})
        RETURNING id`,
  );
  return inserted && deliveriesOf(db).where(eq(d.id, inserted.id)).get();
}

/**
 * Records a ping for one endpoint (the fan-out trigger makes its one delivery in the same statement) and reads that
 * delivery back in the same batch: inside it, the endpoint's newest event (index webhook_events_endpoint) is this one.
 */
export async function insertPing(db: DB, applicationId: number, endpointId: number, data: Record<string, unknown>) {
  const newest = sql`(SELECT max(${webhookEvents.id}) FROM ${webhookEvents} WHERE ${webhookEvents.endpointId} = ${endpointId})`;
  const [, rows] = await db.batch([
    recordEvent(db, { type: "ping", applicationId, endpointId, data }),
    deliveriesOf(db)
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, newest)))
      .limit(1),
  ]);
  return rows[0];
}
