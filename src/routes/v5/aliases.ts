import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { limitWrites } from "../../middleware/write-limits";
import { containersRouter } from "../v4/containers";
import { playbackAnswerRouter } from "../v4/playback-streams";
import { videoReadRouter } from "../v4/videos";

/**
 * The /v5 paths yt-dlp's Viki extractor calls, signed (docs/decisions.md, "Real clients: a tolerant wire contract"):
 * one container, one video and a video's playback streams, each the v4 router mounted again (docs/decisions.md,
 * "Route layout"), so they answer exactly as their v4 paths. Everything else under /v5 is sessions.
 */
const PREFIXES = ["/v5/containers", "/v5/videos", "/v5/playback_streams"] as const;

export const v5AliasesRouter = createRouter();
for (const prefix of PREFIXES) v5AliasesRouter.use(`${prefix}/*`, resolveApplication, loadUser, limitWrites);

v5AliasesRouter
  .route("/v5/containers", containersRouter())
  .route("/v5/videos", videoReadRouter())
  .route("/v5/playback_streams", playbackAnswerRouter("/{video_id}"));
