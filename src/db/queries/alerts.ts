import { eq } from "drizzle-orm";
import type { DB } from "../client";
import { notificationCounts, threadCounts } from "../schema";

/**
 * Unread threads (live, in the inbox) and unread notifications of a user: one row of each trigger-kept
 * counter table (`thread_counts`, `notification_counts`), so the badge costs two rows whatever the inbox size.
 */
export async function countUnreadAlerts(db: DB, userId: number) {
  const [threadRows, notificationRows] = await db.batch([
    db.select({ unread: threadCounts.unread }).from(threadCounts).where(eq(threadCounts.userId, userId)),
    db.select({ unread: notificationCounts.unread }).from(notificationCounts).where(eq(notificationCounts.userId, userId)),
  ]);
  return { threads: threadRows[0]?.unread ?? 0, notifications: notificationRows[0]?.unread ?? 0 };
}
