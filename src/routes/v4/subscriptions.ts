import { createRoute, z } from "@hono/zod-openapi";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { MAX_SUBSCRIPTIONS, allSubscriptionIds, follow, unfollow } from "../../services/follows";
import { followItemView } from "../../views/community";
import { followPageBody } from "./follow-page";
import {
  FollowBody,
  FollowParams,
  SubscriptionIds,
  SubscriptionItem,
  SubscriptionList,
  SubscriptionListQuery,
  UserParams,
} from "./contracts/follows";
import { CountSchema } from "./contracts/threads";

const GUARD =
  "Official applications only (`app=` of an official application: none is 400 naming `app`, another 403), then the " +
  "owner's token (`token=` or `Authorization: Bearer`) or staff: none 401 (vcode 4500), another user's 403 (vcode 5403).";

const list = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/subscriptions",
    summary: "A user's subscriptions, newest first",
    description:
      `${GUARD} Items are the full container and video objects plus \`subscribed_at\`; items deleted or no longer in ` +
      "the normal state are left out of their page. `ids=true` answers a bare array of every subscribed id " +
      `(\`["12c", "40v"]\`), newest first and unpaged; a user holds at most ${MAX_SUBSCRIPTIONS} subscriptions. ` +
      '`only_count=true` answers `{"count": N}`, the number of subscriptions, from a per-user counter (with ' +
      "`ids=true` as well: 400 naming `only_count`).",
    request: { params: UserParams, query: SubscriptionListQuery },
    responses: {
      200: jsonResponse(
        z.union([SubscriptionList, SubscriptionIds, CountSchema]),
        'the list envelope, with `ids=true` a bare array of ids, with `only_count=true` `{"count": N}`',
      ),
      ...errorResponses(400, 401, 403, 404),
    },
  }),
  { security: ["officialApp", "owner"], cache: "user" },
);

const create = withProperties(
  createRoute({
    method: "post",
    path: "/{user_id}/subscriptions",
    summary: "Subscribe to a container or video",
    description:
      `${GUARD} The resource must exist and be in the normal state (a video's container too), else 404 naming ` +
      "`resource_id`; a malformed id or an unknown field is 400. Subscribing twice is harmless: 201 the first time, " +
      `200 afterwards (the first \`subscribed_at\` stays). At most ${MAX_SUBSCRIPTIONS} subscriptions per user: ` +
      "one more is 400 naming `resource_id`.",
    request: { params: UserParams, body: jsonBody(FollowBody("subscribe to")) },
    responses: {
      201: jsonResponse(SubscriptionItem, "subscribed"),
      200: jsonResponse(SubscriptionItem, "already subscribed; nothing changed"),
      ...errorResponses(400, 401, 403, 404, 413),
    },
  }),
  { security: ["officialApp", "owner"], writeLimit: null, noWriteLimitBecause: "a user's own list, bounded by what it holds" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{user_id}/subscriptions/{resource_id}",
    summary: "Unsubscribe",
    description: `${GUARD} 404 when the user is not subscribed to it.`,
    request: { params: FollowParams },
    responses: { 204: { description: "unsubscribed" }, ...errorResponses(400, 401, 403, 404) },
  }),
  { security: ["officialApp", "owner"], writeLimit: null, noWriteLimitBecause: "a user's own list, bounded by what it holds" },
);

export const subscriptionsRouter = routeGroup({ tag: "subscriptions" })
  .openapi(list, async (c) => {
    const db = c.get("db");
    const owner = c.get("owner");
    const q = c.req.valid("query");
    if (q.ids) return c.json(await allSubscriptionIds(db, owner.id), 200);
    const body = await followPageBody(c, "subscriptions", "subscribed_at", q);
    return c.json(body, 200);
  })
  .openapi(create, async (c) => {
    const { created, ...item } = await follow(c.get("db"), "subscriptions", c.get("owner").id, c.req.valid("json").resource_id);
    const body = followItemView(item, "subscribed_at", viewContext(c));
    return created ? c.json(body, 201) : c.json(body, 200);
  })
  .openapi(remove, async (c) => {
    await unfollow(c.get("db"), "subscriptions", c.get("owner").id, c.req.valid("param").resource_id);
    return c.body(null, 204);
  });
