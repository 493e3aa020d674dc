import type { z } from "zod";
import type { DB } from "../db/client";
import type { Job } from "../db/queries/jobs";
import { ContinueJob, PermanentJobError } from "../lib/job-errors";

export interface JobContext {
  db: DB;
  env: Env;
  job: Job;
  /**
   * Reports progress (0..100) to GET /v4/jobs/<id>.json and renews the lease; throws `LostClaim` once another
   * delivery has claimed the job (docs/decisions.md, "Exclusive claims").
   */
  progress(percent: number): Promise<void>;
  /** Renews the lease alone, as `progress` does (inside long deletes); throws `LostClaim` the same way. */
  renew(): Promise<void>;
  /**
   * The queue batch's statement budget (src/jobs/batch-budget.ts), from which a continuing job's share for this
   * delivery is taken; absent outside the queue consumer (a job run directly keeps its own statementsPerDelivery).
   */
  budget?: { share(wanted: number): number | null };
}

type JobResult = Record<string, unknown>;

/** What the consumer calls for one delivery; it returns the job's result object. */
export type JobHandler = (ctx: JobContext) => Promise<JobResult>;

// The runner's outcomes live below every layer (src/lib/job-errors.ts), so a service that owns a job's work throws them too.
export { ContinueJob, LostClaim, PermanentJobError } from "../lib/job-errors";

/** Statements a job makes in one delivery before it checkpoints (D1 allows 1,000 queries per invocation). */
export const STATEMENTS_PER_DELIVERY = 400;

/** Where a job's payload lives in R2 (env.SUBTITLES); the key carries the job id, so it is written after the row. */
export interface PayloadSpec {
  key(jobId: number): string;
  contentType: string;
}

export interface JobDefinition<
  T extends string = string,
  S extends z.ZodType = z.ZodType,
  P extends PayloadSpec | null = PayloadSpec | null,
> {
  type: T;
  /** `jobs.params`: small inputs only, parsed before the handler runs. */
  params: S;
  /** Large inputs (uploads, long id lists) go to R2 under this key; null when the params hold everything. */
  payload: P;
  handler(ctx: JobContext & { params: z.output<S> }): Promise<JobResult>;
}

/** Identity, for inference: the literal type, the params schema and the payload spec stay precise. */
export const defineJob = <T extends string, S extends z.ZodType, P extends PayloadSpec | null>(definition: JobDefinition<T, S, P>) =>
  definition;

/**
 * The consumer's entry for a definition. Params that do not parse can never succeed, so they fail the job
 * at once (`malformed <type> parameters`); a job row without params reads as `{}`.
 */
export function consumerOf(definition: JobDefinition): JobHandler {
  return async (ctx) => {
    const params = definition.params.safeParse(ctx.job.params ?? {});
    if (!params.success) throw new PermanentJobError(`malformed ${definition.type} parameters`);
    const data = params.data as { statementsPerDelivery?: unknown };
    // A job that continues makes at most its share of the batch's statements in this delivery (docs/decisions.md,
    // "Jobs of one batch side by side"); with none left it continues in its next delivery, from where it stands. The
    // share lives in this delivery's params only: a checkpoint merges the job's own state, never this.
    if (ctx.budget && typeof data.statementsPerDelivery === "number") {
      const share = ctx.budget.share(data.statementsPerDelivery);
      if (share === null) throw new ContinueJob({});
      data.statementsPerDelivery = share;
    }
    return definition.handler({ ...ctx, params: params.data });
  };
}
