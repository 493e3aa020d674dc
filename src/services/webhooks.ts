import {
  type DeliveryRow,
  type EndpointChanges,
  type WebhookEndpointRow,
  countEndpoints,
  deleteEndpoint,
  findDeliveryPage,
  findEndpoint,
  insertEndpoint,
  insertPing,
  insertRedelivery,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from "../db/queries/webhook-endpoints";
import type { WebhookDeliveryStatus } from "../db/schema";
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookEventType, maySubscribe } from "../domain/webhook-events";
import { ApiError, VCODE } from "../lib/errors";
import { formatId } from "../lib/ids";
import type { Paging } from "../lib/paging";
import { standardSecret } from "../lib/webhook-signature";
import { webhookUrlProblem } from "../lib/webhook-url";
import type { Application } from "../types";
import { afterWrite } from "./after-write";
import type { Deps } from "./deps";

/** Endpoints one application may have (docs/decisions.md, "Signed webhooks"); the next creation is a 409 that says so. */
export const MAX_ENDPOINTS_PER_APPLICATION = 10;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;

export type { DeliveryRow, WebhookEndpointRow };

/**
 * `whsec_` and 32 random bytes in standard base64 (the Standard Webhooks form; docs/decisions.md, "Signed webhooks"):
 * the HMAC key of the endpoint's deliveries, shown at creation and rotation only.
 */
const newWebhookSecret = () => standardSecret(crypto.getRandomValues(new Uint8Array(32)));

interface EndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  active?: boolean;
}

/**
 * `requestOrigin` is where this request arrived: a receiver there (or at API_ORIGIN) would call the API itself.
 * The loopback exception follows `env`, so tests can judge a URL as production would.
 */
function checkUrl(env: Pick<Env, "WEBHOOKS_ALLOW_LOOPBACK" | "API_ORIGIN" | "WEBHOOKS_SELF_HOSTS">, url: string, requestOrigin: string) {
  const rules = {
    allowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK === "true",
    selfOrigins: [requestOrigin, env.API_ORIGIN],
    // The Worker's other names (workers.dev, routes): a receiver there is this service too (wrangler.toml).
    selfHosts: (env.WEBHOOKS_SELF_HOSTS ?? "").split(","),
  };
  const problem = webhookUrlProblem(url, rules);
  if (problem) throw ApiError.field("url", problem);
}

const isSubscribable = (type: string): type is WebhookEventType => (SUBSCRIBABLE_EVENT_TYPES as string[]).includes(type);

/** Unknown, repeated or missing types are a 400; catalogue events for a non-official application a 403. */
function checkEvents(events: string[], application: Application): WebhookEventType[] {
  if (!events.length) throw ApiError.field("events", "at least one event type (GET /v4/webhooks/events.json lists them)");
  if (events.includes("ping")) throw ApiError.field("events", "ping is sent on request to one endpoint and is never subscribed to");
  const unknown = events.filter((e) => !isSubscribable(e));
  if (unknown.length) {
    throw ApiError.field("events", `unknown event type ${unknown.map((e) => JSON.stringify(e)).join(", ")} (GET /v4/webhooks/events.json)`);
  }
  const repeated = events.filter((e, i) => events.indexOf(e) !== i);
  if (repeated.length) throw ApiError.field("events", `listed more than once: ${[...new Set(repeated)].join(", ")}`);
  const refused = (events as WebhookEventType[]).filter((e) => !maySubscribe(e, application));
  if (refused.length) {
    const message = `only official applications may subscribe to ${refused.join(", ")}`;
    throw new ApiError(VCODE.forbidden, message, { details: [{ field: "events", message }] });
  }
  return events as WebhookEventType[];
}

/** Every type this application may subscribe to: the default of a new endpoint. */
const allowedEvents = (application: Application) => SUBSCRIBABLE_EVENT_TYPES.filter((t) => maySubscribe(t, application));

