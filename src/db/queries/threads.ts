import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { DB } from "../client";
import { messages, threadCounts, threadParticipants as tp, threads, users } from "../schema";

export type ThreadFolder = "inbox" | "unread" | "sent";

/** A participant's thread as the views need it: their row, the other participant and the last message. */
export interface ThreadRow {
  threadId: number;
  unread: boolean;
  /** Unix seconds. */
  createdAt: number;
  lastMessageAt: number;
  peerId: number | null;
  peerUsername: string | null;
  messageId: number;
  senderId: number;
  content: string;
  messageCreatedAt: number;
}

/** Select list of ThreadRow; the duplicate column names (created_at) are aliased, see docs/decisions.md. */
const lastMessageFields = {
  peerUsername: users.username,
  messageId: sql<number>`${messages.id}`.as("message_id"),
  senderId: messages.senderId,
  content: messages.content,
  messageCreatedAt: sql<number>`${messages.createdAt}`.as("message_created_at"),
};
const threadFields = {
  threadId: tp.threadId,
  unread: tp.unread,
  createdAt: tp.createdAt,
  lastMessageAt: tp.lastMessageAt,
  peerId: tp.peerId,
  ...lastMessageFields,
};

const live = (userId: number) => and(eq(tp.userId, userId), eq(tp.deleted, false));
const folderCondition: Record<ThreadFolder, SQL> = {
  inbox: eq(tp.inInbox, true),
  unread: and(eq(tp.inInbox, true), eq(tp.unread, true))!,
  sent: eq(tp.inSent, true),
};

/**
 * One page of a folder, newest last message first: a range of the folder's index (thread_participants_inbox,
 * _unread or _sent, all ending in last_message_id), then one message and one user row per thread of the page.
 * The range is a subquery with the LIMIT/OFFSET, so skipped rows (deeper pages) cost one row each, not three.
 */
export function findThreadPage(db: DB, userId: number, folder: ThreadFolder, offset: number, limit: number) {
  const page = db
    .select({
      threadId: tp.threadId,
      unread: tp.unread,
      createdAt: tp.createdAt,
      lastMessageAt: tp.lastMessageAt,
      peerId: tp.peerId,
      lastMessageId: tp.lastMessageId,
    })
    .from(tp)
    .where(and(live(userId), folderCondition[folder]))
    .orderBy(desc(tp.lastMessageId))
    .limit(limit)
    .offset(offset)
    .as("page");
  return db
    .select({
      threadId: page.threadId,
      unread: page.unread,
      createdAt: page.createdAt,
      lastMessageAt: page.lastMessageAt,
      peerId: page.peerId,
      ...lastMessageFields,
    })
    .from(page)
    .innerJoin(messages, eq(messages.id, page.lastMessageId))
    .leftJoin(users, eq(users.id, page.peerId))
    .orderBy(desc(page.lastMessageId))
    .all() as Promise<ThreadRow[]>;
}

/** One thread of a participant who has not deleted it (a primary-key read plus the message and the peer). */
export async function findThread(db: DB, threadId: number, userId: number) {
  const rows = (await db
    .select(threadFields)
    .from(tp)
    .innerJoin(messages, eq(messages.id, tp.lastMessageId))
    .leftJoin(users, eq(users.id, tp.peerId))
    .where(and(eq(tp.threadId, threadId), live(userId)))
    .all()) as ThreadRow[];
  return rows[0];
}

/** The last `limit` messages of a thread, newest first (the messages_thread index, backwards). */
export function findLastMessages(db: DB, threadId: number, limit: number) {
  return db
    .select({
      id: messages.id,
      senderId: messages.senderId,
      content: messages.content,
      createdAt: sql<number>`${messages.createdAt}`.as("created_at"),
    })
    .from(messages)
    .where(eq(messages.threadId, threadId))
    .orderBy(desc(messages.id))
    .limit(limit)
    .all();
}

