import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";

/**
 * /docs: Swagger UI (swagger-ui-dist, pinned in package.json) from the Worker's own static assets (public/docs,
 * copied by scripts/docs-assets.mjs), so the page works offline and makes no third-party request. Not in the
 * OpenAPI document: it is a page for people, not part of the API.
 */
const DOCS_ASSETS = { script: "/docs/swagger-ui-bundle.js", style: "/docs/swagger-ui.css" } as const;

/**
 * Everything the page runs and loads comes from this origin: the pinned bundle, the initializer below (a file,
 * not inline, so script-src needs no 'unsafe-inline') and /openapi.json; "try it" requests go here too. Swagger
 * UI's icons are data: URIs.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const docsPolicy: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set("content-security-policy", DOCS_CSP);
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Media Catalogue Service API</title>
    <link rel="stylesheet" href="${DOCS_ASSETS.style}" />
  </head>
  <body>
    <div id="docs" data-openapi="/openapi.json"></div>
    <script src="${DOCS_ASSETS.script}"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/**
 * validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io for a badge. The base
 * layout has no top bar (whose "Explore" box fetches arbitrary URLs); the filter box searches operations instead.
 */
const INIT = `"use strict";
(function () {
  var root = document.getElementById("docs");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapi,
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    filter: true,
    validatorUrl: null,
    displayRequestDuration: true,
  });
})();
`;

export const docsRouter = new Hono<AppEnv>();
docsRouter.get("/docs", docsPolicy, (c) => c.html(PAGE));
docsRouter.get("/docs/init.js", docsPolicy, (c) => c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8" }));
