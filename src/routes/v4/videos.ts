import { createRoute } from "@hono/zod-openapi";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { viewContext } from "../../lib/view-context";
import { visibleVideo } from "../../services/catalogue";
import { depsOf } from "../../services/deps";
import { videoView } from "../../views/catalogue";
import { DEMO_IDS, VideoSchema, idParam } from "./contracts/catalogue";

const readOne = () =>
  withProperties(
    createRoute({
      method: "get",
      path: "/{video_id}",
      summary: "One video",
      description:
        "Pending and blocked videos (and videos of containers not in the normal state) are visible only to the " +
        "container's managers and staff. A video refused for the viewer's region is still 200 with `blocked: true`.",
      request: { params: idParam("video_id", DEMO_IDS.video) },
      responses: { 200: jsonResponse(VideoSchema, "the video"), ...errorResponses(404) },
    }),
    { cache: "public", sessionInBatch: true, sharedWithUsers: true },
  );

/** One video, under `/v4/videos` and again under `/v5/videos` (docs/decisions.md, "Route layout": an alias is a mount). */
export const videoReadRouter = () =>
  routeGroup().openapi(readOne(), async (c) => {
    const videoId = parseId(c.req.valid("param").video_id, "v");
    const { video, container } = await visibleVideo(depsOf(c), c.get("user"), videoId);
    return c.json(videoView(video, container, viewContext(c)), 200);
  });

export const videosRouter = videoReadRouter();
