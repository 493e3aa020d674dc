import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import {
  MAX_ENDPOINTS_PER_APPLICATION,
  changeEndpoint,
  createEndpoint,
  ping,
  readDeliveryPage,
  readEndpoint,
  readEndpointPage,
  redeliver,
  removeEndpoint,
  rotateSecret,
} from "../../services/webhooks";
import type { AppEnv } from "../../types";
import { deliveryView, eventCatalogueView, webhookView } from "../../views/webhook";
import {
  DeliveryEnvelope,
  DeliveryList,
  DeliveryListQuery,
  EventCatalogue,
  LIMIT_TEXT,
  WebhookCreateBody,
  WebhookEnvelope,
  WebhookList,
  WebhookListQuery,
  WebhookUpdateBody,
  WebhookWithSecret,
  deliveryParams,
  registerEventWebhooks,
  webhookParam,
} from "./contracts/webhooks";

/**
 * Webhook endpoints (docs/decisions.md, "Endpoints belong to a signed application, not a user"): an application,
 * authenticated as itself by its signature, manages its own receivers. Another application's endpoint is a 404, never
 * a 403: ids do not reveal whose they are.
 */

const tags = ["webhooks"];
const NOT_YOURS = "Another application's endpoint is a 404.";
const limitConflict = {
  409: { ...errorResponses(409)[409], description: `the application already has ${MAX_ENDPOINTS_PER_APPLICATION} endpoints` },
};
const OUTBOUND = "Sends a request to the receiver, so it is rate limited per application (30 a minute; 429 beyond).";

const events = withProperties(
  createRoute({
    method: "get",
    path: "/events",
    tags,
    summary: "The webhook event catalogue",
    // Public; a signature only adds `available`.
    security: [{}, { app: [], signature: [], timestamp: [] }, { app: [], sig: [], t: [] }],
    description:
      "Every event type, who hears it and whether endpoints subscribe to it. Public; a signed application also learns " +
      "whether it may subscribe to each (`available`). The payload of each type is in this document's `webhooks` section.",
    responses: { 200: jsonResponse(EventCatalogue, "the catalogue"), ...errorResponses(401) },
  }),
  { cache: "none" },
);

const create = withProperties(
  createRoute({
    method: "post",
    path: "/",
    tags,
    summary: "Register a webhook endpoint (a signed application)",
    description: `The answer holds the signing secret, shown only here and on rotation. ${LIMIT_TEXT} Catalogue events (audience \`official\`) are for official applications (403 naming \`events\`).`,
    request: { body: jsonBody(WebhookCreateBody) },
    responses: {
      201: jsonResponse(WebhookWithSecret, "the endpoint and its secret"),
      ...errorResponses(400, 401, 403, 413),
      ...limitConflict,
    },
  }),
  {
    security: ["signedApp"],
    writeLimit: null,
    noWriteLimitBecause: "an application's own endpoints, behind its signature; receivers are only called by ping and redeliver",
  },
);

const list = withProperties(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "The calling application's webhook endpoints",
    description: "Oldest first; the usual paging.",
    request: { query: WebhookListQuery },
    responses: { 200: jsonResponse(WebhookList, "the list envelope"), ...errorResponses(400, 401) },
  }),
  { security: ["signedApp"], cache: "user" },
);

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{webhook_id}",
    tags,
    summary: "One webhook endpoint (never its secret)",
    description: NOT_YOURS,
    request: { params: webhookParam },
    responses: { 200: jsonResponse(WebhookEnvelope, "the endpoint"), ...errorResponses(400, 401, 404) },
  }),
  { security: ["signedApp"], cache: "user" },
);

const change = (method: "patch" | "put") =>
  withProperties(
    createRoute({
      method,
      path: "/{webhook_id}",
      tags,
      summary: method === "patch" ? "Change a webhook endpoint" : "Change a webhook endpoint (same as PATCH)",
      description:
        "Changes the fields sent, leaves the others. `active: true` on a paused endpoint resumes it: the failure " +
        "counters reset and the deliveries held while it was paused go out. `active: false` pauses it (deliveries wait). " +
        NOT_YOURS,
      request: { params: webhookParam, body: jsonBody(WebhookUpdateBody) },
      responses: { 200: jsonResponse(WebhookEnvelope, "the endpoint"), ...errorResponses(400, 401, 403, 404, 413) },
    }),
    {
      security: ["signedApp"],
      writeLimit: null,
      noWriteLimitBecause: "an application's own endpoints, behind its signature; receivers are only called by ping and redeliver",
    },
  );

const remove = withProperties(
  createRoute({
    method: "delete",
    path: "/{webhook_id}",
    tags,
    summary: "Delete a webhook endpoint and its deliveries",
    description: NOT_YOURS,
    request: { params: webhookParam },
    responses: { 204: { description: "deleted" }, ...errorResponses(400, 401, 404) },
  }),
  { security: ["signedApp"], writeLimit: null, noWriteLimitBecause: "an application's own endpoints, behind its signature" },
);

const rotate = withProperties(
  createRoute({
    method: "post",
    path: "/{webhook_id}/secret",
    tags,
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      "Answers the new secret, once. For 24 hours deliveries carry a signature with the previous secret too " +
      `(\`previous_secret_expires_at\`), so the receiver can switch over. ${NOT_YOURS}`,
    request: { params: webhookParam },
    responses: { 200: jsonResponse(WebhookWithSecret, "the endpoint and its new secret"), ...errorResponses(400, 401, 404) },
  }),
  { security: ["signedApp"], writeLimit: null, noWriteLimitBecause: "an application's own endpoints, behind its signature" },
);

