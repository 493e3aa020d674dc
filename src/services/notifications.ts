import { z } from "zod";
import type { DB } from "../db/client";
import { findContainer, findContainersByIds } from "../db/queries/catalogue";
import type { Job } from "../db/queries/jobs";
import {
  countContainerSubscribers,
  countNotifications,
  deleteNotification,
  fanoutChunk,
  findNotification,
  findUserRefs,
  listNotifications,
  setNotificationUnread,
  type FanoutScope,
  type NotificationRow,
} from "../db/queries/notifications";
import { ApiError } from "../lib/errors";
import type { User } from "../types";
import type { ContainerRow } from "../db/schema";

/** The containers and senders a page of notifications names, read once for the page. */
export interface NotificationRefs {
  containers: Map<number, Pick<ContainerRow, "id" | "type" | "doc">>;
  senders: Map<number, { id: number; username: string }>;
}
import { isListedManager } from "./access";

/** Characters of a notification's content (after trimming); small enough to travel in the job's params. */
export const MAX_NOTIFICATION_LENGTH = 2000;
/** Subscribers per fan-out statement: one INSERT ... SELECT each, so the chunk size binds no parameters. */
const FANOUT_CHUNK = 500;

/** `jobs.params` of a notification-fanout job. */
export const NotificationFanoutParams = z.object({
  containerId: z.number().int().positive(),
  senderId: z.number().int().positive(),
  content: z.string().min(1).max(MAX_NOTIFICATION_LENGTH),
});
export type NotificationFanoutParams = z.infer<typeof NotificationFanoutParams>;

/**
 * Who may notify a container's subscribers: 404 when the container does not exist, 403 unless the sender
 * manages it (staff included: only managers speak for a channel). Returns the container.
 */
export async function assertMayNotify(db: DB, sender: User, containerId: number) {
  const container = await findContainer(db, containerId);
  if (!container) throw ApiError.notFound();
  if (!(await isListedManager(db, sender, container.id))) {
    throw ApiError.forbidden("only a manager of this container may notify its subscribers");
  }
  return container;
}

/**
 * The fan-out job: walks the container's subscribers in user order, `FANOUT_CHUNK` at a time (keyset on
 * `subscriptions_resource_user`), inserting one notification each. Idempotent: `(job_id, user_id)` is unique,
 * so a replay after a crash re-walks and inserts only the copies still missing. Result: `{container_id,
 * recipients}`, the subscribers walked (each holds exactly one copy afterwards).
 */
export async function fanOutNotification(
  db: DB,
  job: Job,
  params: NotificationFanoutParams,
  progress: (percent: number) => Promise<void>,
  chunkSize = FANOUT_CHUNK,
) {
  const scope: FanoutScope = {
    jobId: job.id,
    containerId: params.containerId,
    senderId: params.senderId,
    content: params.content,
    createdAt: Math.floor(job.createdAt.getTime() / 1000),
  };
  const expected = await countContainerSubscribers(db, params.containerId);
  await progress(5);
  let cursor = 0;
  let recipients = 0;
  for (;;) {
    const { walked, last } = await fanoutChunk(db, scope, cursor, chunkSize);
    if (walked === 0 || last === null) break;
    recipients += walked;
    cursor = last;
    await progress(5 + Math.min(94, Math.floor((94 * recipients) / Math.max(expected, 1))));
    if (walked < chunkSize) break;
  }
  return { container_id: `${params.containerId}c`, recipients };
}

/**
 * A page of a user's inbox (up to `limit` rows, newest first) with the page's containers and senders,
 * batch-loaded by primary key: one statement each, however many notifications share them.
 */
export async function readInboxPage(db: DB, userId: number, unreadOnly: boolean, offset: number, limit: number, perPage: number) {
  const rows = await listNotifications(db, userId, unreadOnly, offset, limit);
  return { rows, refs: await loadRefs(db, rows.slice(0, perPage)) };
}

async function loadRefs(db: DB, rows: NotificationRow[]): Promise<NotificationRefs> {
  const containerIds = [...new Set(rows.map((r) => r.containerId).filter((id): id is number => id !== null))];
  const senderIds = [...new Set(rows.map((r) => r.senderId).filter((id): id is number => id !== null))];
  const [cs, us] = await Promise.all([findContainersByIds(db, containerIds), findUserRefs(db, senderIds)]);
  return { containers: new Map(cs.map((c) => [c.id, c])), senders: new Map(us.map((u) => [u.id, u])) };
}

/** The inbox's size (only the unread ones with `unreadOnly`), from the per-user counter: one row read. */
export async function countInbox(db: DB, userId: number, unreadOnly: boolean) {
  const counts = await countNotifications(db, userId);
  return unreadOnly ? counts.unread : counts.total;
}

/** One of the user's notifications with its container and sender; another user's id is a 404. */
export async function readNotification(db: DB, userId: number, id: number) {
  const row = await findNotification(db, userId, id);
  if (!row) throw ApiError.notFound();
  return { row, refs: await loadRefs(db, [row]) };
}

/** Sets the read flag (idempotent) and answers the notification as `readNotification` does. */
export async function markNotification(db: DB, userId: number, id: number, unread: boolean) {
  const row = await setNotificationUnread(db, userId, id, unread);
  if (!row) throw ApiError.notFound();
  return { row, refs: await loadRefs(db, [row]) };
}

export async function removeNotification(db: DB, userId: number, id: number) {
  if (!(await deleteNotification(db, userId, id))) throw ApiError.notFound();
}
