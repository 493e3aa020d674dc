import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { limitWrites } from "../../middleware/write-limits";
import { containerListingRouter } from "./container-listing";
import { containerVideosRouter } from "./container-videos";
import { containerWritesRouter } from "./container-writes";
import { containersRouter } from "./containers";
import { contributionsRouter } from "./contributions";
import { captionsRouter } from "./captions";
import { historiesRouter } from "./histories";
import { jobsRouter } from "./jobs";
import { timedCommentsRouter } from "./timed-comments";
import { translationsRouter } from "./translations";
import { notificationsRouter } from "./notifications";
import { titlesRouter } from "./titles";
import { videoWritesRouter } from "./video-writes";
import { listsRouter } from "./lists";
import { markersRouter } from "./markers";
import { subscriptionsRouter } from "./subscriptions";
import { threadsRouter } from "./threads";
import { subtitlesRouter } from "./subtitles";
import { subtitleTracksRouter } from "./subtitle-tracks";
import { usersRouter } from "./users";
import { videosRouter } from "./videos";
import { webhooksRouter } from "./webhooks";

/**
 * Every /v4 route: the calling application and the user (when a token is sent) are resolved first.
 * Routers with static paths (e.g. /v4/containers/all) are mounted before those with `{id}` paths.
 */
export const v4Router = createRouter();
v4Router.use("/v4/*", resolveApplication, loadUser, limitWrites);
v4Router.route("/", jobsRouter);
v4Router.route("/", notificationsRouter);
v4Router.route("/", subscriptionsRouter);
v4Router.route("/", markersRouter);
v4Router.route("/", threadsRouter);
v4Router.route("/", contributionsRouter);
v4Router.route("/", listsRouter);
v4Router.route("/", subtitlesRouter); // POST .../subtitles/import_srt before the .../subtitles/{file} GET
v4Router.route("/", subtitleTracksRouter);
v4Router.route("/", videosRouter);
v4Router.route("/", containerListingRouter); // /v4/containers/all and /genres: before {container_id}
v4Router.route("/", containerVideosRouter);
v4Router.route("/", containersRouter);
v4Router.route("/", containerWritesRouter);
v4Router.route("/", videoWritesRouter);
v4Router.route("/", titlesRouter);
v4Router.route("/", historiesRouter);
v4Router.route("/", translationsRouter);
v4Router.route("/", captionsRouter);
v4Router.route("/", timedCommentsRouter);
v4Router.route("/", usersRouter);
v4Router.route("/", webhooksRouter); // /v4/webhooks/events before {webhook_id}, inside the router
