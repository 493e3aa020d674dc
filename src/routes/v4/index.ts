import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { limitWrites } from "../../middleware/write-limits";
import { resourceRouter } from "../router";
import { captionsRouter } from "./captions";
import { containerListingRouter, pseudoListingRouter } from "./container-listing";
import { containerVideosRouter } from "./container-videos";
import { containerWritesRouter } from "./container-writes";
import { containersRouter } from "./containers";
import { containerContributionsRouter, userContributionsRouter } from "./contributions";
import { glossaryRouter } from "./glossary";
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
import { translationMemoryRouter } from "./translation-memory";
import { translationsRouter } from "./translations";
import { usersRouter } from "./users";
import { videoCreateRouter, videoWritesRouter } from "./video-writes";
import { videosRouter } from "./videos";
import { webhooksRouter } from "./webhooks";

/** A v4 read takes a user's token when there is one: it widens what is seen. Routes that need more say so. */
const v4 = (tag: string) => ({ tag, security: "optionalUser" }) as const;

/** The pseudo-type prefixes: the listing, a container and its videos, kept to containers of that type. */
const pseudoType = (type: "film" | "series" | "news" | "artist") =>
  resourceRouter(v4("containers"), pseudoListingRouter(type), containersRouter(type), containerVideosRouter(type));

/**
 * Every /v4 route, one router per resource prefix (docs/decisions.md, "Route layout"); the calling application and
 * the user (when a token is sent) are resolved first. Each router registers a literal segment before a parameter
 * (`/all` before `/{container_id}`) whatever order its groups come in.
 */
export const v4Router = createRouter();
v4Router.use("/v4/*", resolveApplication, loadUser, limitWrites);

v4Router
  .route(
    "/v4/containers",
    resourceRouter(
      v4("containers"),
      containerListingRouter,
      containerWritesRouter,
      containersRouter(),
      containerVideosRouter(),
      videoCreateRouter,
      containerTitlesRouter,
      containerContributionsRouter(true),
      containerSubtitleReportsRouter,
      glossaryRouter,
    ),
  )
  .route("/v4/container", resourceRouter(v4("containers"), containerContributionsRouter()))
  .route("/v4/films", pseudoType("film"))
  .route("/v4/series", pseudoType("series"))
  .route("/v4/news", pseudoType("news"))
  .route("/v4/artists", pseudoType("artist"))
  .route(
    "/v4/videos",
    resourceRouter(
      v4("videos"),
      subtitlesRouter,
      subtitleTracksRouter,
      subtitleVersionsRouter,
      subtitleEditsRouter,
      videosRouter,
      videoWritesRouter,
      videoTitlesRouter,
      timedCommentsRouter,
      playbackAnswerRouter("/{video_id}/playback_streams"),
      playbackStreamWritesRouter,
      playbackGrantsRouter,
    ),
  )
  .route("/v4/episodes", resourceRouter(v4("timed_comments"), episodeTimedCommentsRouter))
  .route("/v4/subtitle_completions", resourceRouter(v4("subtitles"), subtitleCompletionsRouter))
  .route("/v4/subtitle_reports", resourceRouter(v4("subtitle_reports"), subtitleReportsRouter))
  .route("/v4/tranlslations", resourceRouter(v4("translations"), translationsRouter()))
  .route("/v4/translations", resourceRouter(v4("translations"), translationsRouter(true)))
  .route("/v4/captions", resourceRouter(v4("captions"), captionsRouter, captionApplyRouter))
  .route(
    "/v4/users",
    resourceRouter(
      v4("users"),
      usersRouter,
      userContributionsRouter,
      historiesRouter,
      markersRouter,
      subscriptionsRouter,
      userNotificationsRouter,
      threadsRouter,
    ),
  )
  .route("/v4/notifications", resourceRouter(v4("notifications"), notificationsRouter))
  .route("/v4/lists", resourceRouter(v4("lists"), listsRouter))
  .route("/v4/jobs", resourceRouter(v4("jobs"), jobsRouter))
  .route("/v4/search", resourceRouter(v4("search"), searchRouter))
  .route("/v4/translation_memory", resourceRouter({ tag: "translation_memory", security: ["userOrOfficialApp"] }, translationMemoryRouter))
  .route("/v4/webhooks", resourceRouter(v4("webhooks"), webhooksRouter));
