import { CompletionParams, recomputeCompletions } from "../services/completions";
import { bumpGenerations } from "../services/edge-cache";
import { defineJob } from "./define";

/**
 * `completion`: recomputes subtitle_completions for `{videoIds, containerIds}` (the jobs row's params) with
 * one aggregate statement per scope. Idempotent: unchanged percentages are not written. Result:
 * `{videos, containers, rows_written, duration_ms}`.
 */
export const completion = defineJob({
  type: "completion",
  params: CompletionParams,
  payload: null,
  async handler({ db, env, params, progress }) {
    await progress(10);
    const started = Date.now();
    const result = await recomputeCompletions(db, params);
    // Container and video documents carry the completions, and listings filter on them.
    await bumpGenerations(env, "catalogue");
    return { ...result, duration_ms: Date.now() - started };
  },
});
