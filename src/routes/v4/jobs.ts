import { createRoute, z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../../db/schema";
import { jobTypes, type JobType } from "../../jobs";
import { parseId } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { requireUser } from "../../middleware/session";
import { depsOf } from "../../services/deps";
import { readableJob } from "../../services/jobs";
import { jobView } from "../../views/job";

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

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{job_id}",
    summary: "Status, progress and result of a queued job",
    description: "Visible to the user who started the job and to staff.",
    middleware: [requireUser] as const,
    request: { params: z.object({ job_id: z.string().openapi({ example: "4j" }) }) },
    responses: { 200: jsonResponse(JobEnvelope, "the job"), ...errorResponses(401, 404) },
  }),
  { cache: "user" },
);

export const jobsRouter = createRouter().openapi(read, async (c) => {
  const job = await readableJob(depsOf(c), c.get("user")!, parseId(c.req.valid("param").job_id, "j"));
  // A stored row holds only registry names: enqueue writes them from a definition.
  return c.json({ job: jobView({ ...job, type: job.type as JobType }, new URL(c.req.url).origin) }, 200);
});
