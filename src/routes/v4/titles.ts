import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { manageableContainer, manageableVideo } from "../../services/catalogue";
import { putText, removeText } from "../../services/catalogue-writes";
import { depsOf, type Deps } from "../../services/deps";
import type { Context } from "hono";
import type { AppEnv, User } from "../../types";
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

type Owner = { container_id: string } | { video_id: string };
type TextKind = "title" | "description";

/** The container or video of the path, when the caller may edit it (its container's managers and staff). */
async function owner(deps: Deps, user: User | undefined, params: Owner) {
  if ("container_id" in params) {
    const container = await manageableContainer(deps, user, parseId(params.container_id, "c"));
    return { kind: "c" as const, id: container.id };
  }
  const { video } = await manageableVideo(deps, user, parseId(params.video_id, "v"));
  return { kind: "v" as const, id: video.id };
}

/**
 * The four routes of one owner kind (a container's or a video's), under its router: POST a title or a description,
 * DELETE one by language.
 */
function textGroup(ownerKind: "container" | "video") {
  const params = ownerKind === "container" ? ContainerParam : VideoParam;
  const base = ownerKind === "container" ? "/{container_id}" : "/{video_id}";
  const post = <B extends ReturnType<typeof jsonBody<typeof TitleBody>> | ReturnType<typeof jsonBody<typeof DescriptionBody>>>(
    kind: TextKind,
    body: B,
  ) =>
    withProperties(
      createRoute({
        method: "post",
        path: `${base}/${kind}s`,
        summary: `Create or replace a ${kind} of a ${ownerKind}`,
        description: replaces(kind),
        request: { params, body },
        responses: stored,
      }),
      WRITE,
    );
  const remove = (kind: TextKind) =>
    withProperties(
      createRoute({
        method: "delete",
        path: `${base}/${kind}s/{language_code}`,
        summary: `Delete a ${kind} of a ${ownerKind}`,
        description: removes(kind) + (kind === "title" ? ENGLISH_TITLE : ""),
        request: { params: params.extend({ language_code }) },
        responses: deleted,
      }),
      WRITE,
    );
  const removed = (kind: TextKind) => async (c: Context<AppEnv>, params: Owner & { language_code: string }) => {
    const deps = depsOf(c);
    const language = normaliseLanguageCode(params.language_code);
    const target = await owner(deps, c.get("user"), params);
    if (!language) throw ApiError.notFound();
    await removeText(deps, kind, target, language);
    return c.body(null, 204);
  };
  return routeGroup({ tag: "titles" })
    .openapi(post("title", jsonBody(TitleBody)), async (c) => {
      const deps = depsOf(c);
      const body = c.req.valid("json");
      await putText(deps, "title", await owner(deps, c.get("user"), c.req.valid("param")), body.language_code, body.title);
      return c.json({ ok: true as const }, 201);
    })
    .openapi(post("description", jsonBody(DescriptionBody)), async (c) => {
      const deps = depsOf(c);
      const body = c.req.valid("json");
      await putText(deps, "description", await owner(deps, c.get("user"), c.req.valid("param")), body.language_code, body.description);
      return c.json({ ok: true as const }, 201);
    })
    .openapi(remove("title"), (c) => removed("title")(c, c.req.valid("param")))
    .openapi(remove("description"), (c) => removed("description")(c, c.req.valid("param")));
}

/** Under `/v4/containers`. */
export const containerTitlesRouter = textGroup("container");

/** Under `/v4/videos`. */
export const videoTitlesRouter = textGroup("video");
