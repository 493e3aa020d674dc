import { z } from "@hono/zod-openapi";
import { RESOURCE_ID_PATTERN } from "../../../lib/ids";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { MAX_SUBSCRIPTIONS } from "../../../services/follows";
import { ContainerSchema, VideoSchema } from "./catalogue";

const ResourceId = z
  .string({ error: "required: a container or video id such as 12c or 40v" })
  .max(32)
  .regex(RESOURCE_ID_PATTERN, "a container or video id such as 12c or 40v");

/** `{resource_id}` (docs/spec/wire.md, "Request bodies"); unknown fields are refused. */
export const FollowBody = (what: string) =>
  z.object({ resource_id: ResourceId.openapi({ description: `the container or video to ${what}`, example: "12c" }) });

const followItem = <K extends "subscribed_at" | "marked_at">(at: K, name: string) => {
  const stamp = z.string().nullable().openapi({ description: "when it was added (the first time)" });
  const when = z.object({ [at]: stamp } as Record<K, typeof stamp>);
  return z.union([ContainerSchema.and(when), VideoSchema.and(when)]).openapi(name, {
    description: `the full container or video object plus \`${at}\``,
  });
};

export const SubscriptionItem = followItem("subscribed_at", "Subscription");
export const MarkerItem = followItem("marked_at", "Marker");

export const SubscriptionList = listEnvelopeSchema(SubscriptionItem, "SubscriptionList");
export const MarkerList = listEnvelopeSchema(MarkerItem, "MarkerList");

export const SubscriptionIds = z
  .array(z.string())
  .openapi("SubscriptionIds", { description: `every subscribed id, newest first, at most ${MAX_SUBSCRIPTIONS}`, example: ["12c", "40v"] });

const onlyCount = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1")
  .openapi({ description: '`true`: answer `{"count": N}`, the number of follows (one counter row)', type: "boolean" });

export const FollowListQuery = z.object({ ...pagingQuery, only_count: onlyCount });

export const SubscriptionListQuery = z
  .object({
    ...pagingQuery,
    only_count: onlyCount,
    ids: z
      .enum(["true", "false", "1", "0"])
      .optional()
      .transform((v) => v === "true" || v === "1")
      .openapi({
        description: `\`true\`: a bare array of every subscribed id (\`["12c", "40v"]\`), newest first, paging ignored; at most ${MAX_SUBSCRIPTIONS}`,
        type: "boolean",
      }),
  })
  .superRefine((q, ctx) => {
    if (q.ids && q.only_count)
      ctx.addIssue({ code: "custom", path: ["only_count"], message: "give ids=true or only_count=true, not both" });
  });

/** Path of one subscription or marker: `{user_id}` and the resource id (`12c`, `40v`). */
export const FollowParams = z.object({
  user_id: z.string().openapi({ param: { name: "user_id", in: "path" }, example: "3u" }),
  resource_id: z.string().openapi({ param: { name: "resource_id", in: "path" }, example: "12c" }),
});

export const UserParams = z.object({
  user_id: z.string().openapi({ param: { name: "user_id", in: "path" }, example: "3u" }),
});