const deliveries = withProperties(
  createRoute({
    method: "get",
    path: "/{webhook_id}/deliveries",
    tags,
    summary: "A webhook endpoint's deliveries, newest first",
    description: `Each with its event as the receiver gets it and its last attempt. \`status\` filters. ${NOT_YOURS}`,
    request: { params: webhookParam, query: DeliveryListQuery },
    responses: { 200: jsonResponse(DeliveryList, "the list envelope"), ...errorResponses(400, 401, 404) },
  }),
  { security: ["signedApp"], cache: "user" },
);

const redeliverRoute = withProperties(
  createRoute({
    method: "post",
    path: "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    tags,
    summary: "Deliver an event again",
    description:
      "A new delivery of the same event (same event id, so receivers can drop it) to the same endpoint, due now, " +
      `whatever the original's status; to a paused endpoint it waits for the resume. ${OUTBOUND} ${NOT_YOURS}`,
    request: { params: deliveryParams },
    responses: { 202: jsonResponse(DeliveryEnvelope, "the new delivery"), ...errorResponses(400, 401, 404, 429) },
  }),
  { security: ["signedApp"], writeLimit: "webhooks" },
);

const pingRoute = withProperties(
  createRoute({
    method: "post",
    path: "/{webhook_id}/ping",
    tags,
    summary: "Send a test event (`ping`) to a webhook endpoint",
    description: `Whatever the endpoint subscribes to, and even while it is paused: a way to check a receiver before resuming it. ${OUTBOUND} ${NOT_YOURS}`,
    request: { params: webhookParam },
    responses: { 202: jsonResponse(DeliveryEnvelope, "the ping's delivery"), ...errorResponses(400, 401, 404, 429) },
  }),
  { security: ["signedApp"], writeLimit: "webhooks" },
);

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const appOf = (c: Context<AppEnv>) => c.get("application")!;
const endpointId = (c: Context<AppEnv>) => parseId(c.req.param("webhook_id"), "w");

export const webhooksRouter = routeGroup()
  .openapi(events, async (c) => {
    const application = c.get("appSigned") ? c.get("application") : undefined;
    return c.json({ events: eventCatalogueView(application) }, 200);
  })
  .openapi(create, async (c) => {
    const { endpoint, secret } = await createEndpoint(depsOf(c), appOf(c), c.req.valid("json"), origin(c));
    return c.json({ webhook: webhookView(endpoint, origin(c)), secret }, 201);
  })
  .openapi(list, async (c) => {
    const p = paging(c.req.valid("query"));
    const { rows, count } = await readEndpointPage(depsOf(c), appOf(c), p);
    const body = await listEnvelope(
      c.req.url,
      p,
      rows,
      (r) => webhookView(r, origin(c)),
      (r) => formatId(r.id, "w"),
      count,
    );
    return c.json(body, 200);
  })
  .openapi(read, async (c) => c.json({ webhook: webhookView(await readEndpoint(depsOf(c), appOf(c), endpointId(c)), origin(c)) }, 200))
  .openapi(change("patch"), async (c) => {
    const endpoint = await changeEndpoint(depsOf(c), appOf(c), endpointId(c), c.req.valid("json"), origin(c));
    return c.json({ webhook: webhookView(endpoint, origin(c)) }, 200);
  })
  .openapi(change("put"), async (c) => {
    const endpoint = await changeEndpoint(depsOf(c), appOf(c), endpointId(c), c.req.valid("json"), origin(c));
    return c.json({ webhook: webhookView(endpoint, origin(c)) }, 200);
  })
  .openapi(remove, async (c) => {
    await removeEndpoint(depsOf(c), appOf(c), endpointId(c));
    return c.body(null, 204);
  })
  .openapi(rotate, async (c) => {
    const { endpoint, secret } = await rotateSecret(depsOf(c), appOf(c), endpointId(c));
    return c.json({ webhook: webhookView(endpoint, origin(c)), secret }, 200);
  })
  .openapi(deliveries, async (c) => {
    const q = c.req.valid("query");
    const p = paging(q);
    const rows = await readDeliveryPage(depsOf(c), appOf(c), endpointId(c), q.status, p);
    const body = await listEnvelope(
      c.req.url,
      p,
      rows,
      (r) => deliveryView(r, c.env.API_ORIGIN),
      (r) => formatId(r.id, "d"),
    );
    return c.json(body, 200);
  })
  .openapi(redeliverRoute, async (c) => {
    const deliveryId = parseId(c.req.valid("param").delivery_id, "d");
    const delivery = await redeliver(depsOf(c), appOf(c), endpointId(c), deliveryId);
    return c.json({ delivery: deliveryView(delivery, c.env.API_ORIGIN) }, 202);
  })
  .openapi(pingRoute, async (c) => {
    const delivery = await ping(depsOf(c), appOf(c), endpointId(c));
    return c.json({ delivery: deliveryView(delivery, c.env.API_ORIGIN) }, 202);
  });

registerEventWebhooks(webhooksRouter.openAPIRegistry);
