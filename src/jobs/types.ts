/**
 * The job type names. The jobs table's column enum reads this plain tuple so the schema never imports the
 * handlers; `JOBS` (./index.ts) must define exactly these, which the compiler checks there and
 * test/queues/registry.test.ts checks at run time.
 */
export const JOB_TYPES = ["srt-import", "completion", "list-edit", "notification-fanout", "container-delete"] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** A queue message only names the job; everything else is in its row. Producers and the consumer share it. */
export interface JobMessageBody {
  type: JobType;
  jobId: number;
}
