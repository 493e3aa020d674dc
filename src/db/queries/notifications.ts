import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { DB } from "../client";
import { notificationCounts, notifications, subscriptions, users } from "../schema";

export type NotificationRow = typeof notifications.$inferSelect;

const ownedBy = (userId: number, unreadOnly = false) =>
  and(eq(notifications.userId, userId), unreadOnly ? eq(notifications.unread, true) : undefined);

/**
 * A page of a user's notifications, newest first: one backwards range read of `notifications_user`
 * (user, id), or `notifications_user_unread` (user, unread, id) for the unread subset. Offset paging, so a
 * page reads about `offset + limit` index entries plus the page's rows.
 */
export const listNotifications = (db: DB, userId: number, unreadOnly: boolean, offset: number, limit: number) =>
  db.select().from(notifications).where(ownedBy(userId, unreadOnly)).orderBy(desc(notifications.id)).limit(limit).offset(offset).all();

/** `{total, unread}` from the trigger-kept `notification_counts` row: one row read whatever the inbox size. */
export async function countNotifications(db: DB, userId: number) {
  const row = await db
    .select({ total: notificationCounts.total, unread: notificationCounts.unread })
    .from(notificationCounts)
    .where(eq(notificationCounts.userId, userId))
    .get();
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** One notification of this user; another user's id is simply not found. */
export const findNotification = (db: DB, userId: number, id: number) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .get();

/** Sets the read flag (idempotent); undefined when the id is not this user's. */
export const setNotificationUnread = (db: DB, userId: number, id: number, unread: boolean) =>
  db
    .update(notifications)
    .set({ unread })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning()
    .get();

export async function deleteNotification(db: DB, userId: number, id: number) {
  const gone = await db
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id })
    .all();
  return gone.length > 0;
}

/** Senders of a page, by primary key. */
export const findUserRefs = (db: DB, ids: number[]) =>
  ids.length ? db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids)).all() : Promise.resolve([]);

const subscribersOf = (containerId: number) => and(eq(subscriptions.resourceKind, "c"), eq(subscriptions.resourceId, containerId));

/** Subscribers of a container (covering index `subscriptions_resource_user`): one index entry per subscriber. */
export async function countContainerSubscribers(db: DB, containerId: number) {
  const row = await db.select({ n: count() }).from(subscriptions).where(subscribersOf(containerId)).get();
  return row?.n ?? 0;
}

export interface FanoutScope {
  jobId: number;
  containerId: number;
  senderId: number;
  content: string;
  /** Unix seconds: every copy carries the time the manager sent it. */
  createdAt: number;
}

/**
 * One chunk of the fan-out, in one batch (one transaction, so both statements see the same subscribers):
 * the next `size` subscribers after `afterUserId` in user order get the notification, copied by
 * INSERT ... SELECT from `subscriptions_resource_user` (seven bound parameters whatever the chunk size);
 * `(job_id, user_id)` is unique, so a replayed chunk inserts nothing. The second statement reads the chunk's
 * bounds: how many subscribers it covered and the last one, the cursor of the next chunk.
 */
export async function fanoutChunk(db: DB, scope: FanoutScope, afterUserId: number, size: number) {
  const { jobId, containerId, senderId, content, createdAt } = scope;
  // The D1 binding itself: drizzle's batch cannot bind parameters of a raw `db.run(sql)` statement.
  const d1 = db.$client;
  const [inserted, bounds] = await d1.batch<{ walked: number; last: number | null }>([
    d1
      .prepare(
        `INSERT INTO notifications (user_id, container_id, sender_id, job_id, content, created_at)
         SELECT s.user_id, ?1, ?2, ?3, ?4, ?5 FROM subscriptions s
         WHERE s.resource_kind = 'c' AND s.resource_id = ?1 AND s.user_id > ?6
         ORDER BY s.user_id LIMIT ?7
         ON CONFLICT (job_id, user_id) DO NOTHING`,
      )
      .bind(containerId, senderId, jobId, content, createdAt, afterUserId, size),
    d1
      .prepare(
        `SELECT count(*) AS walked, max(user_id) AS last FROM (
           SELECT s.user_id FROM subscriptions s
           WHERE s.resource_kind = 'c' AND s.resource_id = ?1 AND s.user_id > ?2
           ORDER BY s.user_id LIMIT ?3)`,
      )
      .bind(containerId, afterUserId, size),
  ]);
  const row = bounds.results[0];
  return { walked: row?.walked ?? 0, last: row?.last ?? null, inserted: inserted.meta.changes ?? 0 };
}
