import { expect } from "vitest";
import { api } from ".";

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
  while (Date.now() < deadline) {
    const res = await api(`/v4/jobs/${jobId}.json?token=${token}`);
    expect(res.status).toBe(200);
    const { job } = (await res.json()) as { job: JobWire };
    if (job.status === "succeeded" || job.status === "failed") return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}