export async function createEndpoint(deps: Deps, application: Application, input: EndpointInput & { url: string }, requestOrigin: string) {
  checkUrl(deps.env, input.url, requestOrigin);
  const events = input.events === undefined ? allowedEvents(application) : checkEvents(input.events, application);
  const secret = newWebhookSecret();
  const endpoint = await insertEndpoint(
    deps.db,
    { applicationId: application.id, url: input.url, description: input.description ?? null, events, active: input.active ?? true, secret },
    MAX_ENDPOINTS_PER_APPLICATION,
  );
  if (!endpoint) {
    throw ApiError.conflict(
      `an application may have at most ${MAX_ENDPOINTS_PER_APPLICATION} webhook endpoints; delete one before adding another`,
    );
  }
  return { endpoint, secret };
}

export async function readEndpoint(deps: Deps, application: Application, id: number) {
  const endpoint = await findEndpoint(deps.db, application.id, id);
  if (!endpoint) throw ApiError.notFound();
  return endpoint;
}

export async function readEndpointPage(deps: Deps, application: Application, p: Paging) {
  const rows = await listEndpoints(deps.db, application.id, p.offset, p.limit);
  return { rows, count: () => countEndpoints(deps.db, application.id) };
}

/**
 * Changes what the body names. `active: true` on a paused endpoint resumes it: the failure counters start again and
 * the deliveries held while it was paused are sent; `active: false` pauses it as the application's own choice.
 */
export async function changeEndpoint(deps: Deps, application: Application, id: number, input: EndpointInput, requestOrigin: string) {
  const found = await readEndpoint(deps, application, id);
  const changes: EndpointChanges = {};
  if (input.url !== undefined) {
    checkUrl(deps.env, input.url, requestOrigin);
    changes.url = input.url;
  }
  if (input.events !== undefined) changes.events = checkEvents(input.events, application);
  if (input.description !== undefined) changes.description = input.description;
  // Re-affirming an active endpoint must not wipe the failures that would pause it.
  if (input.active === false || (input.active === true && found.status === "paused")) changes.active = input.active;
  if (!Object.keys(changes).length) return found;
  const updated = await updateEndpoint(deps.db, application.id, id, changes);
  if (!updated) throw ApiError.notFound();
  // Resumed: its paused deliveries are due again.
  if (changes.active === true) await afterWrite(deps, { events: true });
  return updated;
}

export async function rotateSecret(deps: Deps, application: Application, id: number) {
  const secret = newWebhookSecret();
  const endpoint = await rotateEndpointSecret(deps.db, application.id, id, secret);
  if (!endpoint) throw ApiError.notFound();
  return { endpoint, secret };
}

export async function removeEndpoint(deps: Deps, application: Application, id: number) {
  if (!(await deleteEndpoint(deps.db, application.id, id))) throw ApiError.notFound();
}

export async function readDeliveryPage(
  deps: Deps,
  application: Application,
  id: number,
  status: WebhookDeliveryStatus | undefined,
  p: Paging,
) {
  const rows = await findDeliveryPage(deps.db, application.id, id, status, p.offset, p.limit);
  if (!rows) throw ApiError.notFound();
  return rows;
}

/** Sends the event of a delivery again, as a new delivery (any status: receivers drop duplicates by event id). */
export async function redeliver(deps: Deps, application: Application, id: number, deliveryId: number) {
  const delivery = await insertRedelivery(deps.db, application.id, id, deliveryId);
  if (!delivery) throw ApiError.notFound();
  await afterWrite(deps, { events: true });
  return delivery;
}

/** A `ping` event for this endpoint only, whatever it subscribes to. */
export async function ping(deps: Deps, application: Application, id: number) {
  await readEndpoint(deps, application, id);
  const data = { webhook_id: formatId(id, "w"), message: "ping" };
  const delivery = await insertPing(deps.db, application.id, id, data);
  if (!delivery) throw ApiError.notFound();
  await afterWrite(deps, { events: true });
  return delivery;
}
