import { and, eq, gt, max, sql } from "drizzle-orm";
import { expect } from "vitest";
import { jobs } from "../../src/db/schema";
import { api, db } from ".";

/** A job as the API shows it, in the 202 and from GET /v4/jobs/<id>.json alike (both `{"job": {...}}`). */
export type JobWire = {
  id: string;
  type: string;
  status: string;
  progress: number;
  attempts: number;
  result: Record<string, unknown> | null;
  error: string | null;
  url: { api: string };
};

/** Polls GET /v4/jobs/<id>.json as the job's creator until the real queue consumer has finished it. */
export async function waitForJob(jobId: string, token: string, timeoutMs = 20_000): Promise<JobWire> {
  const deadline = Date.now() + timeoutMs;
  // Most jobs finish within a few tens of milliseconds of the 202: ask soon, then back off to every 100 ms so a
  // long job is not polled harder than before.
  for (let wait = 10; Date.now() < deadline; wait = Math.min(wait * 2, 100)) {
    const res = await api(`/v4/jobs/${jobId}.json`, { token });
    expect(res.status).toBe(200);
    const { job } = (await res.json()) as { job: JobWire };
    if (job.status === "succeeded" || job.status === "failed") return job;
    await new Promise((r) => setTimeout(r, wait));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** The newest job id, to find the jobs a step enqueues after it. */
export const lastJobId = async () =>
  (
    await db()
      .select({ id: max(jobs.id) })
      .from(jobs)
      .get()
  )?.id ?? 0;

/** Waits for the completion jobs of video `videoId` enqueued since job `since`, and answers how many there were. */
export async function completionJobsSince(since: number, videoId: number, token: string) {
  const queued = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(gt(jobs.id, since), eq(jobs.type, "completion"), sql`json_extract(${jobs.params}, '$.videoIds[0]') = ${videoId}`))
    .all();
  for (const j of queued) expect((await waitForJob(`${j.id}j`, token)).status).toBe("succeeded");
  return queued.length;
}
