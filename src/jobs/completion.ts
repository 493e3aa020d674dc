import { CompletionParams, recomputeCompletions } from "../services/completions";
import { afterWrite } from "../services/after-write";
import { defineJob } from "./define";

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
