import { createRoute } from "@hono/zod-openapi";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { manageableContainer, manageableVideo } from "../../services/catalogue";
import { createVideo, deleteVideo, updateVideo } from "../../services/catalogue-writes";
import { depsOf } from "../../services/deps";
import { videoView } from "../../views/catalogue";
import { VideoSchema, idParam } from "./contracts/catalogue";
import { VideoCreateBody, VideoUpdateBody } from "./contracts/catalogue-writes";

const WHO =
  "Staff and the container's managers (no token 401/4500, anyone else 403/5403; a hidden video or container " + "is 404 to them).";

const create = withProperties(
  createRoute({
    method: "post",
    path: "/{container_id}/videos",
    summary: "Add a video to a container (staff and its managers)",
    description:
      `${WHO} \`titles.en\` is required; the type must fit the container (400 naming \`type\`). ` + "Answers 201 with the video.",
    request: { params: idParam("container_id", "50c"), body: jsonBody(VideoCreateBody) },
    responses: { 201: jsonResponse(VideoSchema, "the new video"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["user"], writeLimit: "catalogue" },
);

const update = withProperties(
  createRoute({
    method: "put",
    path: "/{video_id}",
    summary: "Edit a video (staff and its container's managers)",
    description:
      `${WHO} Editable: \`number\` (null clears it), \`duration\`, \`origin.language\`, \`flags.hd\`, \`images\`, ` +
      "`state` (normal, pending, blocked). Titles and descriptions change through their own endpoints; the type cannot change.",
    request: { params: idParam("video_id", "1v"), body: jsonBody(VideoUpdateBody) },
    responses: { 200: jsonResponse(VideoSchema, "the video as edited"), ...errorResponses(400, 401, 403, 404, 413) },
  }),
  { security: ["user"], writeLimit: "catalogue" },
);

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{video_id}",
    summary: "Delete a video (staff and its container's managers)",
    description:
      `${WHO} Its titles, descriptions, segments, subtitles, completions, timed comments, list items, ` +
      "subscriptions and markers go with it.",
    request: { params: idParam("video_id", "1v") },
    responses: { 204: { description: "deleted" }, ...errorResponses(401, 403, 404) },
  }),
  { security: ["user"], writeLimit: "catalogue" },
);

/** Under `/v4/containers`: a new video belongs to a container. */
export const videoCreateRouter = routeGroup({ tag: "videos" }).openapi(create, async (c) => {
  const deps = depsOf(c);
  const container = await manageableContainer(deps, c.get("user"), parseId(c.req.valid("param").container_id, "c"));
  const video = await createVideo(deps, c.get("user")!, container, c.req.valid("json"));
  return c.json(videoView(video, container, viewContext(c)), 201);
});

/** Under `/v4/videos`. */
export const videoWritesRouter = routeGroup()
  .openapi(update, async (c) => {
    const deps = depsOf(c);
    const videoId = parseId(c.req.valid("param").video_id, "v");
    const { video, container } = await manageableVideo(deps, c.get("user"), videoId);
    const updated = await updateVideo(deps, c.get("user")!, video, c.req.valid("json"));
    return c.json(videoView(updated, container, viewContext(c)), 200);
  })
  .openapi(remove, async (c) => {
    const deps = depsOf(c);
    const { video } = await manageableVideo(deps, c.get("user"), parseId(c.req.valid("param").video_id, "v"));
    await deleteVideo(deps, c.get("user")!, video);
    return c.body(null, 204);
  });
