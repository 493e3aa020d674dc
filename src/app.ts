import { HTTPException } from "hono/http-exception";
import type { Context } from "hono";
import { ApiError, OAuthError, VCODE } from "./lib/errors";
import { allowedMethods } from "./lib/allowed-methods";
import { isV3, routingPath } from "./lib/paths";
import { toXml } from "./lib/xml";
import { log } from "./lib/log";
import { redactUrl } from "./lib/redact";
import { createRouter } from "./lib/router";
import { limitBody } from "./middleware/body-limit";
import { edgeCache } from "./middleware/cache";
import { requestContext } from "./middleware/context";
import { cors } from "./middleware/cors";
import { openApiDocument } from "./openapi";
import { docsRouter } from "./routes/docs";
import { healthRouter } from "./routes/health";
import { v3Router } from "./routes/v3";
import { v5Router } from "./routes/v5";
import { v4Router } from "./routes/v4";
import { containerMoving, isFenceRefusal } from "./services/shards";
import type { AppEnv } from "./types";

const OAUTH_TOKEN_PATH = "/oauth/token";

/** The one place errors become responses: the bodies of docs/spec/wire.md, "Errors" for v4/v5, the v3 body for v3, RFC 6749 for OAuth. */
export function renderError(err: unknown, c: Context<AppEnv>) {
  // Every error body names the request, so a client's bug report can be matched with the service's log line.
  const request_id = c.get("requestId") ?? "";
  if (err instanceof OAuthError) {
    c.set("errorCode", err.code);
    return c.json({ error: err.code, error_description: err.description, request_id }, err.status, err.headers);
  }
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (isFenceRefusal(err)) apiError = containerMoving();
  else if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 400) apiError = ApiError.invalid([{ field: "body", message: err.message }], err.message);
    else if (status === 415) apiError = ApiError.field("content-type", "the body must be application/json");
    else if (status === 413) apiError = new ApiError(VCODE.tooLarge, "request body too large");
    else apiError = ApiError.http(status, err.message || "error");
  } else {
    // Paths and messages may hold a session token (/v5/sessions/<token>.json): never log one.
    const stack = (err as Error)?.stack;
    log("error", {
      event: "exception",
      requestId: c.get("requestId"),
      path: redactUrl(c.req.path),
      error: redactUrl(String(err)),
      stack: stack && redactUrl(stack),
    });
    apiError = new ApiError(VCODE.internal, "internal error");
  }
  // The request's log line names the code (src/middleware/context.ts).
  c.set("errorCode", apiError.vcode);
  const headers = { ...apiError.headers };
  const path = new URL(c.req.url).pathname;
  if (path === OAUTH_TOKEN_PATH || path === `${OAUTH_TOKEN_PATH}.json`) {
    // RFC 6749 §5.2 bodies whatever went wrong (a body too large, a wrong method, a crash), never the v3 one.
    const error =
      apiError.status === 429 || apiError.status === 503
        ? "temporarily_unavailable"
        : apiError.status >= 500
          ? "server_error"
          : "invalid_request";
    return c.json({ error, error_description: apiError.message, request_id }, apiError.status as 400, headers);
  }
  if (isV3(path)) {
    const body = { message: apiError.message, status: apiError.status, request_id };
    if (path.endsWith(".xml")) {
      return c.body(toXml(body), apiError.status as 400, { ...headers, "content-type": "application/xml; charset=utf-8" });
    }
    return c.json(body, apiError.status as 400, headers);
  }
  return c.json(apiError.toBody(request_id), apiError.status as 400, headers);
}

export function createApp() {
  const app = createRouter();
  // Routes are declared without ".json"; see lib/paths.ts.
  (app as unknown as { getPath: (r: Request) => string }).getPath = routingPath;

  app.use("*", requestContext);
  // Before routing (a preflight is answered here, not by the 405 below) and outside the edge cache (its stored
  // answers carry no one's origin).
  app.use("*", cors);
  app.use("*", limitBody);
  // Before the v3/v4 routers resolve the application and the user (D1 reads): a hit answers without D1.
  app.use("*", edgeCache(app));

  // Each version's routers are mounted under their own prefixes (docs/decisions.md, "Route layout").
  app.route("/", v3Router);
  app.route("/", v4Router);
  app.route("/", v5Router);
  app.route("/", healthRouter);

  app.get("/", (c) =>
    c.json({
      name: "Media Catalogue Service",
      docs: new URL("/docs", c.req.url).toString(),
      openapi: new URL("/openapi.json", c.req.url).toString(),
    }),
  );
  app.get("/openapi", (c) => c.json(openApiDocument(app, new URL(c.req.url).origin)));
  app.route("/", docsRouter);

  app.notFound((c) => {
    const allowed = allowedMethods(app.routes, routingPath(c.req.raw));
    if (allowed.length && !allowed.includes(c.req.method)) {
      const error = new ApiError(VCODE.methodNotAllowed, `${c.req.method} is not served here; use ${allowed.join(", ")}`, {
        headers: { allow: allowed.join(", ") },
      });
      return renderError(error, c);
    }
    return renderError(ApiError.notFound(), c);
  });
  app.onError(renderError);
  return app;
}
