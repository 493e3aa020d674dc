import { createRouter } from "../../lib/router";
import { v3Deprecation } from "../../middleware/v3";
import { v3CatalogueRouter } from "./catalogue";
import { oauthRouter } from "./oauth";
import { v3SearchRouter } from "./search";

/** The deprecated, read-only v3 API (and its token endpoint); every response says it is deprecated. */
export const v3Router = createRouter();
v3Router.use("/api/v3/*", v3Deprecation);
v3Router.use("/v3/*", v3Deprecation);
v3Router.route("/", oauthRouter);
v3Router.route("/", v3SearchRouter);
v3Router.route("/", v3CatalogueRouter);
