import { createRouter } from "../../lib/router";
import { resolveApplication } from "../../middleware/application";
import { loadUser } from "../../middleware/session";
import { jobsRouter } from "./jobs";

/** Every /v4 route: the calling application and the user (when a token is sent) are resolved first. */
export const v4Router = createRouter();
v4Router.use("/v4/*", resolveApplication, loadUser);
v4Router.route("/", jobsRouter);
