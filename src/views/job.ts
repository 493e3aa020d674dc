import type { Job } from "../db/queries/jobs";
import type { JobType } from "../jobs";
import { formatId } from "../lib/ids";
import { isoTime } from "./time";

export function jobView(job: Job, origin: string) {
  return {
    id: formatId(job.id, "j"),
    // Rows hold only registry names (enqueue writes them from a definition).
    type: job.type as JobType,
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