/** The newest thread id and message id: inside one D1 batch (a transaction on the primary) these are ours. */
const newThreadId = sql`(SELECT max(${threads.id}) FROM ${threads})`;
const newMessageId = sql`(SELECT max(${messages.id}) FROM ${messages})`;
const now = sql`(unixepoch())`;

/**
 * Starts a thread in one batch: the thread, its first message and both participants' rows (the sender's in
 * Sent and read, the recipient's in the Inbox and unread). Answers the new thread id.
 */
export async function insertThread(db: DB, senderId: number, recipientId: number, content: string) {
  const both = { threadId: newThreadId, lastMessageId: newMessageId, lastMessageAt: now, createdAt: now };
  const [[thread]] = await db.batch([
    db.insert(threads).values({ createdBy: senderId }).returning({ id: threads.id }),
    db.insert(messages).values({ threadId: newThreadId, senderId, content }),
    db.insert(tp).values([
      { ...both, userId: senderId, peerId: recipientId, unread: false, inInbox: false, inSent: true },
      { ...both, userId: recipientId, peerId: senderId, unread: true, inInbox: true, inSent: false },
    ]),
  ]);
  return thread.id;
}

/**
 * A reply in one batch: the message; the sender's row moves to Sent (read); the recipient's row becomes
 * unread, in the Inbox and undeleted, so a thread the recipient had deleted comes back with the new message.
 */
export async function insertReply(db: DB, threadId: number, senderId: number, recipientId: number | null, content: string) {
  const last = {
    lastMessageId: sql`(SELECT max(${messages.id}) FROM ${messages} WHERE ${messages.threadId} = ${threadId})`,
    lastMessageAt: now,
  };
  const [[message]] = await db.batch([
    db.insert(messages).values({ threadId, senderId, content }).returning({ id: messages.id, createdAt: messages.createdAt }),
    db
      .update(tp)
      .set({ ...last, inSent: true, unread: false })
      .where(and(eq(tp.threadId, threadId), eq(tp.userId, senderId))),
    db
      .update(tp)
      .set({ ...last, inInbox: true, unread: true, deleted: false })
      .where(and(eq(tp.threadId, threadId), eq(tp.userId, recipientId ?? 0))),
    db
      .update(threads)
      .set({ updatedAt: sql`(unixepoch())` })
      .where(eq(threads.id, threadId)),
  ]);
  return { id: message.id, createdAt: Math.floor(message.createdAt.getTime() / 1000) };
}

/** Marks a live thread read or unread for one participant; false when they have no such thread. */
export async function updateUnread(db: DB, threadId: number, userId: number, unread: boolean) {
  const rows = await db
    .update(tp)
    .set({ unread })
    .where(and(eq(tp.threadId, threadId), live(userId)))
    .returning({ threadId: tp.threadId });
  return rows.length > 0;
}

/**
 * Deletes a thread for one participant (their row is flagged, the other keeps theirs); when no participant
 * is left who has not deleted it, the thread goes, and its messages and rows with it (foreign-key cascade).
 */
export async function deleteForParticipant(db: DB, threadId: number, userId: number) {
  const [flagged] = await db.batch([
    db
      .update(tp)
      .set({ deleted: true, unread: false })
      .where(and(eq(tp.threadId, threadId), live(userId)))
      .returning({ threadId: tp.threadId }),
    db
      .delete(threads)
      .where(and(eq(threads.id, threadId), sql`NOT EXISTS (SELECT 1 FROM ${tp} WHERE ${tp.threadId} = ${threadId} AND ${tp.deleted} = 0)`)),
  ]);
  return flagged.length > 0;
}

/** The user's live inbox, unread inbox and sent counts (one row, kept by triggers). */
export async function findThreadCounts(db: DB, userId: number) {
  const row = await db.select().from(threadCounts).where(eq(threadCounts.userId, userId)).get();
  return { inbox: row?.inbox ?? 0, unread: row?.unread ?? 0, sent: row?.sent ?? 0 };
}
