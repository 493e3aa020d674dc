import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import {
  MAX_MESSAGE_LENGTH,
  MAX_THREAD_MESSAGES,
  countThreads,
  deleteThread,
  listThreads,
  markUnread,
  readThread,
  reply,
  startThread,
  type ThreadType,
} from "../../services/threads";
import type { AppEnv } from "../../types";
import { messageView, threadView } from "../../views/community";
import {
  AlertsQuery,
  CountSchema,
  MessageCreateBody,
  MessageSchema,
  ThreadCreateBody,
  ThreadList,
  ThreadListQuery,
  ThreadMarkQuery,
  ThreadParams,
  ThreadSchema,
} from "./contracts/threads";
import { UserParams } from "./contracts/follows";

const GUARD =
  "The owner's token (`token=` or `Authorization: Bearer`) or staff: none 401 (vcode 4500), another user's 403 " +
  "(vcode 5403). A thread the owner is not in, or has deleted, is 404.";

const list = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/threads",
    summary: "Inbox or sent threads, newest last message first",
    description:
      `${GUARD} \`type=inbox\` (default) holds threads with a message from the other participant, \`type=sent\` ` +
      "threads with a message from the owner (a conversation is in both). `unread=true` keeps the inbox's unread " +
      'threads. `only_count=true` answers `{"count": N}`.',
    request: { params: UserParams, query: ThreadListQuery },
    responses: {
      200: jsonResponse(z.union([ThreadList, CountSchema]), 'the list envelope, or `{"count": N}`'),
      ...errorResponses(400, 401, 403, 404),
    },
  }),
  { security: ["owner"], cache: "user" },
);

const create = withProperties(
  createRoute({
    method: "post",
    path: "/{user_id}/threads",
    summary: "Start a thread with another user",
    description:
      `${GUARD} \`content\` is 1 to ${MAX_MESSAGE_LENGTH} characters (trimmed). \`to\` may not be the owner (400); ` +
      "a user that does not exist is 404 naming `to`. The thread is read and in Sent for the sender, unread and in " +
      "the Inbox for the recipient.",
    request: { params: UserParams, body: jsonBody(ThreadCreateBody) },
    responses: { 201: jsonResponse(ThreadSchema, "the new thread with its message"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["owner"], writeLimit: "threads" },
);

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/threads/{thread_id}",
    summary: "A thread and its messages",
    description:
      `${GUARD} Answers the last ${MAX_THREAD_MESSAGES} messages, oldest first (\`more_messages\` is true when there ` +
      "are older ones). Reading does not change the read flag: that is `PUT ...?unread=false`.",
    request: { params: ThreadParams },
    responses: { 200: jsonResponse(ThreadSchema, "the thread with `messages`"), ...errorResponses(401, 403, 404) },
  }),
  { security: ["owner"], cache: "user" },
);

