import { z } from "@hono/zod-openapi";
import { UserRefSchema } from "./localisation";

const MAX_TIMED_COMMENT = 500;

export const TimedCommentBody = z
  .object({
    time: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .openapi({ description: "milliseconds into the video; at most its duration when the duration is known", example: 116000 }),
    comment: z
      .string()
      .trim()
      .min(1)
      .max(MAX_TIMED_COMMENT)
      .openapi({ description: `1-${MAX_TIMED_COMMENT} characters` }),
  })
  .openapi("TimedCommentCreate");

export const TimedCommentSchema = z
  .object({
    id: z.string().openapi({ example: "12tc" }),
    user_id: z.string().openapi({ example: "14u" }),
    time: z.number().int().openapi({ description: "milliseconds into the video" }),
    comment: z.string(),
    value: z.string().openapi({ description: "the comment again, for older clients" }),
    language: z.string(),
    created_at: z.string().nullable(),
    user: UserRefSchema,
  })
  .openapi("TimedComment");
