import { z } from "@hono/zod-openapi";
import { CONTAINER_TYPES } from "../../../db/schema";
import { wireIdPattern } from "../../../lib/ids";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { MAX_NOTIFICATION_LENGTH } from "../../../services/notifications";

/** `true|false` (also `1|0`), as the interface writes the read flag. */
const Flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const UserLink = z.object({ id: z.string().openapi({ example: "12u" }), username: z.string(), url: z.object({ api: z.string() }) });
const ContainerLink = z.object({
  id: z.string().openapi({ example: "50c" }),
  type: z.enum(CONTAINER_TYPES),
  titles: z.record(z.string(), z.string()),
  url: z.object({ api: z.string() }),
});

export const NotificationSchema = z
  .object({
    id: z.string().openapi({ example: "7n" }),
    content: z.string(),
    unread: z.boolean(),
    container: ContainerLink.nullable().openapi({ description: "the channel it came from; null once deleted" }),
    sender: UserLink.nullable().openapi({ description: "the manager who sent it; null once deleted" }),
    created_at: z.string().nullable(),
  })
  .openapi("Notification");

export const NotificationList = listEnvelopeSchema(NotificationSchema, "NotificationList");

export const NotificationCount = z.object({ count: z.number().int() }).openapi("NotificationCount");

export const NotificationCreateBody = z
  .object({
    content: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MAX_NOTIFICATION_LENGTH, `at most ${MAX_NOTIFICATION_LENGTH} characters`)
      .openapi({ description: `the message, 1 to ${MAX_NOTIFICATION_LENGTH} characters (trimmed)`, example: "New episode tonight!" }),
  })

  .openapi("NotificationCreate");

export const NotificationCreateQuery = z.object({
  container_id: z
    .string({ error: "required: the container whose subscribers receive it" })
    .regex(wireIdPattern("c"), "a container id such as 50c")
    .openapi({ description: "the container (channel) whose subscribers receive it", example: "50c" }),
});

export const InboxQuery = z.object({
  ...pagingQuery,
  unread: Flag.optional().openapi({ description: "`true`: only unread notifications; `false` or absent: all", type: "boolean" }),
  only_count: Flag.optional().openapi({ description: 'answer `{"count": N}` instead of the list', type: "boolean" }),
});

export const MarkQuery = z.object({
  unread: z
    .enum(["true", "false", "1", "0"], { error: "required: true (mark unread) or false (mark read)" })
    .transform((v) => v === "true" || v === "1")
    .openapi({ description: "`false` marks it read, `true` unread", type: "boolean" }),
});

export const notificationParams = z.object({
  user_id: z.string().openapi({ param: { name: "user_id", in: "path" }, example: "3u" }),
  notification_id: z.string().openapi({ param: { name: "notification_id", in: "path" }, example: "1n" }),
});

export const userParam = z.object({ user_id: z.string().openapi({ param: { name: "user_id", in: "path" }, example: "3u" }) });
