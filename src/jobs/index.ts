import { z } from "zod";
import { completion } from "./completion";
import { containerDelete } from "./container-delete";
import { containerMove } from "./container-move";
import { consumerOf, type JobHandler } from "./define";
import { listEdit } from "./list-edit";
import { notificationFanout } from "./notification-fanout";
import { srtImport } from "./srt-import";
import { subtitleRestore } from "./subtitle-restore";
import { subtitleChecks } from "./subtitle-checks";
import { subtitleSearchIndex } from "./subtitle-search-index";
import type { JobMessageBody } from "./types";

/** Every job type, by its definition: adding one is a file in src/jobs/ and a line here. */
export const JOBS = [
  srtImport,
  completion,
  listEdit,
  notificationFanout,
  containerDelete,
  subtitleRestore,
  containerMove,
  subtitleSearchIndex,
  subtitleChecks,
] as const;

/** The job type names (the wire `Job.type`); the jobs table stores them as plain text, so a job type needs no migration. */
export type JobType = (typeof JOBS)[number]["type"];

/** The job type names, in registry order (the wire `Job.type` enum and the message schema use them). */
export const jobTypes = JOBS.map((j) => j.type) as [JobType, ...JobType[]];

export const JobMessage = z.object({ type: z.enum(jobTypes), jobId: z.number().int().positive() }) satisfies z.ZodType<JobMessageBody>;
export type JobMessage = z.infer<typeof JobMessage>;

/** The consumer's dispatch: each definition's handler behind its params parsing. */
export const jobHandlers = (): Record<JobType, JobHandler> =>
  Object.fromEntries(JOBS.map((definition) => [definition.type, consumerOf(definition)])) as Record<JobType, JobHandler>;

export { ContinueJob, LostClaim, PermanentJobError, type JobContext, type JobHandler } from "./define";
export { enqueue } from "./enqueue";
export type { JobDeps } from "./types";
