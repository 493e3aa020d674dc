import type { DB } from "../db/client";
import {
  deleteForParticipant,
  findLastMessages,
  findThread,
  findThreadCounts,
  findThreadPage,
  insertReply,
  insertThread,
  updateUnread,
  type ThreadFolder,
  type ThreadRow,
} from "../db/queries/threads";
import { findUserById } from "../db/queries/users";
import { ApiError } from "../lib/errors";
import { tryParseId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import type { User } from "../types";

/** Longest message, in characters. */
export const MAX_MESSAGE_LENGTH = 5_000;
/** Reading a thread answers its last this-many messages (oldest first); `more_messages` tells of older ones. */
export const MAX_THREAD_MESSAGES = 500;

export type ThreadType = "inbox" | "sent";
export interface MessageRow {
  id: number;
  senderId: number;
  content: string;
  createdAt: number;
}

/** Starts a thread from the owner to `to` (`12u`): not to oneself (400), not to a missing user (404). */
export async function startThread(db: DB, owner: User, to: string, content: string) {
  const recipientId = tryParseId(to, "u");
  if (recipientId === null) throw ApiError.field("to", "not a user id such as 12u");
  if (recipientId === owner.id) throw ApiError.field("to", "cannot send a message to oneself");
  const recipient = await findUserById(db, recipientId);
  if (!recipient) throw ApiError.notFoundField("to", `no user ${to}`);
  const threadId = await insertThread(db, owner.id, recipient.id, content);
  return readThread(db, owner, threadId);
}

const folderOf = (type: ThreadType, unread: boolean): ThreadFolder => (type === "sent" ? "sent" : unread ? "unread" : "inbox");

/** A page of a folder (`unread` applies to the inbox only), newest last message first. */
export async function listThreads(db: DB, owner: User, type: ThreadType, unread: boolean, p: Paging) {
  const folder = folderOf(type, unread);
  const rows = await findThreadPage(db, owner.id, folder, p.offset, p.limit);
  return { rows, count: () => countThreads(db, owner, type, unread) };
}

/** `only_count=true`: the folder's size from the trigger-kept counters (one row). */
export async function countThreads(db: DB, owner: User, type: ThreadType, unread: boolean) {
  const counts = await findThreadCounts(db, owner.id);
  return counts[folderOf(type, unread)];
}

/** The owner's live thread, or 404: threads they are not in, or have deleted, do not exist for them. */
async function requireThread(db: DB, owner: User, threadId: number): Promise<ThreadRow> {
  const row = await findThread(db, threadId, owner.id);
  if (!row) throw ApiError.notFound();
  return row;
}

/** The thread with its last MAX_THREAD_MESSAGES messages, oldest first. Reading does not change `unread`. */
export async function readThread(db: DB, owner: User, threadId: number) {
  const [row, newestFirst] = await Promise.all([
    requireThread(db, owner, threadId),
    findLastMessages(db, threadId, MAX_THREAD_MESSAGES + 1),
  ]);
  const more = newestFirst.length > MAX_THREAD_MESSAGES;
  const messages: MessageRow[] = newestFirst.slice(0, MAX_THREAD_MESSAGES).reverse();
  return { row, messages, more };
}

/** A reply by the owner: the other participant's copy becomes unread, in their inbox, and undeleted. */
export async function reply(db: DB, owner: User, threadId: number, content: string) {
  const row = await requireThread(db, owner, threadId);
  const message = await insertReply(db, threadId, owner.id, row.peerId, content);
  // The owner's row as the batch left it: read, with this message as the last one.
  const after: ThreadRow = {
    ...row,
    unread: false,
    lastMessageAt: message.createdAt,
    messageId: message.id,
    senderId: owner.id,
    content,
    messageCreatedAt: message.createdAt,
  };
  return { row: after, message: { id: message.id, senderId: owner.id, content, createdAt: message.createdAt } satisfies MessageRow };
}

/** The interface's state table: `unread=false` reads the thread, `unread=true` marks it unread again. */
export async function markUnread(db: DB, owner: User, threadId: number, unread: boolean) {
  if (!(await updateUnread(db, threadId, owner.id, unread))) throw ApiError.notFound();
  return requireThread(db, owner, threadId);
}

/** Deletes the thread for the owner only; once both participants deleted it, it is purged. */
export async function deleteThread(db: DB, owner: User, threadId: number) {
  if (!(await deleteForParticipant(db, threadId, owner.id))) throw ApiError.notFound();
}
