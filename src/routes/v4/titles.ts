import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { requireUser } from "../../middleware/session";
import { manageableContainer, manageableVideo } from "../../services/catalogue";
import { putText, removeText } from "../../services/catalogue-writes";
import { depsOf, type Deps } from "../../services/deps";
import type { User } from "../../types";
import { DescriptionBody, OkSchema, TitleBody, normaliseLanguageCode } from "./contracts/catalogue-writes";

/**
 * Titles and descriptions of containers and videos (interface: "Titles and descriptions (v4)"):
 * POST creates or replaces one language (201 `{"ok": true}`), DELETE removes one (204). Staff and the
 * container's managers only.
 */
const OWNERS = {
  containers: { param: "container_id", suffix: "c", example: "50c" },
  videos: { param: "video_id", suffix: "v", example: "1v" },
} as const;
const KINDS = {
  titles: { kind: "title", body: TitleBody, field: "title" },
  descriptions: { kind: "description", body: DescriptionBody, field: "description" },
} as const;
type OwnerPath = keyof typeof OWNERS;
type KindPath = keyof typeof KINDS;

const WHO = "Staff and the container's managers (no token 401/4500, anyone else 403/5403).";

/** Checks the caller may edit the container (or the video's container) named in the path. */
async function owner(deps: Deps, user: User | undefined, ownerPath: OwnerPath, rawId: string) {
  if (ownerPath === "containers") {
    const container = await manageableContainer(deps, user, parseId(rawId, "c"));
    return { kind: "c" as const, id: container.id };
  }
  const { video } = await manageableVideo(deps, user, parseId(rawId, "v"));
  return { kind: "v" as const, id: video.id };
}

const pathParams = (ownerPath: OwnerPath) => {
  const o = OWNERS[ownerPath];
  return z.object({ [o.param]: z.string().openapi({ param: { name: o.param, in: "path" }, example: o.example }) });
};

function postRoute(ownerPath: OwnerPath, kindPath: KindPath) {
  const o = OWNERS[ownerPath];
  return withProperties(
    createRoute({
      method: "post",
      path: `/v4/${ownerPath}/{${o.param}}/${kindPath}`,
      summary: `Create or replace a ${KINDS[kindPath].kind} of a ${ownerPath === "containers" ? "container" : "video"}`,
      description: `${WHO} Replaces the ${KINDS[kindPath].kind} in that language when there is one.`,
      middleware: [requireUser] as const,
      request: { params: pathParams(ownerPath), body: jsonBody(KINDS[kindPath].body) },
      responses: { 201: jsonResponse(OkSchema, "stored"), ...errorResponses(400, 401, 403, 404, 413) },
    }),
    { writeLimit: "catalogue" },
  );
}

function deleteRoute(ownerPath: OwnerPath, kindPath: KindPath) {
  const o = OWNERS[ownerPath];
  return withProperties(
    createRoute({
      method: "delete",
      path: `/v4/${ownerPath}/{${o.param}}/${kindPath}/{language_code}`,
      summary: `Delete a ${KINDS[kindPath].kind} of a ${ownerPath === "containers" ? "container" : "video"}`,
      description:
        `${WHO} 404 when there is no ${KINDS[kindPath].kind} in that language.` +
        (kindPath === "titles" ? " The English title cannot be deleted (400 naming `language_code`)." : ""),
      middleware: [requireUser] as const,
      request: {
        params: pathParams(ownerPath).extend({
          language_code: z.string().openapi({ param: { name: "language_code", in: "path" }, example: "ko" }),
        }),
      },
      responses: { 204: { description: "deleted" }, ...errorResponses(400, 401, 403, 404) },
    }),
    { writeLimit: "catalogue" },
  );
}

export const titlesRouter = createRouter();

for (const ownerPath of Object.keys(OWNERS) as OwnerPath[]) {
  for (const kindPath of Object.keys(KINDS) as KindPath[]) {
    const { kind, field } = KINDS[kindPath];
    const param = OWNERS[ownerPath].param;

    titlesRouter.openapi(postRoute(ownerPath, kindPath), async (c) => {
      const deps = depsOf(c);
      const params = c.req.valid("param") as Record<string, string>;
      const body = c.req.valid("json") as { language_code: string } & Record<string, string>;
      const target = await owner(deps, c.get("user"), ownerPath, params[param]);
      await putText(deps, kind, target, body.language_code, body[field]);
      return c.json({ ok: true as const }, 201);
    });

    titlesRouter.openapi(deleteRoute(ownerPath, kindPath), async (c) => {
      const deps = depsOf(c);
      const params = c.req.valid("param") as Record<string, string>;
      const target = await owner(deps, c.get("user"), ownerPath, params[param]);
      const language = normaliseLanguageCode(params.language_code);
      if (!language) throw ApiError.notFound();
      await removeText(deps, kind, target, language);
      return c.body(null, 204);
    });
  }
}
