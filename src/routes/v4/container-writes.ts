import { createRoute } from "@hono/zod-openapi";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { manageableContainer } from "../../services/catalogue";
import { startContainerDelete } from "../../jobs/container-delete";
import { signingApplicationId } from "../../jobs/enqueue";
import { createContainer, updateContainer } from "../../services/catalogue-writes";
import { CONTAINER_DELETE_SYNC_ROWS } from "../../services/container-delete";
import { depsOf } from "../../services/deps";
import { containerView } from "../../views/catalogue";
import { jobView } from "../../views/job";
import { ContainerSchema, idParam } from "./contracts/catalogue";
import { ContainerCreateBody, ContainerUpdateBody } from "./contracts/catalogue-writes";
import { JobEnvelope } from "./jobs";

const create = withProperties(
  createRoute({
    method: "post",
    path: "/",
    summary: "Create a container (staff)",
    description:
      "Staff only (no token 401/4500, anyone else 403/5403). `titles.en` is required. Genres come from the " +
      "general set for films, series and news and from the music set for artists; a genre of the wrong set is a " +
      "400 naming `genres`. Unknown fields are refused (400). Answers 201 with the container.",
    request: { body: jsonBody(ContainerCreateBody) },
    responses: { 201: jsonResponse(ContainerSchema, "the new container"), ...errorResponses(400, 401, 403, 413) },
  }),
  { security: ["staff"], writeLimit: "catalogue" },
);

const update = withProperties(
  createRoute({
    method: "put",
    path: "/{container_id}",
    summary: "Edit a container (staff and its managers)",
    description:
      "Only the fields sent change; `genres`, `licenses` and `managers` are replaced as a whole. Managers may edit " +
      "`origin`, `genres`, `images`, `release_date` and the flags `adult`, `on_air`, `upcoming`; `type`, `state`, " +
      "`managers`, `licenses` and the flags `hosted` and `licensed` are staff only (403 naming them). Titles and " +
      "descriptions change through their own endpoints (400 naming `titles`/`descriptions`). A new `type` must fit " +
      "the container's videos (400 naming `type`) and genres.",
    request: { params: idParam("container_id", "50c"), body: jsonBody(ContainerUpdateBody) },
    responses: { 200: jsonResponse(ContainerSchema, "the container as edited"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["user"], writeLimit: "catalogue" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{container_id}",
    summary: "Delete a container (staff)",
    description:
      "Staff only; managers get 403. Its videos, titles, descriptions, genres, licences, managers, completions, " +
      "list items, subscriptions, markers, segments, subtitles and timed comments go with it. A container that " +
      `takes more than ${CONTAINER_DELETE_SYNC_ROWS} rows with it (videos, segments, subtitles, timed comments, ` +
      "subtitle histories) is hidden at once (state `blocked`) and answered 202 with a `container-delete` job " +
      "that removes it in chunks; smaller ones are deleted in the request (204).",
    request: { params: idParam("container_id", "50c") },
    responses: {
      202: jsonResponse(JobEnvelope, "the container is hidden; the queued container-delete job removes it"),
      204: { description: "deleted" },
      ...errorResponses(401, 403, 404),
    },
  }),
  { security: ["staff"], writeLimit: "catalogue" },
);

export const containerWritesRouter = routeGroup()
  .openapi(create, async (c) => {
    const container = await createContainer(depsOf(c), c.req.valid("json"));
    return c.json(containerView(container, viewContext(c)), 201);
  })
  .openapi(update, async (c) => {
    const deps = depsOf(c);
    const user = c.get("user")!;
    const container = await manageableContainer(deps, user, parseId(c.req.valid("param").container_id, "c"));
    const updated = await updateContainer(deps, user, container, c.req.valid("json"));
    return c.json(containerView(updated, viewContext(c)), 200);
  })
  .openapi(remove, async (c) => {
    const containerId = parseId(c.req.valid("param").container_id, "c");
    const job = await startContainerDelete(depsOf(c), c.get("user")!, containerId, signingApplicationId(c));
    if (job) return c.json({ job: jobView(job, new URL(c.req.url).origin) }, 202);
    return c.body(null, 204);
  });
