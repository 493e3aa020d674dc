import { z } from "@hono/zod-openapi";
import { wireIdPattern } from "../../../lib/ids";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { MAX_MESSAGE_LENGTH, MAX_THREAD_MESSAGES } from "../../../services/threads";

/** `true|false` (also `1|0`), as the interface writes the read flag. */
const Flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const Person = z.object({ id: z.string().openapi({ example: "12u" }), username: z.string().nullable() });

export const MessageSchema = z
  .object({
    id: z.string().openapi({ example: "17m" }),
    sender: Person,
    content: z.string(),
    created_at: z.string().nullable(),
  })
  .openapi("Message");

export const ThreadSchema = z
  .object({
    id: z.string().openapi({ example: "3t" }),
    participants: z.array(Person).openapi({ description: "both participants, by user id" }),
    last_message: MessageSchema,
    unread: z.boolean().openapi({ description: "this participant's read flag" }),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable().openapi({ description: "time of the last message" }),
    url: z.object({ api: z.string() }),
    messages: z
      .array(MessageSchema)
      .optional()
      .openapi({ description: `reading one thread: its last ${MAX_THREAD_MESSAGES} messages, oldest first` }),
    more_messages: z
      .boolean()
      .optional()
      .openapi({ description: `true when the thread has more than ${MAX_THREAD_MESSAGES} messages` }),
  })
  .openapi("Thread");

export const ThreadList = listEnvelopeSchema(ThreadSchema, "ThreadList");

export const CountSchema = z.object({ count: z.number().int() }).openapi("Count");

const Content = z
  .string({ error: "required: the message text" })
  .trim()
  .min(1, "must not be empty")
  .max(MAX_MESSAGE_LENGTH, `at most ${MAX_MESSAGE_LENGTH} characters`)
  .openapi({ description: `the message, 1 to ${MAX_MESSAGE_LENGTH} characters (trimmed)`, example: "Hello!" });

export const ThreadCreateBody = z
  .object({
    to: z
      .string({ error: "required: the recipient's user id" })
      .max(32)
      .regex(wireIdPattern("u"), "a user id such as 12u")
      .openapi({ description: "the recipient; not oneself", example: "12u" }),
    content: Content,
  })

  .openapi("ThreadCreate");

export const MessageCreateBody = z.object({ content: Content }).openapi("MessageCreate");

export const ThreadListQuery = z
  .object({
    ...pagingQuery,
    type: z.enum(["inbox", "sent"]).default("inbox").openapi({ description: "folder, default `inbox`" }),
    unread: Flag.optional().openapi({ description: "`true`: only the inbox's unread threads", type: "boolean" }),
    only_count: Flag.optional().openapi({ description: '`true`: answer `{"count": N}` only', type: "boolean" }),
  })
  .superRefine((q, ctx) => {
    if (q.unread && q.type === "sent") ctx.addIssue({ code: "custom", path: ["unread"], message: "applies to type=inbox only" });
  });

export const ThreadMarkQuery = z.object({
  unread: z
    .enum(["true", "false", "1", "0"], { error: "required: true (mark unread) or false (mark read)" })
    .transform((v) => v === "true" || v === "1")
    .openapi({ description: "`false` marks the thread read, `true` unread", type: "boolean" }),
});

export const AlertsQuery = z.object({
  ...pagingQuery,
  unread: z
    .enum(["true", "1"], { error: "alerts are the unread threads: unread=true or nothing" })
    .optional()
    .openapi({ description: "`true` (the default; alerts are the unread threads)", type: "boolean" }),
  only_count: Flag.optional().openapi({ description: '`true`: answer `{"count": N}` only', type: "boolean" }),
});

export const ThreadParams = z.object({
  user_id: z.string().openapi({ param: { name: "user_id", in: "path" }, example: "3u" }),
  thread_id: z.string().openapi({ param: { name: "thread_id", in: "path" }, example: "1t" }),
});
