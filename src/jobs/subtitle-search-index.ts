import { z } from "zod";
import { indexShardSubtitles, type IndexProgress } from "../services/subtitle-search-index";
import { defineJob } from "./define";
import { deliveryShare, jobShard, shardWalkParams } from "./shard-walk";

const SubtitleSearchIndexParams = z.object({
  ...shardWalkParams,
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
    const done = await indexShardSubtitles(
      jobShard(env, params.shard),
      { containerId: params.containerId },
      params.progress ?? { afterId: 0, indexed: 0, corrected: 0 },
      deliveryShare<IndexProgress>(params.statementsPerDelivery, 2),
    );
    await progress(100);
    return { shard: params.shard, container_id: params.containerId ?? null, indexed: done.indexed, corrected: done.corrected };
  },
});
