import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../../../db/schema";
import { jobTypes } from "../../../jobs";
import { listEnvelopeSchema, pagingQuery } from "../../../lib/paging";
import { parseInstant } from "../../../lib/time";

export const JobSchema = z
  .object({
    id: z.string().openapi({ example: "4j" }),
    type: z.enum(jobTypes),
    status: z.enum(JOB_STATUSES),
    progress: z.number().int().min(0).max(100),
    attempts: z.number().int(),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    url: z.object({ api: z.string() }),
  })
  .openapi("Job");

/** The one shape of a job on the wire: the 202 that accepts it and GET /v4/jobs/<id>.json both answer `{"job": {...}}`. */
export const JobEnvelope = z.object({ job: JobSchema }).openapi("JobEnvelope");

export const JobParams = z.object({
  job_id: z.string().openapi({ param: { name: "job_id", in: "path" }, example: "4j" }),
});

/** A point in time a client writes as ISO 8601 or unix seconds (src/lib/time.ts), read as unix seconds. */
const instant = (description: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const seconds = parseInstant(raw);
      if (seconds === undefined) {
        ctx.addIssue({ code: "custom", message: "an ISO 8601 date or time (2026-11-22T10:00:00Z) or unix seconds" });
        return z.NEVER;
      }
      return seconds;
    })
    // No `example`: "Try it out" in /docs would send it unasked, and both bounds at one instant list nothing.
    .openapi({ description, type: "string" });

export const JobListQuery = z.object({
  ...pagingQuery,
  status: z.enum(JOB_STATUSES).optional().openapi({ description: "only jobs in this state" }),
  type: z.enum(jobTypes).optional().openapi({ description: "only jobs of this type" }),
  created_after: instant("only jobs created at or after this time: ISO 8601 (`2026-11-22T10:00:00Z`; no offset: UTC) or unix seconds"),
  created_before: instant("only jobs created before this time (ISO 8601 or unix seconds); later than `created_after`"),
});

export const JobList = listEnvelopeSchema(JobSchema, "JobList");
