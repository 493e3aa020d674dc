import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { visibleContainer } from "../../services/catalogue";
import { depsOf } from "../../services/deps";
import { TYPE_OF_PSEUDO } from "../../domain/catalogue-types";
import { containerView } from "../../views/catalogue";
import type { AppEnv } from "../../types";
import { ContainerSchema, idParam } from "./contracts/catalogue";

const readOne = withProperties(
  createRoute({
    method: "get",
    path: "/v4/containers/{container_id}",
    summary: "One container",
    description:
      "Containers not in the normal state are visible only to their managers and staff. Public (no token): " +
      "`Cache-Control: public`, strong ETag, 304 on `If-None-Match`.",
    request: { params: idParam("container_id", "50c") },
    responses: { 200: jsonResponse(ContainerSchema, "the container"), ...errorResponses(404) },
  }),
  { cache: "public", sessionInBatch: true },
);

/** `/v4/films/<id>.json` and the other pseudo-type paths: a container of another type is not found there. */
const readOnePseudo = (pseudo: keyof typeof TYPE_OF_PSEUDO) =>
  withProperties(
    createRoute({
      method: "get",
      path: `/v4/${pseudo}/{container_id}`,
      summary: `One ${TYPE_OF_PSEUDO[pseudo]} container`,
      request: { params: idParam("container_id", "50c") },
      responses: { 200: jsonResponse(ContainerSchema, "the container"), ...errorResponses(404) },
    }),
    { cache: "public", sessionInBatch: true },
  );

const readContainer = (c: Context<AppEnv>, rawId: string) => visibleContainer(depsOf(c), c.get("user"), parseId(rawId, "c"));

export const containersRouter = createRouter().openapi(readOne, async (c) => {
  const container = await readContainer(c, c.req.valid("param").container_id);
  return c.json(containerView(container, viewContext(c)), 200);
});

for (const pseudo of Object.keys(TYPE_OF_PSEUDO) as Array<keyof typeof TYPE_OF_PSEUDO>) {
  containersRouter.openapi(readOnePseudo(pseudo), async (c) => {
    const container = await readContainer(c, c.req.valid("param").container_id);
    if (container.type !== TYPE_OF_PSEUDO[pseudo]) throw ApiError.notFound();
    return c.json(containerView(container, viewContext(c)), 200);
  });
}
