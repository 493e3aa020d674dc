import { and, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "../client";
import { jobs, type JobType } from "../schema";

export type Job = typeof jobs.$inferSelect;

export async function insertJob(
  db: DB,
  values: { type: JobType; params?: Record<string, unknown>; payloadKey?: string; createdBy?: number },
) {
  const [job] = await db.insert(jobs).values(values).returning();
  return job;
}

export const findJob = (db: DB, id: number) => db.query.jobs.findFirst({ where: eq(jobs.id, id) });

/** Claims a job for a delivery: only queued or running (a retry) jobs move; finished ones stay finished. */
export async function markJobRunning(db: DB, id: number) {
  const [job] = await db
    .update(jobs)
    .set({
      status: "running",
      attempts: sql`${jobs.attempts} + 1`,
      startedAt: sql`coalesce(${jobs.startedAt}, unixepoch())`,
      updatedAt: sql`(unixepoch())`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ["queued", "running"])))
    .returning();
  return job;
}

export const setJobProgress = (db: DB, id: number, progress: number) =>
  db
    .update(jobs)
    .set({ progress: Math.max(0, Math.min(100, Math.floor(progress))), updatedAt: sql`(unixepoch())` })
    .where(eq(jobs.id, id));

export const finishJob = (db: DB, id: number, result: Record<string, unknown>) =>
  db
    .update(jobs)
    .set({ status: "succeeded", progress: 100, result, error: null, finishedAt: sql`(unixepoch())`, updatedAt: sql`(unixepoch())` })
    .where(eq(jobs.id, id));

/** Records the last failure; the job stays running while the queue still retries it. */
export const noteJobError = (db: DB, id: number, error: string) =>
  db.update(jobs).set({ error, updatedAt: sql`(unixepoch())` }).where(eq(jobs.id, id));

export const failJob = (db: DB, id: number, error: string) =>
  db
    .update(jobs)
    .set({ status: "failed", error, finishedAt: sql`(unixepoch())`, updatedAt: sql`(unixepoch())` })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ["queued", "running"])));

/** Points a job at its payload in R2 (written after the row, since the key carries the job id). */
export const setJobPayloadKey = (db: DB, id: number, payloadKey: string) =>
  db.update(jobs).set({ payloadKey, updatedAt: sql`(unixepoch())` }).where(eq(jobs.id, id));
