import { createRoute } from "@hono/zod-openapi";
import { jobTypes, type JobType } from "../../jobs";
import { retryJob } from "../../jobs/retry";
import { formatId, parseId } from "../../lib/ids";
import { listEnvelope, paging } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { jobPage, readableJob } from "../../services/jobs";
import { jobView } from "../../views/job";
import { JobEnvelope, JobList, JobListQuery, JobParams } from "./contracts/jobs";

export { JobEnvelope, JobSchema } from "./contracts/jobs";

const read = withProperties(
  createRoute({
    method: "get",
    path: "/{job_id}",
    summary: "Status, progress and result of a queued job",
    description: "Visible to the user who started the job and to staff.",
    request: { params: JobParams },
    responses: { 200: jsonResponse(JobEnvelope, "the job"), ...errorResponses(401, 404) },
  }),
  { security: ["user"], cache: "user" },
);

const list = withProperties(
  createRoute({
    method: "get",
    path: "/",
    summary: "Every user's jobs, newest first (staff)",
    description:
      "Staff only: no token 401 (vcode 4500), any other user 403 (vcode 5403). Newest first (by `created_at`, then " +
      "id); each item is the job as `GET /v4/jobs/<id>.json` shows it. Filters, any together: `status`, `type`, " +
      "`created_after` (inclusive) and `created_before` (exclusive), each time ISO 8601 or unix seconds; an unknown " +
      "value is 400 naming its field. Paged like every v4 list, up to the paging ceiling.",
    request: { query: JobListQuery },
    responses: { 200: jsonResponse(JobList, "the v4 list envelope of jobs"), ...errorResponses(400, 401, 403) },
  }),
  { security: ["staff"], cache: "user" },
);

const retry = withProperties(
  createRoute({
    method: "post",
    path: "/{job_id}/retry",
    summary: "Run a failed job again (staff)",
    description:
      "Staff only: no token 401 (vcode 4500), any other user 403 (vcode 5403). The same job (id, type, params, " +
      "creator) goes back to `queued` as a new attempt: `attempts` starts again at 0, `error`, `result` and the times " +
      "of the last run are cleared, and the queue consumer runs it as any job just accepted; the application that " +
      "started it hears the new outcome. Answers 202 with the queued job. 409 (vcode 5409) for a job that is not " +
      "`failed` (the message names its state: a second retry finds it `queued` or further on), of a type no longer " +
      "run, or whose upload was deleted when it failed (start that work again instead). An unknown job is 404.",
    request: { params: JobParams },
    responses: {
      202: jsonResponse(JobEnvelope, "the job, queued again"),
      ...errorResponses(401, 403, 404, 429),
      409: { ...errorResponses(409)[409], description: "the job is not failed, or cannot run again (vcode 5409)" },
    },
  }),
  { security: ["staff"], writeLimit: "catalogue" },
);

type Job = Awaited<ReturnType<typeof readableJob>>;

/** A stored row holds only registry names: enqueue writes them from a definition. */
const viewOf = (job: Job, origin: string) => jobView({ ...job, type: job.type as JobType }, origin);

export const jobsRouter = routeGroup()
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    const p = paging(q);
    const filters = { status: q.status, type: q.type, createdFrom: q.created_after, createdUntil: q.created_before };
    const { rows, count } = await jobPage(depsOf(c), filters, p);
    const origin = new URL(c.req.url).origin;
    const body = await listEnvelope(
      c.req.url,
      p,
      rows,
      (job) => viewOf(job, origin),
      (job) => formatId(job.id, "j"),
      count,
    );
    return c.json(body, 200);
  })
  .openapi(read, async (c) => {
    const job = await readableJob(depsOf(c), c.get("user")!, parseId(c.req.valid("param").job_id, "j"));
    return c.json({ job: viewOf(job, new URL(c.req.url).origin) }, 200);
  })
  .openapi(retry, async (c) => {
    const deps = depsOf(c);
    const job = await retryJob(deps, c.get("user")!, parseId(c.req.valid("param").job_id, "j"), jobTypes);
    return c.json({ job: viewOf(job, new URL(c.req.url).origin) }, 202);
  });
