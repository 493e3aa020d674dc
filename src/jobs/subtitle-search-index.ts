import { z } from "zod";
import { createShardDb, shardBinding } from "../db/shards";
import { indexShardSubtitles, type IndexProgress } from "../services/subtitle-search-index";
import { ContinueJob, defineJob, PermanentJobError, STATEMENTS_PER_DELIVERY } from "./define";

const SubtitleSearchIndexParams = z.object({
  shard: z.number().int().positive(),
  /** One container's lines only; every line of the shard when absent. */
  containerId: z.number().int().positive().optional(),
  /** Statements one delivery makes before it checkpoints (docs/decisions.md, "Jobs that continue"). */
  statementsPerDelivery: z.number().int().min(2).max(900).default(STATEMENTS_PER_DELIVERY),
  /** Where the walk stands, written at each checkpoint (absent on the first delivery). */
  progress: z.object({ afterId: z.number().int(), indexed: z.number().int(), corrected: z.number().int() }).optional(),
});

/**
 * `subtitle-search-index`: builds a shard's subtitle search index again (src/services/subtitle-search-index.ts), for
 * the lines written before the index existed (migrations-shard/0005) and whenever an operator asks
 * (`npm run admin -- search index-subtitles`, docs/operations.md, "Subtitle search index"). Two statements a chunk of
 * 200 lines; a delivery stops at its share and the next resumes after the last line done. Idempotent: a replay
 * writes the same forms again. Result `{shard, container_id, indexed, corrected}`.
 */
export const subtitleSearchIndex = defineJob({
  type: "subtitle-search-index",
  params: SubtitleSearchIndexParams,
  payload: null,
  async handler({ env, params, progress }) {
    let shard;
    try {
      shard = createShardDb(shardBinding(env, params.shard));
    } catch (err) {
      throw new PermanentJobError(err instanceof Error ? err.message : String(err));
    }
    // The runner has already cut statementsPerDelivery to this delivery's share of its batch.
    let spent = 0;
    const done = await indexShardSubtitles(
      shard,
      { containerId: params.containerId },
      params.progress ?? { afterId: 0, indexed: 0, corrected: 0 },
      (sofar: IndexProgress) => {
        if (spent + 2 > params.statementsPerDelivery) throw new ContinueJob({ progress: sofar });
        spent += 2;
      },
    );
    await progress(100);
    return { shard: params.shard, container_id: params.containerId ?? null, indexed: done.indexed, corrected: done.corrected };
  },
});
