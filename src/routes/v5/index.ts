import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { limitWrites } from "../../middleware/write-limits";
import { resourceRouter } from "../router";
import { containersRouter } from "../v4/containers";
import { playbackAnswerRouter } from "../v4/playback-streams";
import { videoReadRouter } from "../v4/videos";
import { sessionsRouter } from "./sessions";

/**
 * The /v5 paths yt-dlp's Viki extractor calls, signed (docs/decisions.md, "Real clients: a tolerant wire contract"):
 * one container, one video and a video's playback streams, each the v4 route group registered again (docs/decisions.md,
 * "Route layout"), so they answer exactly as their v4 paths. Everything else under /v5 is sessions.
 */
const ALIASES = ["/v5/containers", "/v5/videos", "/v5/playback_streams"] as const;

/** Every /v5 route, one router per prefix; a /v5 route reads no user's token unless it says so. */
export const v5Router = createRouter();
v5Router.use("/v5/*", resolveApplication);
for (const prefix of ALIASES) v5Router.use(`${prefix}/*`, loadUser, limitWrites);

const v5 = (tag: string) => ({ tag, security: "public" }) as const;
v5Router
  .route("/v5/sessions", resourceRouter(v5("sessions"), sessionsRouter))
  .route("/v5/containers", resourceRouter(v5("containers"), containersRouter()))
  .route("/v5/videos", resourceRouter(v5("videos"), videoReadRouter()))
  .route("/v5/playback_streams", resourceRouter(v5("playback_streams"), playbackAnswerRouter("/{video_id}")));
