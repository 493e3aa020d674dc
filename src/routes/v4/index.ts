import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { limitWrites } from "../../middleware/write-limits";
import { captionsRouter } from "./captions";
import { containerListingRouter, pseudoListingRouter } from "./container-listing";
import { containerVideosRouter } from "./container-videos";
import { containerWritesRouter } from "./container-writes";
import { containersRouter } from "./containers";
import { containerContributionsRouter, userContributionsRouter } from "./contributions";
import { historiesRouter } from "./histories";
import { jobsRouter } from "./jobs";
import { listsRouter } from "./lists";
import { markersRouter } from "./markers";
import { notificationsRouter, userNotificationsRouter } from "./notifications";
import { playbackGrantsRouter } from "./playback-grants";
import { playbackAnswerRouter, playbackStreamWritesRouter } from "./playback-streams";
import { searchRouter } from "./search";
import { subscriptionsRouter } from "./subscriptions";
import { captionApplyRouter, subtitleEditsRouter } from "./subtitle-edits";
import { containerSubtitleReportsRouter, subtitleReportsRouter } from "./subtitle-reports";
import { subtitleTracksRouter } from "./subtitle-tracks";
import { subtitleVersionsRouter } from "./subtitle-versions";
import { subtitleCompletionsRouter, subtitlesRouter } from "./subtitles";
import { threadsRouter } from "./threads";
import { episodeTimedCommentsRouter, timedCommentsRouter } from "./timed-comments";
import { containerTitlesRouter, videoTitlesRouter } from "./titles";
import { translationsRouter } from "./translations";
import { usersRouter } from "./users";
import { videoCreateRouter, videoWritesRouter } from "./video-writes";
import { videosRouter } from "./videos";
import { webhooksRouter } from "./webhooks";

/**
 * Every /v4 route, each router under the prefix of its resource (docs/decisions.md, "Route layout"); the calling
 * application and the user (when a token is sent) are resolved first. Within a prefix, a router with literal paths
 * (`/all`, `/import_srt`) comes before one whose parameter would also match them.
 */
export const v4Router = createRouter();
v4Router.use("/v4/*", resolveApplication, loadUser, limitWrites);

v4Router
  .route("/v4/containers", containerListingRouter) // "/", "/all", "/genres": before "/{container_id}"
  .route("/v4/containers", containerWritesRouter)
  .route("/v4/containers", containersRouter())
  .route("/v4/containers", containerVideosRouter())
  .route("/v4/containers", videoCreateRouter)
  .route("/v4/containers", containerTitlesRouter)
  .route("/v4/containers", containerContributionsRouter(true))
  .route("/v4/containers", containerSubtitleReportsRouter)
  .route("/v4/container", containerContributionsRouter());

// The pseudo-type prefixes: the listing, a container and its videos, kept to containers of that type.
v4Router
  .route("/v4/films", pseudoListingRouter("film"))
  .route("/v4/films", containersRouter("film"))
  .route("/v4/films", containerVideosRouter("film"))
  .route("/v4/series", pseudoListingRouter("series"))
  .route("/v4/series", containersRouter("series"))
  .route("/v4/series", containerVideosRouter("series"))
  .route("/v4/news", pseudoListingRouter("news"))
  .route("/v4/news", containersRouter("news"))
  .route("/v4/news", containerVideosRouter("news"))
  .route("/v4/artists", pseudoListingRouter("artist"))
  .route("/v4/artists", containersRouter("artist"))
  .route("/v4/artists", containerVideosRouter("artist"));

v4Router
  .route("/v4/videos", subtitlesRouter) // "/{video_id}/subtitles/import_srt" before "/{video_id}/subtitles/{file}"
  .route("/v4/videos", subtitleTracksRouter)
  .route("/v4/videos", subtitleVersionsRouter)
  .route("/v4/videos", subtitleEditsRouter)
  .route("/v4/videos", videosRouter)
  .route("/v4/videos", videoWritesRouter)
  .route("/v4/videos", videoTitlesRouter)
  .route("/v4/videos", timedCommentsRouter)
  .route("/v4/videos", playbackAnswerRouter("/{video_id}/playback_streams"))
  .route("/v4/videos", playbackStreamWritesRouter)
  .route("/v4/videos", playbackGrantsRouter)
  .route("/v4/episodes", episodeTimedCommentsRouter)
  .route("/v4/subtitle_completions", subtitleCompletionsRouter)
  .route("/v4/subtitle_reports", subtitleReportsRouter)
  .route("/v4/tranlslations", translationsRouter())
  .route("/v4/translations", translationsRouter(true))
  .route("/v4/captions", captionsRouter)
  .route("/v4/captions", captionApplyRouter);

v4Router
  .route("/v4/users", usersRouter)
  .route("/v4/users", userContributionsRouter)
  .route("/v4/users", historiesRouter)
  .route("/v4/users", markersRouter)
  .route("/v4/users", subscriptionsRouter)
  .route("/v4/users", userNotificationsRouter)
  .route("/v4/users", threadsRouter)
  .route("/v4/notifications", notificationsRouter)
  .route("/v4/lists", listsRouter)
  .route("/v4/jobs", jobsRouter)
  .route("/v4/search", searchRouter)
  .route("/v4/webhooks", webhooksRouter); // "/events" before "/{webhook_id}", inside the router
