import { createRouter } from "../../lib/router";
import { v3Deprecation } from "../../middleware/v3";
import { resourceRouter } from "../router";
import { v3CatalogueRouter, v3MoviesAliasRouter } from "./catalogue";
import { oauthRouter } from "./oauth";
import { v3SearchRouter } from "./search";

/** A v3 route needs a v3 token (each says so); its successor is the film listing unless it names another. */
const v3 = { tag: "v3", security: "public", successor: "/v4/films.json" } as const;

/**
 * The deprecated, read-only v3 API (and its token endpoint), one router per prefix (docs/decisions.md, "Route
 * layout"); every response under /api/v3 and /v3 says it is deprecated.
 */
export const v3Router = createRouter();
v3Router.use("/api/v3/*", v3Deprecation);
v3Router.use("/v3/*", v3Deprecation);
v3Router
  .route("/oauth", resourceRouter({ tag: "oauth", security: "public" }, oauthRouter))
  .route("/api/v3", resourceRouter(v3, v3SearchRouter, v3CatalogueRouter))
  .route("/v3", resourceRouter(v3, v3MoviesAliasRouter));
