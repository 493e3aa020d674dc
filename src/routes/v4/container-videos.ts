import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "../../lib/errors";
import { missingUser } from "../../middleware/session";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { containerVideosPage } from "../../services/container-videos";
import { depsOf } from "../../services/deps";
import type { ContainerType, VideoType } from "../../domain/catalogue-types";
import { videoView, type ContainerRow } from "../../views/catalogue";
import type { AppEnv } from "../../types";
import { demoContainerId, idParam } from "./contracts/catalogue";
import { ContainerChildrenQuery, ContainerVideosQuery, LISTING_LIMITS, VideoList, type VideosQuery } from "./contracts/container-listing";

const DESCRIPTION =
  "Normal-state videos by `number` (`direction=asc` default, or `desc`), paged. `state=pending` or " +
  "`state=blocked` lists those instead: the container's managers and staff only (no token 401, anyone else 403), " +
  "and never combined with another filter (type, sort, direction, number, or a typed path such as episodes): " +
  `400. A container not in the normal state is 404 except to its managers and staff. ${LISTING_LIMITS}`;

const responses = { 200: jsonResponse(VideoList, "the v4 list envelope of videos"), ...errorResponses(400, 401, 403, 404) };

/** `type`: the container type of a pseudo-type prefix (`/v4/series/<id>/episodes.json`); none under `/v4/containers`. */
const onlyFor = (type?: ContainerType) => (type ? ` Only for containers of type ${type}.` : "");

const videosRoute = (type?: ContainerType) =>
  withProperties(
    createRoute({
      method: "get",
      path: "/{container_id}/videos",
      summary: "A container's videos",
      description: DESCRIPTION + onlyFor(type),
      request: { params: idParam("container_id", demoContainerId(type)), query: ContainerVideosQuery },
      responses,
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true },
  );

/** A typed listing (`/{container_id}/episodes`): the videos of one type, under the client's plural name for it. */
const childRoute = <P extends string>(path: P, videoType: VideoType, type?: ContainerType) =>
  withProperties(
    createRoute({
      method: "get",
      path,
      summary: `A container's videos of type ${videoType}`,
      description: DESCRIPTION + onlyFor(type),
      request: { params: idParam("container_id", demoContainerId(type, videoType)), query: ContainerChildrenQuery },
      responses,
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true },
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

type ChildrenContext = Context<AppEnv, string, { out: { param: { container_id: string }; query: z.infer<typeof ContainerChildrenQuery> } }>;

export const containerVideosRouter = (type?: ContainerType) => {
  const children = (videoType: VideoType) => async (c: ChildrenContext) =>
    c.json(await listVideos(c, c.req.valid("param").container_id, c.req.valid("query"), { containerType: type, pathType: videoType }), 200);
  return routeGroup({ tag: "videos" })
    .openapi(videosRoute(type), async (c) =>
      c.json(await listVideos(c, c.req.valid("param").container_id, c.req.valid("query"), { containerType: type }), 200),
    )
    .openapi(childRoute("/{container_id}/episodes", "episode", type), children("episode"))
    .openapi(childRoute("/{container_id}/movies", "movie", type), children("movie"))
    .openapi(childRoute("/{container_id}/news_clips", "news_clip", type), children("news_clip"))
    .openapi(childRoute("/{container_id}/music_videos", "music_video", type), children("music_video"))
    .openapi(childRoute("/{container_id}/clips", "clip", type), children("clip"))
    .openapi(childRoute("/{container_id}/trailers", "trailer", type), children("trailer"));
};
