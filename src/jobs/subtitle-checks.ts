import { z } from "zod";
import { allGlossaryTermsQuery } from "../db/queries/glossary";
import { containerPlacementQuery } from "../db/queries/shards";
import { checkShardTracks, type ChecksProgress, type Terms } from "../services/subtitle-checks";
import { defineJob } from "./define";
import { enqueue } from "./enqueue";
import { deliveryShare, jobShard, shardWalkParams } from "./shard-walk";
import type { JobDeps } from "./types";

const SubtitleChecksParams = z.object({
  ...shardWalkParams,
  /** Every track with text, not only those with unchecked cues: after a change of the series' glossary. */
  all: z.boolean().default(false),
  /** Where the walk stands, written at each checkpoint (absent on the first delivery). */
  progress: z
    .object({ afterVideo: z.number().int(), afterLanguage: z.string(), tracks: z.number().int(), changed: z.number().int() })
    .optional(),
});

/**
 * `subtitle-checks`: stores the quality checks of the cues written before they existed (migrations-shard/0006), on a
 * shard's tracks with unchecked cues (src/services/subtitle-checks.ts), when an operator asks (`npm run admin --
 * subtitles check`, docs/operations.md, "Quality checks of existing subtitles"); with `all`, every track of one
 * container, queued by each write of its glossary (`queueGlossaryRecheck`). Two statements a track (its cues and the
 * term languages' texts read in one batch, its masks written), and one catalogue read of each series' terms a delivery;
 * a delivery stops at its share and the next resumes after the last track done. Idempotent. Result `{shard,
 * container_id, all, tracks, changed}`.
 */
export const subtitleChecks = defineJob({
  type: "subtitle-checks",
  params: SubtitleChecksParams,
  payload: null,
  async handler({ db, env, params, progress }) {
    const terms = new Map<number, Terms>();
    const termsOf = async (containerId: number) => {
      let found = terms.get(containerId);
      if (!found) terms.set(containerId, (found = await allGlossaryTermsQuery(db, containerId)));
      return found;
    };
    const done = await checkShardTracks(
      jobShard(env, params.shard),
      { containerId: params.containerId, all: params.all },
      params.progress ?? { afterVideo: 0, afterLanguage: "", tracks: 0, changed: 0 },
      deliveryShare<ChecksProgress>(params.statementsPerDelivery, 2),
      termsOf,
    );
    await progress(100);
    return { shard: params.shard, container_id: params.containerId ?? null, all: params.all, tracks: done.tracks, changed: done.changed };
  },
});

/**
 * After a write of a series' glossary: every track of the series checked again on its shard, so each cue's glossary
 * findings and `checks_passing` follow the terms once the job ends (docs/decisions.md, "Quality checks"). Null for a
 * container with no placement (it has no subtitles).
 */
export async function queueGlossaryRecheck(deps: JobDeps, containerId: number, userId: number) {
  const [placed] = await containerPlacementQuery(deps.db, containerId);
  if (!placed) return null;
  return enqueue(deps, subtitleChecks, { shard: placed.shard, containerId, all: true }, { createdBy: userId });
}
