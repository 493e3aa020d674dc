import { z } from "zod";
import { createShardDb, shardBinding } from "../db/shards";
import { checkShardTracks, type ChecksProgress } from "../services/subtitle-checks";
import { ContinueJob, defineJob, PermanentJobError, STATEMENTS_PER_DELIVERY } from "./define";

const SubtitleChecksParams = z.object({
  shard: z.number().int().positive(),
  /** One container's tracks only; every track of the shard when absent. */
  containerId: z.number().int().positive().optional(),
  /** Statements one delivery makes before it checkpoints (docs/decisions.md, "Jobs that continue"). */
  statementsPerDelivery: z.number().int().min(2).max(900).default(STATEMENTS_PER_DELIVERY),
  /** Where the walk stands, written at each checkpoint (absent on the first delivery). */
  progress: z
    .object({ afterVideo: z.number().int(), afterLanguage: z.string(), tracks: z.number().int(), changed: z.number().int() })
    .optional(),
});

/**
 * `subtitle-checks`: stores the quality checks of the cues written before they existed (migrations-shard/0006), on a
 * shard's tracks with unchecked cues (src/services/subtitle-checks.ts), when an operator asks (`npm run admin --
 * subtitles check`, docs/operations.md, "Quality checks of existing subtitles"). Two statements a track (its cues
 * read, its masks written); a delivery stops at its share and the next resumes after the last track done. Idempotent.
 * Result `{shard, container_id, tracks, changed}`.
 */
export const subtitleChecks = defineJob({
  type: "subtitle-checks",
  params: SubtitleChecksParams,
  payload: null,
  async handler({ env, params, progress }) {
    let shard;
    try {
      shard = createShardDb(shardBinding(env, params.shard));
    } catch (err) {
      throw new PermanentJobError(err instanceof Error ? err.message : String(err));
    }
    let spent = 0;
    const done = await checkShardTracks(
      shard,
      { containerId: params.containerId },
      params.progress ?? { afterVideo: 0, afterLanguage: "", tracks: 0, changed: 0 },
      (sofar: ChecksProgress) => {
        if (spent + 2 > params.statementsPerDelivery) throw new ContinueJob({ progress: sofar });
        spent += 2;
      },
    );
    await progress(100);
    return { shard: params.shard, container_id: params.containerId ?? null, tracks: done.tracks, changed: done.changed };
  },
});
