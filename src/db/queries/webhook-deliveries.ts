import { and, eq, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { DB } from "../client";
import { webhookDeliveries as d, webhookEndpoints as e, webhookEvents as ev } from "../schema";

/**
 * The sending side of webhooks (docs/decisions.md, "Signed webhooks"): the consumer's claim and record (src/webhooks/delivery.ts) and the
 * sweeper's reclaim, pump check and prune (src/webhooks/sweep.ts). Times are unix seconds, given by the caller so
 * tests can move the clock.
 */

const at = (seconds: number) => new Date(seconds * 1000);

/**
 * Repeats the partial index's own predicate: SQLite uses webhook_deliveries_due only when the query's WHERE implies
 * the index's, and it does not see that `status = 'pending'` implies `status in ('pending', 'sending')`.
 */
const unfinished = sql`${d.status} in ('pending', 'sending')`;

/** Pings go out to paused endpoints too: they are how an application checks a receiver before resuming it. */
const sendable = or(eq(e.status, "active"), sql`exists (select 1 from ${ev} where ${ev.id} = ${d.eventId} and ${ev.type} = 'ping')`);

/** Pending deliveries due at `nowSeconds` whose endpoint takes them, oldest due first. */
const dueDeliveryIds = (db: DB, nowSeconds: number, limit: number) =>
  db
    .select({ id: d.id })
    .from(d)
    .innerJoin(e, eq(e.id, d.endpointId))
    .where(and(unfinished, eq(d.status, "pending"), lte(d.nextAttemptAt, at(nowSeconds)), sendable))
    .orderBy(d.nextAttemptAt)
    .limit(limit);

/**
 * Claims up to `limit` due deliveries in one statement: picking and moving them together (writes are serialised) means
 * two consumers never claim the same one. The attempt counts from here; a consumer that dies before recording leaves
 * the delivery `sending` until `lease_until`, when the sweeper puts it back.
 */
export const claimDueDeliveries = (db: DB, opts: { nowSeconds: number; leaseSeconds: number; limit: number }) =>
  db
    .update(d)
    .set({
      status: "sending",
      attempts: sql`${d.attempts} + 1`,
      leaseUntil: at(opts.nowSeconds + opts.leaseSeconds),
      lastAttemptAt: at(opts.nowSeconds),
      updatedAt: at(opts.nowSeconds),
    })
    .where(inArray(d.id, dueDeliveryIds(db, opts.nowSeconds, opts.limit)))
    .returning({ id: d.id, eventId: d.eventId, endpointId: d.endpointId, attempts: d.attempts });

export type ClaimedDelivery = Awaited<ReturnType<typeof claimDueDeliveries>>[number];

/** The events and endpoints of claimed deliveries, in one round trip. */
export async function deliveryTargets(db: DB, eventIds: number[], endpointIds: number[]) {
  const [events, endpoints] = await db.batch([
    db.select({ id: ev.id, type: ev.type, data: ev.data, createdAt: ev.createdAt }).from(ev).where(inArray(ev.id, eventIds)),
    db
      .select({
        id: e.id,
        url: e.url,
        secret: e.secret,
        previousSecret: e.previousSecret,
        previousSecretUntil: e.previousSecretUntil,
      })
      .from(e)
      .where(inArray(e.id, endpointIds)),
  ]);
  return { events, endpoints };
}

export type DeliveryEvent = Awaited<ReturnType<typeof deliveryTargets>>["events"][number];
export type DeliveryEndpoint = Awaited<ReturnType<typeof deliveryTargets>>["endpoints"][number];

/** One attempt's outcome as stored: `nextAttemptAt` set means retry then, null means the delivery is finished. */
export interface AttemptRecord {
  id: number;
  attempts: number;
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: number | null;
}

/**
 * The attempt's result, only if the claim is still this consumer's: `attempts` fences it, so a result that comes in
 * after the lease expired and another consumer claimed the delivery again does not overwrite the newer attempt.
 */
export const recordAttempt = (db: DB, r: AttemptRecord, nowSeconds: number) =>
  db
    .update(d)
    .set({
      status: r.succeeded ? "succeeded" : r.nextAttemptAt === null ? "failed" : "pending",
      nextAttemptAt: r.nextAttemptAt === null ? undefined : at(r.nextAttemptAt),
      leaseUntil: null,
      lastStatusCode: r.statusCode,
      lastLatencyMs: r.latencyMs,
      lastError: r.error,
      updatedAt: at(nowSeconds),
    })
    .where(and(eq(d.id, r.id), eq(d.status, "sending"), eq(d.attempts, r.attempts)));

/** What one consumer round saw of an endpoint, in the order its attempts finished. */
export interface EndpointOutcome {
  endpointId: number;
  /** Some attempt succeeded: the streak restarts from the failures after the last success. */
  succeeded: boolean;
  /** Failures (after the last success, if any). */
  failures: number;
  /** The last failure's error, for the pause reason. */
  lastError: string | null;
}

/**
 * The endpoint's failure streak, and the automatic pause, in one statement (SET expressions read the row as it was,
 * so two consumers adding failures at once both count): paused once `pauseAfterFailures` attempts failed in a row
 * over at least `pauseAfterSeconds`. A success ends the streak but never resumes an endpoint (the application does).
 */
export function recordEndpointOutcome(
  db: DB,
  o: EndpointOutcome,
  opts: { nowSeconds: number; pauseAfterFailures: number; pauseAfterSeconds: number },
) {
  const now = opts.nowSeconds;
  if (o.succeeded) {
    return db
      .update(e)
      .set({ consecutiveFailures: o.failures, failingSince: o.failures ? at(now) : null })
      .where(eq(e.id, o.endpointId));
  }
  // D1 binds numbers as REAL: cast, or the reason would read "30.0 failed attempts".
  const failures = sql`(${e.consecutiveFailures} + cast(${o.failures} as integer))`;
  const since = sql`coalesce(${e.failingSince}, ${now})`;
  const pause: SQL = sql`(${e.status} = 'active' and ${failures} >= ${opts.pauseAfterFailures} and ${since} <= ${now - opts.pauseAfterSeconds})`;
  const reason = sql`'paused after ' || ${failures} || ' failed attempts in a row since ' || strftime('%Y-%m-%dT%H:%M:%SZ', ${since}, 'unixepoch') || '; last: ' || ${o.lastError ?? "unknown error"}`;
  return db
    .update(e)
    .set({
      consecutiveFailures: failures,
      failingSince: since,
      status: sql`case when ${pause} then 'paused' else ${e.status} end`,
      pausedAt: sql`case when ${pause} then ${now} else ${e.pausedAt} end`,
      pausedReason: sql`case when ${pause} then ${reason} else ${e.pausedReason} end`,
      updatedAt: sql`case when ${pause} then ${now} else ${e.updatedAt} end`,
    })
    .where(eq(e.id, o.endpointId));
}

/**
 * Deliveries left `sending` past their lease (their consumer died mid-batch) go back to pending, due now. The attempt
 * they made still counts. Reads only the unfinished deliveries (the partial index), at most `limit` of them.
 */
export const reclaimExpiredLeases = (db: DB, nowSeconds: number, limit: number) =>
  db
    .update(d)
    .set({
      status: "pending",
      nextAttemptAt: at(nowSeconds),
      leaseUntil: null,
      lastError: "the attempt stopped without a result (its consumer's lease expired)",
      updatedAt: at(nowSeconds),
    })
    .where(
      inArray(
        d.id,
        db
          .select({ id: d.id })
          .from(d)
          .where(and(unfinished, eq(d.status, "sending"), lte(d.leaseUntil, at(nowSeconds))))
          .limit(limit),
      ),
    )
    .returning({ id: d.id });

/** Whether any delivery is due now for an endpoint that takes it (the sweeper then asks the consumer to run). */
export async function anyDeliveryDue(db: DB, nowSeconds: number) {
  const rows = await dueDeliveryIds(db, nowSeconds, 1);
  return rows.length > 0;
}

/**
 * Deletes those of the `limit` oldest events created before `beforeSeconds`, their deliveries with them (ON DELETE
 * CASCADE). Ids grow with time, so the oldest events are the first ids: a look at the first one (one row read) says
 * whether anything is old, and the delete reads at most `limit` events; filtering on `created_at` alone would scan
 * every event each minute to find none.
 */
export async function pruneEvents(db: DB, beforeSeconds: number, limit: number) {
  const [first] = await db.select({ createdAt: ev.createdAt }).from(ev).orderBy(ev.id).limit(1);
  if (!first || first.createdAt.getTime() / 1000 >= beforeSeconds) return 0;
  const oldest = db.select({ id: ev.id }).from(ev).orderBy(ev.id).limit(limit);
  const deleted = await db
    .delete(ev)
    .where(and(inArray(ev.id, oldest), sql`${ev.createdAt} < ${beforeSeconds}`))
    .returning({ id: ev.id });
  return deleted.length;
}
