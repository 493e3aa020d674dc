import type { ThreadRow } from "../db/queries/threads";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import type { ViewContext } from "../lib/view-context";
import type { FollowItem } from "../services/follows";
import type { MessageRow } from "../services/threads";
import type { User } from "../types";
import { containerView, videoView } from "./catalogue";

/**
 * A subscribed or marked resource: the full container or video object (the id suffix and `type` tell the
 * kinds apart) plus when it was followed, under `subscribed_at` or `marked_at`.
 */
export function followItemView<K extends "subscribed_at" | "marked_at">(item: FollowItem, at: K, ctx: ViewContext) {
  const { entry } = item;
  const resource = entry.kind === "c" ? containerView(entry.container, ctx) : videoView(entry.video, entry.container, ctx);
  // TypeScript types a computed key as an index signature; the key is exactly `at`.
  return { ...resource, [at]: isoTime(item.at) } as typeof resource & Record<K, string | null>;
}

type Person = Pick<User, "id" | "username">;
const personView = (p: Person) => ({ id: formatId(p.id, "u"), username: p.username });

/** The two people of a thread as seen by `owner`; `peer` is null when that user no longer exists. */
function people(row: ThreadRow, owner: Person) {
  const peer = row.peerId !== null && row.peerUsername !== null ? { id: row.peerId, username: row.peerUsername } : null;
  const byId = new Map<number, Person>([[owner.id, owner]]);
  if (peer) byId.set(peer.id, peer);
  return byId;
}

function messageIn(m: MessageRow, byId: Map<number, Person>) {
  const sender = byId.get(m.senderId);
  return {
    id: formatId(m.id, "m"),
    sender: sender ? personView(sender) : { id: formatId(m.senderId, "u"), username: null },
    content: m.content,
    created_at: isoTime(m.createdAt),
  };
}

/** One message of the thread `row`, as `owner` sees it. */
export const messageView = (m: MessageRow, row: ThreadRow, owner: Person) => messageIn(m, people(row, owner));

/**
 * A thread as one participant sees it: both participants (by user id), the last message, their own read
 * flag, and with `messages` (oldest first) when one thread is read.
 */
export function threadView(row: ThreadRow, owner: Person, origin: string, messages?: { list: MessageRow[]; more: boolean }) {
  const byId = people(row, owner);
  const id = formatId(row.threadId, "t");
  const last: MessageRow = { id: row.messageId, senderId: row.senderId, content: row.content, createdAt: row.messageCreatedAt };
  return {
    id,
    participants: [...byId.values()].sort((a, b) => a.id - b.id).map(personView),
    last_message: messageIn(last, byId),
    unread: row.unread,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.lastMessageAt),
    url: { api: `${origin}/v4/users/${formatId(owner.id, "u")}/threads/${id}.json` },
    ...(messages ? { messages: messages.list.map((m) => messageIn(m, byId)), more_messages: messages.more } : {}),
  };
}
