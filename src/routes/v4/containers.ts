import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { visibleContainer } from "../../services/catalogue";
import { depsOf } from "../../services/deps";
import type { ContainerType } from "../../domain/catalogue-types";
import { containerView } from "../../views/catalogue";
import { ContainerSchema, demoContainerId, idParam } from "./contracts/catalogue";

/**
 * One container, under `/v4/containers` and under each pseudo-type prefix (`/v4/films/<id>.json`, ...), where a
 * container of another type is not found. `type` is the prefix's container type; none under `/v4/containers`.
 */
const readOne = (type?: ContainerType) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/{container_id}",
      summary: type ? `One ${type} container` : "One container",
      description:
        "Containers not in the normal state are visible only to their managers and staff. Public (no token): " +
        "`Cache-Control: public`, strong ETag, 304 on `If-None-Match`.",
      request: { params: idParam("container_id", demoContainerId(type)) },
      responses: { 200: jsonResponse(ContainerSchema, "the container"), ...errorResponses(404) },
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true },
  );

export const containersRouter = (type?: ContainerType) =>
  routeGroup().openapi(readOne(type), async (c) => {
    const container = await visibleContainer(depsOf(c), c.get("user"), parseId(c.req.valid("param").container_id, "c"));
    if (type && container.type !== type) throw ApiError.notFound();
    return c.json(containerView(container, viewContext(c)), 200);
  });
