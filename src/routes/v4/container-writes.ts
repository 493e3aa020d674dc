import { createRoute } from "@hono/zod-openapi";
import { findContainer } from "../../db/queries/catalogue";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { requireStaff, requireUser } from "../../middleware/session";
import {
  createContainer,
  deleteContainer,
  manageableContainer,
  updateContainer,
} from "../../services/catalogue-writes";
import { invalidateCatalogueListings } from "../../services/kv-cache";
import { containerView } from "../../views/catalogue";
import { ContainerSchema, idParam } from "./contracts/catalogue";
import { ContainerCreateBody, ContainerUpdateBody } from "./contracts/catalogue-writes";


const create = createRoute({
  method: "post",
  path: "/v4/containers",
  summary: "Create a container (staff)",
  description:
    "Staff only (no token 401/4500, anyone else 403/5403). `titles.en` is required. Genres come from the " +
    "general set for films, series and news and from the music set for artists; a genre of the wrong set is a " +
    "400 naming `genres`. Unknown fields are refused (400). Answers 201 with the container.",
  middleware: [requireStaff] as const,
  request: { body: jsonBody(ContainerCreateBody) },
  responses: { 201: jsonResponse(ContainerSchema, "the new container"), ...errorResponses(400, 401, 403, 413) },
});

const update = createRoute({
  method: "put",
  path: "/v4/containers/{container_id}",
  summary: "Edit a container (staff and its managers)",
  description:
    "Only the fields sent change; `genres`, `licenses` and `managers` are replaced as a whole. Managers may edit " +
    "`origin`, `genres`, `images`, `release_date` and the flags `adult`, `on_air`, `upcoming`; `type`, `state`, " +
    "`managers`, `licenses` and the flags `hosted` and `licensed` are staff only (403 naming them). Titles and " +
    "descriptions change through their own endpoints (400 naming `titles`/`descriptions`). A new `type` must fit " +
    "the container's videos (400 naming `type`) and genres.",
  middleware: [requireUser] as const,
  request: { params: idParam("container_id", "50c"), body: jsonBody(ContainerUpdateBody) },
  responses: { 200: jsonResponse(ContainerSchema, "the container as edited"), ...errorResponses(400, 401, 403, 404, 413) },
});

const remove = createRoute({
  method: "delete",
  path: "/v4/containers/{container_id}",
  summary: "Delete a container (staff)",
  description:
    "Staff only; managers get 403. Its videos, titles, descriptions, genres, licences, managers, completions, " +
    "list items, subscriptions, markers, segments, subtitles and timed comments go with it.",
  middleware: [requireStaff] as const,
  request: { params: idParam("container_id", "50c") },
  responses: { 204: { description: "deleted" }, ...errorResponses(401, 403, 404) },
});

export const containerWritesRouter = createRouter()
  .openapi(create, async (c) => {
    const container = await createContainer(c.get("db"), c.req.valid("json"));
    await invalidateCatalogueListings(c.env.CACHE);
    return c.json(containerView(container, viewContext(c)), 201);
  })
  .openapi(update, async (c) => {
    const db = c.get("db");
    const user = c.get("user")!;
    const container = await manageableContainer(db, user, parseId(c.req.valid("param").container_id, "c"));
    const result = await updateContainer(db, user, container, c.req.valid("json"));
    if (result.listingsChanged) await invalidateCatalogueListings(c.env.CACHE);
    return c.json(containerView(result.container, viewContext(c)), 200);
  })
  .openapi(remove, async (c) => {
    const db = c.get("db");
    const container = await findContainer(db, parseId(c.req.valid("param").container_id, "c"));
    if (!container) throw ApiError.notFound();
    await deleteContainer(db, container.id);
    await invalidateCatalogueListings(c.env.CACHE);
    return c.body(null, 204);
  });
