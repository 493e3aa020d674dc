import { findJob } from "../db/queries/jobs";
import { ApiError } from "../lib/errors";
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
