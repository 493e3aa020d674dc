import { countJobs, jobPageQuery, type JobFilters } from "../db/queries/job-listing";
import { findJob } from "../db/queries/jobs";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import type { User } from "../types";
import type { Deps } from "./deps";

/**
 * A job as its reader may see it: the user who started it, or staff. Someone else's job is reported as missing
 * rather than forbidden: job ids are sequential.
 */
export async function readableJob({ db }: Deps, user: User, jobId: number) {
  const job = await findJob(db, jobId);
  if (!job || (job.createdBy !== user.id && !user.staff)) throw ApiError.notFound();
  return job;
}

/**
 * One page of every user's jobs, newest first, for staff (the route requires them; docs/operations.md, "Jobs
 * runbook"). An empty time range is refused rather than answered empty, since it is always a mistake.
 */
export async function jobPage({ db }: Deps, f: JobFilters, p: Paging) {
  if (f.createdFrom !== undefined && f.createdUntil !== undefined && f.createdUntil <= f.createdFrom) {
    throw ApiError.field("created_before", "must be later than created_after");
  }
  const rows = await jobPageQuery(db, f, p.offset, p.limit);
  return { rows, count: () => countJobs(db, f) };
}
