import type { DB } from "../db/client";

/** What starting or sweeping jobs needs: the database and the bindings (JOBS, SUBTITLES). */
export interface JobDeps {
  db: DB;
  env: Env;
  /** The request that queues the job (or, for a job a job queues, the one that queued that): its log lines name it. */
  requestId?: string;
}

/**
 * A queue message only names the job; everything else is in its row. Producers and the consumer share it. `type` is
 * a name of the registry (src/jobs/index.ts): the consumer parses every message with `JobMessage`, whose enum is
 * built from the registry, so a name read back from a jobs row needs no cast here.
 */
export interface JobMessageBody {
  type: string;
  jobId: number;
}
