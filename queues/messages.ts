import { z } from "zod";

/** Every queue message names its job; producers and the consumer share these schemas. */
const base = { jobId: z.number().int().positive() };

export const JobMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("srt-import"), ...base }),
  z.object({ type: z.literal("completion"), ...base }),
  z.object({ type: z.literal("list-edit"), ...base }),
  z.object({ type: z.literal("notification-fanout"), ...base }),
]);
export type JobMessage = z.infer<typeof JobMessage>;
