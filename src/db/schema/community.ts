import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { containers } from "./catalogue";
import { createdAt, flag, updatedAt } from "./columns";
import { userCounts, userOwned, users } from "./users";

/** Kinds a user can subscribe to or mark: containers and videos. */
const FOLLOWABLE_KINDS = ["c", "v"] as const;

/** A user's subscription or marker on a container or video: the two tables are the same shape, kept apart by kind. */
const followColumns = () => ({
  userId: userOwned(),
  resourceKind: text("resource_kind", { enum: FOLLOWABLE_KINDS }).notNull(),
  resourceId: integer("resource_id").notNull(),
  createdAt: createdAt(),
});

export const subscriptions = sqliteTable("subscriptions", followColumns(), (t) => [
  primaryKey({ columns: [t.userId, t.resourceKind, t.resourceId] }),
  index("subscriptions_user_created").on(t.userId, t.createdAt),
  // Notification fan-out walks a container's subscribers.
  index("subscriptions_resource_user").on(t.resourceKind, t.resourceId, t.userId),
]);

export const markers = sqliteTable("markers", followColumns(), (t) => [
  primaryKey({ columns: [t.userId, t.resourceKind, t.resourceId] }),
  index("markers_user_created").on(t.userId, t.createdAt),
  // Deleting a container or video deletes its markers (src/db/triggers/polymorphic-cleanup.sql): without this,
  // every video deleted scans all markers (migration 0017).
  index("markers_resource").on(t.resourceKind, t.resourceId),
]);

export const threads = sqliteTable(
  "threads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    createdBy: userOwned("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Every foreign key leads an index (test/db/foreign-keys.test.ts): deleting a user cascades through these.
  (t) => [index("threads_created_by").on(t.createdBy)],
);

/**
 * Each participant's own view of a thread: read flag, deletion and which folders it shows in. Threads have
 * two participants, so each row also names the other one (`peer_id`) and carries the thread's last message
 * id and its own creation time: a page of threads is one index range plus a message and a user per thread.
 * Folders are ordered by `last_message_id` (message ids only grow, so it is the order of the last message).
 */
export const threadParticipants = sqliteTable(
  "thread_participants",
  {
    threadId: integer("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    userId: userOwned(),
    unread: flag("unread"),
    deleted: flag("deleted"),
    inInbox: flag("in_inbox"),
    inSent: flag("in_sent"),
    /** Unix seconds of the last message. */
    lastMessageAt: integer("last_message_at").notNull().default(0),
    // No foreign key: the other participant's row must outlive this user, and SQLite cannot add a column
    // with ON DELETE SET NULL. A peer that no longer exists shows with a null username.
    peerId: integer("peer_id"),
    lastMessageId: integer("last_message_id").notNull().default(0),
    /** Unix seconds; the participant joins when the thread starts, so this is the thread's creation time. */
    createdAt: integer("created_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.threadId, t.userId] }),
    index("thread_participants_inbox").on(t.userId, t.deleted, t.inInbox, t.lastMessageId),
    index("thread_participants_sent").on(t.userId, t.deleted, t.inSent, t.lastMessageId),
    index("thread_participants_unread").on(t.userId, t.deleted, t.inInbox, t.unread, t.lastMessageId),
  ],
);

/**
 * A user's thread counts (live inbox, unread inbox, live sent), kept by triggers on `thread_participants`
 * (src/db/triggers/community-counts.sql) so `only_count`, `with_paging` and alerts read one row.
 * Never written by hand.
 */
export const threadCounts = sqliteTable("thread_counts", {
  userId: userCounts(),
  inbox: integer("inbox").notNull().default(0),
  unread: integer("unread").notNull().default(0),
  sent: integer("sent").notNull().default(0),
});

/**
 * A user's numbers of subscriptions and markers, kept by triggers on those tables (same file), so the
 * subscription limit and `with_paging` counts read one row. Never written by hand.
 */
export const followCounts = sqliteTable("follow_counts", {
  userId: userCounts(),
  subscriptions: integer("subscriptions").notNull().default(0),
  markers: integer("markers").notNull().default(0),
});

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    threadId: integer("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    senderId: userOwned("sender_id"),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("messages_thread").on(t.threadId, t.id), index("messages_sender").on(t.senderId)],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userOwned(),
    containerId: integer("container_id").references(() => containers.id, { onDelete: "set null" }),
    senderId: integer("sender_id").references(() => users.id, { onDelete: "set null" }),
    // The fan-out job that delivered it: (job, user) is unique so a replayed message adds nothing.
    jobId: integer("job_id"),
    content: text("content").notNull(),
    unread: flag("unread").default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user").on(t.userId, t.id),
    index("notifications_user_unread").on(t.userId, t.unread, t.id),
    uniqueIndex("notifications_job_user").on(t.jobId, t.userId),
    // ON DELETE SET NULL on both: deleting a container or a user finds its notifications through these.
    index("notifications_container").on(t.containerId),
    index("notifications_sender").on(t.senderId),
  ],
);

/**
 * A user's notification counts (all and unread), kept by triggers on `notifications`
 * (src/db/triggers/community-counts.sql) so the unread badge and `with_paging` counts read one row. Never written by hand.
 */
export const notificationCounts = sqliteTable("notification_counts", {
  userId: userCounts(),
  total: integer("total").notNull().default(0),
  unread: integer("unread").notNull().default(0),
});
