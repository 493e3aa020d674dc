import type { Job } from "../db/queries/jobs";
import { formatId } from "../lib/ids";
import { isoTime } from "../lib/time";

/**
 * `T` is the job's registry name (src/jobs/index.ts), carried by the row's type so that views need not import the
 * registry: `enqueue` returns its definition's name, and the route that reads a stored job narrows it there.
 */
export function jobView<T extends string>(job: Job & { type: T }, origin: string) {
  return {
    id: formatId(job.id, "j"),
    type: job.type,
    status: job.status,
    progress: job.progress,
    attempts: job.attempts,
    result: job.result ?? null,
    error: job.error ?? null,
    created_at: isoTime(job.createdAt),
    updated_at: isoTime(job.updatedAt),
    started_at: isoTime(job.startedAt),
    finished_at: isoTime(job.finishedAt),
    url: { api: `${origin}/v4/jobs/${formatId(job.id, "j")}.json` },
  };
}
