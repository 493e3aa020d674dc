/**
 * The webhook event catalogue (docs/decisions.md, "Signed webhooks"): every type an endpoint can subscribe to, who may,
 * and the shape of its `data`. Recorded by src/db/queries/webhook-events.ts (and, for jobs, by the trigger
 * jobs_webhook_event of migrations/0020_webhooks.sql); rendered for the wire by src/webhooks/event-body.ts, which turns
 * every stored `path` (or `<name>_path`) into an absolute `url` (`<name>_url`) under API_ORIGIN. The OpenAPI document's
 * `webhooks` section and `GET /v4/webhooks/events.json` are built from this catalogue; no document lists it by hand.
 *
 * Pure and import-free but for zod, so queries, services, routes and views can all use it.
 */
import { z } from "@hono/zod-openapi";

/** Who hears an event: the application that started the job, or every official application (catalogue events). */
type Audience = "application" | "official";

const WireId = (suffix: string, example: string) =>
  z
    .string()
    .regex(new RegExp(`^\\d+${suffix}$`))
    .openapi({ example });

export const WEBHOOK_EVENTS = {
  "job.succeeded": {
    audience: "application",
    description: "A job the application started (with a signed request) succeeded; `result` is the job's result.",
    data: z.object({
      job_id: WireId("j", "12j"),
      job_type: z.string().openapi({ example: "srt-import" }),
      status: z.literal("succeeded"),
      url: z.string().url(),
      result: z.record(z.string(), z.unknown()).nullable(),
      error: z.null(),
    }),
  },
  "job.failed": {
    audience: "application",
    description: "A job the application started failed for good; `error` says why.",
    data: z.object({
      job_id: WireId("j", "12j"),
      job_type: z.string().openapi({ example: "srt-import" }),
      status: z.literal("failed"),
      url: z.string().url(),
      result: z.null(),
      error: z.string().nullable(),
    }),
  },
  "subtitles.updated": {
    audience: "official",
    description:
      "The text of a video's subtitles in one language changed: by an import (`cause: import`), an edit (`edit`), a restore of an earlier version (`restore`) " +
      "or the deletion of the language (`deletion`). `subtitles_url` is the SubRip download.",
    data: z.object({
      video_id: WireId("v", "40v"),
      container_id: WireId("c", "12c"),
      language: z.string().openapi({ example: "es" }),
      cause: z.enum(["import", "edit", "restore", "deletion"]),
      video_url: z.string().url(),
      subtitles_url: z.string().url(),
    }),
  },
  "completion.updated": {
    audience: "official",
    description: "A video's or a container's subtitle completion percentages were recomputed.",
    data: z.object({
      resource_type: z.enum(["video", "container"]),
      id: z.string().openapi({ example: "40v" }),
      url: z.string().url(),
      completions_url: z.string().url(),
    }),
  },
  "container.updated": {
    audience: "official",
    description: "A container (or one of its titles, descriptions, genres or licences) changed.",
    data: z.object({ container_id: WireId("c", "12c"), url: z.string().url() }),
  },
  "container.deleted": {
    audience: "official",
    description: "A container was deleted (its videos with it).",
    data: z.object({ container_id: WireId("c", "12c") }),
  },
  ping: {
    audience: "application",
    description: "A test event, sent by POST /v4/webhooks/<id>/ping to that endpoint only (subscribed or not, active or paused).",
    data: z.object({ webhook_id: WireId("w", "3w"), message: z.string() }),
  },
} as const satisfies Record<string, { audience: Audience; description: string; data: z.ZodType }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** The types an endpoint may subscribe to: `ping` is always delivered and never subscribed to. */
export const SUBSCRIBABLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== "ping");

/** Whether an application may subscribe to a type: catalogue events are for official applications only. */
export const maySubscribe = (type: WebhookEventType, application: { official: boolean }) =>
  type !== "ping" && (WEBHOOK_EVENTS[type].audience === "application" || application.official);

/**
 * What a stored `data` holds before rendering: the same fields, with `path`/`<name>_path` (relative to the API's
 * origin) where the wire has `url`/`<name>_url`.
 */
export type StoredEventData = Record<string, unknown>;
