import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { VIDEO_TYPES } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { missingUser } from "../../middleware/session";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { createRouter } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { containerVideosPage } from "../../services/container-videos";
import { depsOf } from "../../services/deps";
import { CHILD_KEY, TYPE_OF_PSEUDO, VIDEO_TYPE_OF_CHILD_KEY } from "../../domain/catalogue-types";
import { videoView, type ContainerRow } from "../../views/catalogue";
import type { AppEnv } from "../../types";
import { idParam } from "./contracts/catalogue";
import { ContainerChildrenQuery, ContainerVideosQuery, LISTING_LIMITS, VideoList, type VideosQuery } from "./contracts/container-listing";

type VideoType = (typeof VIDEO_TYPES)[number];
type ChildKey = keyof typeof VIDEO_TYPE_OF_CHILD_KEY;
type Pseudo = keyof typeof TYPE_OF_PSEUDO;

const DESCRIPTION =
  "Normal-state videos by `number` (`direction=asc` default, or `desc`), paged. `state=pending` or " +
  "`state=blocked` lists those instead: the container's managers and staff only (no token 401, anyone else 403), " +
  "and never combined with another filter (type, sort, direction, number, or a typed path such as episodes): " +
  `400. A container not in the normal state is 404 except to its managers and staff. ${LISTING_LIMITS}`;

const params = idParam("container_id", "50c");
const responses = { 200: jsonResponse(VideoList, "the v4 list envelope of videos"), ...errorResponses(400, 401, 403, 404) };

/** `base` is `containers` or a pseudo-type segment (`series`, `films`, ...). */
const videosRoute = (base: string) =>
  withProperties(
    createRoute({
      method: "get",
      path: `/v4/${base}/{container_id}/videos`,
      summary: base === "containers" ? "A container's videos" : `A container's videos (alias under /v4/${base})`,
      description: DESCRIPTION + (base === "containers" ? "" : ` Only for containers of type ${TYPE_OF_PSEUDO[base as Pseudo]}.`),
      request: { params, query: ContainerVideosQuery },
      responses,
    }),
    { cache: "public", sessionInBatch: true },
  );

const childRoute = (base: string, key: ChildKey) =>
  withProperties(
    createRoute({
      method: "get",
      path: `/v4/${base}/{container_id}/${key}`,
      summary:
        base === "containers"
          ? `A container's ${key} (videos of type ${VIDEO_TYPE_OF_CHILD_KEY[key]})`
          : `A container's ${key} (alias under /v4/${base})`,
      description: DESCRIPTION + (base === "containers" ? "" : ` Only for containers of type ${TYPE_OF_PSEUDO[base as Pseudo]}.`),
      request: { params, query: ContainerChildrenQuery },
      responses,
    }),
    { cache: "public", sessionInBatch: true },
  );

type Body = z.infer<typeof VideoList>;

async function listVideos(
  c: Context<AppEnv>,
  rawId: string,
  q: Omit<VideosQuery, "type"> & { type?: VideoType },
  opts: { pathType?: VideoType; containerType?: ContainerRow["type"] } = {},
): Promise<Body> {
  const type = opts.pathType ?? q.type;
  if (q.state !== undefined && (type || q.sort || q.direction || q.number !== undefined)) {
    throw ApiError.field("state", "a state filter cannot be combined with other filters (type, sort, direction, number)");
  }
  const p = paging(q);
  const viewer = { user: c.get("user"), signInError: () => missingUser(c) };
  const filter = { state: q.state, type, number: q.number, direction: q.direction };
  const page = await containerVideosPage(depsOf(c), viewer, parseId(rawId, "c"), filter, p, opts.containerType);
  const ctx = viewContext(c);
  return listEnvelope(
    c.req.url,
    p,
    page.rows,
    (v) => videoView(v, page.container, ctx),
    (v) => formatId(v.id, "v"),
    page.count,
  );
}

export const containerVideosRouter = createRouter();

const CHILD_KEYS = Object.values(CHILD_KEY) as ChildKey[];
for (const base of ["containers", ...Object.keys(TYPE_OF_PSEUDO)] as Array<"containers" | Pseudo>) {
  const containerType = base === "containers" ? undefined : TYPE_OF_PSEUDO[base];
  containerVideosRouter.openapi(videosRoute(base), async (c) =>
    c.json(await listVideos(c, c.req.valid("param").container_id, c.req.valid("query"), { containerType }), 200),
  );
  for (const key of CHILD_KEYS) {
    containerVideosRouter.openapi(childRoute(base, key), async (c) =>
      c.json(
        await listVideos(c, c.req.valid("param").container_id, c.req.valid("query"), {
          containerType,
          pathType: VIDEO_TYPE_OF_CHILD_KEY[key],
        }),
        200,
      ),
    );
  }
}
