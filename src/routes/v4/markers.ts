import { createRoute, z } from "@hono/zod-openapi";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { follow, unfollow } from "../../services/follows";
import { followItemView } from "../../views/community";
import { followPageBody } from "./follow-page";
import { FollowBody, FollowListQuery, FollowParams, MarkerItem, MarkerList, UserParams } from "./contracts/follows";
import { CountSchema } from "./contracts/threads";

const GUARD = "The owner's token (`token=` or `Authorization: Bearer`) or staff: none 401 (vcode 4500), another user's 403 (vcode 5403).";

const list = withProperties(
  createRoute({
    method: "get",
    path: "/{user_id}/markers",
    summary: "A user's markers, newest first",
    description:
      `${GUARD} Items are the full container and video objects plus \`marked_at\`; items deleted or no longer in the ` +
      'normal state are left out of their page. `only_count=true` answers `{"count": N}`, the number of markers ' +
      "(items left out of pages included), from a per-user counter.",
    request: { params: UserParams, query: FollowListQuery },
    responses: {
      200: jsonResponse(z.union([MarkerList, CountSchema]), 'the list envelope, or `{"count": N}` with `only_count=true`'),
      ...errorResponses(400, 401, 403, 404),
    },
  }),
  { security: ["owner"], cache: "user" },
);

const create = withProperties(
  createRoute({
    method: "post",
    path: "/{user_id}/markers",
    summary: "Mark a container or video",
    description:
      `${GUARD} Body \`{"resource_id": "12v"}\`: the resource must exist and be in the normal state (a video's ` +
      "container too), else 404 naming `resource_id`; a malformed id or an unknown field is 400. Marking twice is " +
      "harmless: 201 the first time, 200 afterwards (the first `marked_at` stays).",
    request: { params: UserParams, body: jsonBody(FollowBody("mark")) },
    responses: {
      201: jsonResponse(MarkerItem, "marked"),
      200: jsonResponse(MarkerItem, "already marked; nothing changed"),
      ...errorResponses(400, 401, 403, 404, 413),
    },
  }),
  { security: ["owner"], writeLimit: null, noWriteLimitBecause: "a user's own list, bounded by what it holds" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{user_id}/markers/{resource_id}",
    summary: "Remove a marker",
    description: `${GUARD} 404 when the user has not marked it.`,
    request: { params: FollowParams },
    responses: { 204: { description: "removed" }, ...errorResponses(401, 403, 404) },
  }),
  { security: ["owner"], writeLimit: null, noWriteLimitBecause: "a user's own list, bounded by what it holds" },
);

export const markersRouter = routeGroup({ tag: "markers" })
  .openapi(list, async (c) => {
    const body = await followPageBody(c, "markers", "marked_at", c.req.valid("query"));
    return c.json(body, 200);
  })
  .openapi(create, async (c) => {
    const { created, ...item } = await follow(c.get("db"), "markers", c.get("owner").id, c.req.valid("json").resource_id);
    const body = followItemView(item, "marked_at", viewContext(c));
    return created ? c.json(body, 201) : c.json(body, 200);
  })
  .openapi(remove, async (c) => {
    await unfollow(c.get("db"), "markers", c.get("owner").id, c.req.valid("param").resource_id);
    return c.body(null, 204);
  });
