import type { DB } from "../db/client";
import { CompletionParams, recomputeCompletions } from "../services/completions";
import { afterWrite } from "../services/after-write";
import type { Job } from "../db/queries/jobs";
import { formatId } from "../lib/ids";
import { defineJob } from "./define";
import { enqueue } from "./enqueue";

/**
 * `completion`: recomputes subtitle_completions for `{videoIds, containerIds}` (the jobs row's params): one aggregate
 * statement per scope on each shard that holds their subtitles, then one catalogue batch that writes the percentages
 * (docs/decisions.md, "Subtitles on the shards"). Idempotent: unchanged percentages are not written. Result:
 * `{videos, containers, rows_written, completion_events, duration_ms}` (completion_events: the completion.updated
 * events recorded, one per video or container whose percentages changed).
 */
export const completion = defineJob({
  type: "completion",
  params: CompletionParams,
  payload: null,
  async handler({ db, env, params, progress }) {
    await progress(10);
    const started = Date.now();
    const { events, ...result } = await recomputeCompletions({ db, env }, params);
    // Container and video documents carry the completions, and listings filter on them.
    await afterWrite({ db, env }, { scopes: ["catalogue"], events: events > 0 });
    return { ...result, completion_events: events, duration_ms: Date.now() - started };
  },
});

/**
 * Queues the completion recompute a job's write sets off (an import, a restore), for the user the job acts for and
 * under the request that queued it; returns its id as the wire names it (the job's `completion_job`). It is the job's
 * own step, not one an application asked for: it gets no applicationId, so the application hears one job.succeeded
 * (the job's) and learns of new percentages from completion.updated.
 */
export async function queueCompletion({ db, env }: { db: DB; env: Env }, after: Job, scope: CompletionParams) {
  const next = await enqueue({ db, env, requestId: after.requestId ?? undefined }, completion, scope, { createdBy: after.createdBy });
  return formatId(next.id, "j");
}
