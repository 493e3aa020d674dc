import { CompletionParams, recomputeCompletions } from "../src/services/completions";
import { PermanentJobError, type JobHandler } from "./runner";

/**
 * `completion`: recomputes subtitle_completions for `{videoIds, containerIds}` (the jobs row's params) with
 * one aggregate statement per scope. Idempotent: unchanged percentages are not written. Result:
 * `{videos, containers, rows_written, duration_ms}`.
 */
export const completion: JobHandler = async ({ db, job, progress }) => {
  const params = CompletionParams.safeParse(job.params ?? {});
  if (!params.success) throw new PermanentJobError("malformed completion parameters");
  await progress(10);
  const started = Date.now();
  const result = await recomputeCompletions(db, params.data);
  return { ...result, duration_ms: Date.now() - started };
};
