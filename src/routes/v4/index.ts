import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { containersRouter } from "./containers";
import { jobsRouter } from "./jobs";
import { videosRouter } from "./videos";

/**
 * Every /v4 route: the calling application and the user (when a token is sent) are resolved first.
 * Routers with static paths (e.g. /v4/containers/all) are mounted before those with `{id}` paths.
 */
export const v4Router = createRouter();
v4Router.use("/v4/*", resolveApplication, loadUser);
v4Router.route("/", jobsRouter);
v4Router.route("/", videosRouter);
v4Router.route("/", containersRouter);
