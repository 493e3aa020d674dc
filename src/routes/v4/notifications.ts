import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { ApiError } from "../../lib/errors";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { signingApplicationId } from "../../jobs/enqueue";
import { startNotificationFanout } from "../../jobs/notification-fanout";
import { depsOf } from "../../services/deps";
import {
  MAX_NOTIFICATION_LENGTH,
  countInbox,
  markNotification,
  readInboxPage,
  readNotification,
  removeNotification,
} from "../../services/notifications";
import type { AppEnv, User } from "../../types";
import { jobView } from "../../views/job";
import { notificationView } from "../../views/notification";
import {
  InboxQuery,
  MarkQuery,
  NotificationCount,
  NotificationCreateBody,
  NotificationCreateQuery,
  NotificationList,
  NotificationSchema,
  notificationParams,
  userParam,
} from "./contracts/notifications";
import { JobEnvelope } from "./jobs";

/**
 * After `ownerOnly`, for sending: the notification goes out in the sender's name to every subscriber, so the
 * path user must be the token's user; staff may not send as someone else (403).
 */
const senderItself = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get("owner").id !== c.get("user")!.id) throw ApiError.forbidden("a notification is sent only in one's own name");
  return next();
});

const JobAccepted = jsonResponse(JobEnvelope, "the queued notification-fanout job");
const createDescription =
  "Only a manager of the container may send (staff too must manage it). The path user must be the token's " +
  `user. \`content\`: 1 to ${MAX_NOTIFICATION_LENGTH} characters after trimming. Answers 202 with a ` +
  "`notification-fanout` job that gives every subscriber of the container one copy, in chunks; its result is " +
  "`{container_id, recipients}`.";

const create = withProperties(
  createRoute({
    method: "post",
    path: "/{user_id}/notifications",
    summary: "Notify a container's subscribers (its managers; a queued job)",
    description: createDescription,
    middleware: [senderItself] as const,
    request: { params: userParam, query: NotificationCreateQuery, body: jsonBody(NotificationCreateBody) },
    responses: { 202: JobAccepted, ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["owner"], writeLimit: "catalogue" },
);

const createAlias = withProperties(
  createRoute({
    method: "post",
    path: "/",
    summary: "Notify a container's subscribers, as the token's user (alias)",
    description: createDescription,
    request: { query: NotificationCreateQuery, body: jsonBody(NotificationCreateBody) },
    responses: { 202: JobAccepted, ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["user"], writeLimit: "catalogue" },
);

const inboxResponses = {
  200: jsonResponse(z.union([NotificationList, NotificationCount]), "the list envelope, or `{count}` with `only_count=true`"),
  ...errorResponses(400, 401, 403, 404),
};
const inboxDescription =
  'Newest first. `unread=true` keeps unread ones; `only_count=true` answers `{"count": N}` (unread with ' +
  "`unread=true`, else all), read from a per-user counter. Paging as everywhere; a page reads about " +
  "`offset + per_page` index entries plus its rows, containers and senders.";

const inbox = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/notifications",
    summary: "A user's notifications (the user or staff)",
    description: inboxDescription,
    request: { params: userParam, query: InboxQuery },
    responses: inboxResponses,
  }),
  { security: ["owner"], cache: "user" },
);

const inboxAlias = withProperties(
  createRoute({
    method: "get",
    path: "/",
    summary: "The token's user's notifications (alias)",
    description: inboxDescription,
    request: { query: InboxQuery },
    responses: inboxResponses,
  }),
  { security: ["user"], cache: "user" },
);

const readOne = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/notifications/{notification_id}",
    summary: "One notification (the user or staff); reading does not change the read flag",
    request: { params: notificationParams },
    responses: { 200: jsonResponse(NotificationSchema, "the notification"), ...errorResponses(401, 403, 404) },
  }),
  { security: ["owner"], cache: "user" },
);

const mark = withProperties(
  createRoute({
    method: "put",
    path: "/{user_id}/notifications/{notification_id}",
    summary: "Mark a notification read (`unread=false`) or unread (`unread=true`) (the user or staff)",
    description: "Idempotent: marking a read notification read again changes nothing. Another user's id is 404.",
    request: { params: notificationParams, query: MarkQuery },
    responses: { 200: jsonResponse(NotificationSchema, "the notification"), ...errorResponses(400, 401, 403, 404) },
  }),
  { security: ["owner"], writeLimit: null, noWriteLimitBecause: "marks the caller's own notification read" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{user_id}/notifications/{notification_id}",
    summary: "Delete a notification (the user or staff)",
    request: { params: notificationParams },
    responses: { 204: { description: "deleted" }, ...errorResponses(401, 403, 404) },
  }),
  { security: ["owner"], writeLimit: null, noWriteLimitBecause: "deletes the caller's own notification" },
);

type Created = { container_id: string };
async function send(c: Context<AppEnv>, sender: User, query: Created, content: string) {
  const containerId = Number.parseInt(query.container_id, 10);
  const job = await startNotificationFanout(depsOf(c), sender, containerId, content, signingApplicationId(c));
  return { job: jobView(job, new URL(c.req.url).origin) };
}

type InboxBody = z.infer<typeof NotificationList> | z.infer<typeof NotificationCount>;

async function listInbox(c: Context<AppEnv>, userId: number, q: z.infer<typeof InboxQuery>): Promise<InboxBody> {
  const { db } = depsOf(c);
  const unreadOnly = q.unread ?? false;
  const countOf = () => countInbox(db, userId, unreadOnly);
  if (q.only_count) return { count: await countOf() };
  const p = paging(q);
  const { rows, refs } = await readInboxPage(db, userId, unreadOnly, p.offset, p.limit, p.onlyIds ? 0 : p.perPage);
  const ctx = viewContext(c);
  return listEnvelope(
    c.req.url,
    p,
    rows,
    (r) => notificationView(r, refs, ctx),
    (r) => formatId(r.id, "n"),
    countOf,
  );
}

const viewOne = (c: Context<AppEnv>, found: Awaited<ReturnType<typeof readNotification>>) =>
  notificationView(found.row, found.refs, viewContext(c));

/** Under `/v4/users`: a user's own notifications. */
export const userNotificationsRouter = routeGroup({ tag: "notifications" })
  .openapi(create, async (c) => {
    const body = await send(c, c.get("user")!, c.req.valid("query"), c.req.valid("json").content);
    return c.json(body, 202);
  })
  .openapi(inbox, async (c) => c.json(await listInbox(c, c.get("owner").id, c.req.valid("query")), 200))
  .openapi(readOne, async (c) => {
    const id = parseId(c.req.valid("param").notification_id, "n");
    return c.json(viewOne(c, await readNotification(depsOf(c).db, c.get("owner").id, id)), 200);
  })
  .openapi(mark, async (c) => {
    const id = parseId(c.req.valid("param").notification_id, "n");
    const found = await markNotification(depsOf(c).db, c.get("owner").id, id, c.req.valid("query").unread);
    return c.json(viewOne(c, found), 200);
  })
  .openapi(remove, async (c) => {
    const id = parseId(c.req.valid("param").notification_id, "n");
    await removeNotification(depsOf(c).db, c.get("owner").id, id);
    return c.body(null, 204);
  });

/** Under `/v4/notifications`: the same for the token's user, without naming them. */
export const notificationsRouter = routeGroup()
  .openapi(createAlias, async (c) => {
    const body = await send(c, c.get("user")!, c.req.valid("query"), c.req.valid("json").content);
    return c.json(body, 202);
  })
  .openapi(inboxAlias, async (c) => c.json(await listInbox(c, c.get("user")!.id, c.req.valid("query")), 200));
