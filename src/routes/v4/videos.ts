import { createRoute } from "@hono/zod-openapi";
import { findVideoWithContainer } from "../../db/queries/catalogue";
import { parseId } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { publicCache } from "../../middleware/cache";
import { caller, requireVisibleVideo } from "../../services/access";
import { videoView } from "../../views/catalogue";
import { VideoSchema, idParam } from "./contracts/catalogue";

const readOne = createRoute({
  method: "get",
  path: "/v4/videos/{video_id}",
  summary: "One video",
  description:
    "Pending and blocked videos (and videos of containers not in the normal state) are visible only to the " +
    "container's managers and staff. A video refused for the viewer's region is still 200 with `blocked: true`.",
  middleware: [publicCache] as const,
  request: { params: idParam("video_id", "1v") },
  responses: { 200: jsonResponse(VideoSchema, "the video"), ...errorResponses(404) },
});

export const videosRouter = createRouter().openapi(readOne, async (c) => {
  const db = c.get("db");
  const found = await findVideoWithContainer(db, parseId(c.req.valid("param").video_id, "v"));
  const { video, container } = await requireVisibleVideo(caller(db, c.get("user")), found);
  return c.json(videoView(video, container, viewContext(c)), 200);
});
