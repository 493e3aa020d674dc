import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { manageableContainer, manageableVideo } from "../../services/catalogue";
import { putText, removeText } from "../../services/catalogue-writes";
import { depsOf, type Deps } from "../../services/deps";
import type { User } from "../../types";
import { DescriptionBody, OkSchema, TitleBody, normaliseLanguageCode } from "./contracts/catalogue-writes";

/**
 * Titles and descriptions of containers and videos (docs/spec/paths.md): POST creates or replaces one language (201
 * `{"ok": true}`), DELETE removes one (204). Staff and the container's managers only. Eight routes, each declared
 * with its own path.
 */
const ContainerParam = z.object({ container_id: z.string().openapi({ param: { name: "container_id", in: "path" }, example: "50c" }) });
const VideoParam = z.object({ video_id: z.string().openapi({ param: { name: "video_id", in: "path" }, example: "1v" }) });
const language_code = z.string().openapi({ param: { name: "language_code", in: "path" }, example: "ko" });

const WHO = "Staff and the container's managers (no token 401/4500, anyone else 403/5403).";
const WRITE = { security: ["user"], writeLimit: "catalogue" } as const;
const stored = { 201: jsonResponse(OkSchema, "stored"), ...errorResponses(400, 401, 403, 404, 413) };
const deleted = { 204: { description: "deleted" }, ...errorResponses(400, 401, 403, 404) };
const replaces = (kind: string) => `${WHO} Replaces the ${kind} in that language when there is one.`;
const removes = (kind: string) => `${WHO} 404 when there is no ${kind} in that language.`;
const ENGLISH_TITLE = " The English title cannot be deleted (400 naming `language_code`).";

const postContainerTitle = withProperties(
  createRoute({
    method: "post",
    path: "/{container_id}/titles",
    summary: "Create or replace a title of a container",
    description: replaces("title"),
    request: { params: ContainerParam, body: jsonBody(TitleBody) },
    responses: stored,
  }),
  WRITE,
);
const postContainerDescription = withProperties(
  createRoute({
    method: "post",
    path: "/{container_id}/descriptions",
    summary: "Create or replace a description of a container",
    description: replaces("description"),
    request: { params: ContainerParam, body: jsonBody(DescriptionBody) },
    responses: stored,
  }),
  WRITE,
);
const postVideoTitle = withProperties(
  createRoute({
    method: "post",
    path: "/{video_id}/titles",
    summary: "Create or replace a title of a video",
    description: replaces("title"),
    request: { params: VideoParam, body: jsonBody(TitleBody) },
    responses: stored,
  }),
  WRITE,
);
const postVideoDescription = withProperties(
  createRoute({
    method: "post",
    path: "/{video_id}/descriptions",
    summary: "Create or replace a description of a video",
    description: replaces("description"),
    request: { params: VideoParam, body: jsonBody(DescriptionBody) },
    responses: stored,
  }),
  WRITE,
);
const deleteContainerTitle = withProperties(
  createRoute({
    method: "delete",
    path: "/{container_id}/titles/{language_code}",
    summary: "Delete a title of a container",
    description: removes("title") + ENGLISH_TITLE,
    request: { params: ContainerParam.extend({ language_code }) },
    responses: deleted,
  }),
  WRITE,
);
const deleteContainerDescription = withProperties(
  createRoute({
    method: "delete",
    path: "/{container_id}/descriptions/{language_code}",
    summary: "Delete a description of a container",
    description: removes("description"),
    request: { params: ContainerParam.extend({ language_code }) },
    responses: deleted,
  }),
  WRITE,
);
const deleteVideoTitle = withProperties(
  createRoute({
    method: "delete",
    path: "/{video_id}/titles/{language_code}",
    summary: "Delete a title of a video",
    description: removes("title") + ENGLISH_TITLE,
    request: { params: VideoParam.extend({ language_code }) },
    responses: deleted,
  }),
  WRITE,
);
const deleteVideoDescription = withProperties(
  createRoute({
    method: "delete",
    path: "/{video_id}/descriptions/{language_code}",
    summary: "Delete a description of a video",
    description: removes("description"),
    request: { params: VideoParam.extend({ language_code }) },
    responses: deleted,
  }),
  WRITE,
);

type Owner = { container_id: string } | { video_id: string };

/** The container or video of the path, when the caller may edit it (its container's managers and staff). */
async function owner(deps: Deps, user: User | undefined, params: Owner) {
  if ("container_id" in params) {
    const container = await manageableContainer(deps, user, parseId(params.container_id, "c"));
    return { kind: "c" as const, id: container.id };
  }
  const { video } = await manageableVideo(deps, user, parseId(params.video_id, "v"));
  return { kind: "v" as const, id: video.id };
}

async function remove(deps: Deps, user: User | undefined, kind: "title" | "description", params: Owner & { language_code: string }) {
  const target = await owner(deps, user, params);
  const language = normaliseLanguageCode(params.language_code);
  if (!language) throw ApiError.notFound();
  await removeText(deps, kind, target, language);
}

/** Under `/v4/containers`. */
export const containerTitlesRouter = routeGroup({ tag: "titles" })
  .openapi(postContainerTitle, async (c) => {
    const deps = depsOf(c);
    const body = c.req.valid("json");
    await putText(deps, "title", await owner(deps, c.get("user"), c.req.valid("param")), body.language_code, body.title);
    return c.json({ ok: true as const }, 201);
  })
  .openapi(postContainerDescription, async (c) => {
    const deps = depsOf(c);
    const body = c.req.valid("json");
    await putText(deps, "description", await owner(deps, c.get("user"), c.req.valid("param")), body.language_code, body.description);
    return c.json({ ok: true as const }, 201);
  })
  .openapi(deleteContainerTitle, async (c) => {
    await remove(depsOf(c), c.get("user"), "title", c.req.valid("param"));
    return c.body(null, 204);
  })
  .openapi(deleteContainerDescription, async (c) => {
    await remove(depsOf(c), c.get("user"), "description", c.req.valid("param"));
    return c.body(null, 204);
  });

/** Under `/v4/videos`. */
export const videoTitlesRouter = routeGroup({ tag: "titles" })
  .openapi(postVideoTitle, async (c) => {
    const deps = depsOf(c);
    const body = c.req.valid("json");
    await putText(deps, "title", await owner(deps, c.get("user"), c.req.valid("param")), body.language_code, body.title);
    return c.json({ ok: true as const }, 201);
  })
  .openapi(postVideoDescription, async (c) => {
    const deps = depsOf(c);
    const body = c.req.valid("json");
    await putText(deps, "description", await owner(deps, c.get("user"), c.req.valid("param")), body.language_code, body.description);
    return c.json({ ok: true as const }, 201);
  })
  .openapi(deleteVideoTitle, async (c) => {
    await remove(depsOf(c), c.get("user"), "title", c.req.valid("param"));
    return c.body(null, 204);
  })
  .openapi(deleteVideoDescription, async (c) => {
    await remove(depsOf(c), c.get("user"), "description", c.req.valid("param"));
    return c.body(null, 204);
  });
