import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { containers, videos } from "./catalogue";
import { createdAt, flag, updatedAt } from "./columns";
import { users } from "./users";

/** Kinds a user can subscribe to or mark: containers and videos. */
export const FOLLOWABLE_KINDS = ["c", "v"] as const;

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    resourceKind: text("resource_kind", { enum: FOLLOWABLE_KINDS }).notNull(),
    resourceId: integer("resource_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.resourceKind, t.resourceId] }),
    index("subscriptions_user_created").on(t.userId, t.createdAt),
    // Notification fan-out walks a container's subscribers.
    index("subscriptions_resource_user").on(t.resourceKind, t.resourceId, t.userId),
  ],
);

export const markers = sqliteTable(
  "markers",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    resourceKind: text("resource_kind", { enum: FOLLOWABLE_KINDS }).notNull(),
    resourceId: integer("resource_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.resourceKind, t.resourceId] }),
    index("markers_user_created").on(t.userId, t.createdAt),
  ],
);

export const threads = sqliteTable("threads", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  createdBy: integer("created_by")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Each participant's own view of a thread: read flag, deletion and which folders it shows in. */
export const threadParticipants = sqliteTable(
  "thread_participants",
  {
    threadId: integer("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    unread: flag("unread"),
    deleted: flag("deleted"),
    inInbox: flag("in_inbox"),
    inSent: flag("in_sent"),
    lastMessageAt: integer("last_message_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.threadId, t.userId] }),
    index("thread_participants_inbox").on(t.userId, t.deleted, t.inInbox, t.lastMessageAt),
    index("thread_participants_sent").on(t.userId, t.deleted, t.inSent, t.lastMessageAt),
    index("thread_participants_unread").on(t.userId, t.deleted, t.inInbox, t.unread),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    threadId: integer("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("messages_thread").on(t.threadId, t.id)],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
  ],
);

export const timedComments = sqliteTable(
  "timed_comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    videoId: integer("video_id")
      .notNull()
      .references(() => videos.id, { onDelete: "cascade" }),
    language: text("language").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    timeMs: integer("time_ms").notNull(),
    comment: text("comment").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("timed_comments_video_language_time").on(t.videoId, t.language, t.timeMs)],
);
