import type { NotificationRow } from "../db/queries/notifications";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";
import type { ViewContext } from "../lib/view-context";
import type { NotificationRefs } from "../services/notifications";
import { containerConcise } from "./catalogue";
import { userRef } from "./user";

/**
 * `{id: "7n", content, unread, container: {id, type, titles, url} | null, sender: {id, username, url} | null,
 * created_at}`. The container and sender are null once deleted (or, for the page, not loaded).
 */
export function notificationView(n: NotificationRow, refs: NotificationRefs, ctx: ViewContext) {
  const container = n.containerId === null ? undefined : refs.containers.get(n.containerId);
  const sender = n.senderId === null ? undefined : refs.senders.get(n.senderId);
  return {
    id: formatId(n.id, "n"),
    content: n.content,
    unread: n.unread,
    container: container ? containerConcise(container, ctx) : null,
    sender: sender ? userRef(sender, ctx.origin) : null,
    created_at: isoTime(n.createdAt),
  };
}