const replyRoute = withProperties(
  createRoute({
    method: "post",
    path: "/{user_id}/threads/{thread_id}/messages",
    summary: "Reply in a thread",
    description:
      `${GUARD} \`content\` is 1 to ${MAX_MESSAGE_LENGTH} characters (trimmed). The thread moves to the owner's Sent ` +
      "(read); for the other participant it becomes unread and goes to their Inbox, and comes back if they had " +
      "deleted it (with its earlier messages).",
    request: { params: ThreadParams, body: jsonBody(MessageCreateBody) },
    responses: { 201: jsonResponse(MessageSchema, "the new message"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["owner"], writeLimit: "messages" },
);

const mark = withProperties(
  createRoute({
    method: "put",
    path: "/{user_id}/threads/{thread_id}",
    summary: "Mark a thread read or unread",
    description: `${GUARD} \`unread=false\` marks it read, \`unread=true\` unread (the interface's state table); \`unread\` is required.`,
    request: { params: ThreadParams, query: ThreadMarkQuery },
    responses: { 200: jsonResponse(ThreadSchema, "the thread"), ...errorResponses(400, 401, 403, 404) },
  }),
  { security: ["owner"], writeLimit: null, noWriteLimitBecause: "marks the caller's own thread read or unread" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{user_id}/threads/{thread_id}",
    summary: "Delete a thread for the owner",
    description:
      `${GUARD} Only the owner's copy goes; the other participant keeps theirs. A later reply from them brings it back. ` +
      "Once both participants have deleted it, the thread and its messages are removed.",
    request: { params: ThreadParams },
    responses: { 204: { description: "deleted for the owner" }, ...errorResponses(401, 403, 404) },
  }),
  { security: ["owner"], writeLimit: null, noWriteLimitBecause: "deletes the caller's own thread" },
);

const alertsRoute = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/alerts",
    summary: "Unread messages: the inbox's unread threads",
    description:
      `${GUARD.split(" A thread")[0]} The interface's "count of unread messages": \`only_count=true\` answers ` +
      '`{"count": N}`, N = unread threads in the inbox (notifications keep their own count, ' +
      "`notifications.json?unread=true&only_count=true`). Without `only_count`, those threads as a paged list, " +
      "exactly as `threads.json?type=inbox&unread=true`. `unread` may be `true` or absent.",
    request: { params: UserParams, query: AlertsQuery },
    responses: {
      200: jsonResponse(z.union([ThreadList, CountSchema]), 'the unread threads, or `{"count": N}`'),
      ...errorResponses(400, 401, 403, 404),
    },
  }),
  { security: ["owner"], cache: "user" },
);

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const threadId = (raw: string) => parseId(raw, "t");

/** A folder as threads.json and alerts.json answer it: `{"count": N}` with `only_count`, else a page. */
async function folderBody(
  c: Context<AppEnv>,
  type: ThreadType,
  unread: boolean,
  q: Parameters<typeof paging>[0] & { only_count?: boolean },
) {
  const db = c.get("db");
  const owner = c.get("owner");
  if (q.only_count) return { count: await countThreads(db, owner, type, unread) };
  const p = paging(q);
  const { rows, count } = await listThreads(db, owner, type, unread, p);
  return listEnvelope(
    c.req.url,
    p,
    rows,
    (row) => threadView(row, owner, origin(c)),
    (row) => formatId(row.threadId, "t"),
    count,
  );
}

export const threadsRouter = routeGroup({ tag: "threads" })
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    return c.json(await folderBody(c, q.type, q.unread ?? false, q), 200);
  })
  .openapi(create, async (c) => {
    const owner = c.get("owner");
    const { to, content } = c.req.valid("json");
    const { row, messages, more } = await startThread(c.get("db"), owner, to, content);
    return c.json(threadView(row, owner, origin(c), { list: messages, more }), 201);
  })
  .openapi(read, async (c) => {
    const owner = c.get("owner");
    const { row, messages, more } = await readThread(c.get("db"), owner, threadId(c.req.valid("param").thread_id));
    return c.json(threadView(row, owner, origin(c), { list: messages, more }), 200);
  })
  .openapi(replyRoute, async (c) => {
    const owner = c.get("owner");
    const id = threadId(c.req.valid("param").thread_id);
    const { row, message } = await reply(c.get("db"), owner, id, c.req.valid("json").content);
    return c.json(messageView(message, row, owner), 201);
  })
  .openapi(mark, async (c) => {
    const owner = c.get("owner");
    const id = threadId(c.req.valid("param").thread_id);
    const row = await markUnread(c.get("db"), owner, id, c.req.valid("query").unread);
    return c.json(threadView(row, owner, origin(c)), 200);
  })
  .openapi(remove, async (c) => {
    await deleteThread(c.get("db"), c.get("owner"), threadId(c.req.valid("param").thread_id));
    return c.body(null, 204);
  })
  .openapi(alertsRoute, async (c) => {
    return c.json(await folderBody(c, "inbox", true, c.req.valid("query")), 200);
  });
