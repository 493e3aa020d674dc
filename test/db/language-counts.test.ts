// docs/decisions.md, "Language counts are kept by triggers": the two language lists read the trigger-kept
// language_counts (one row per language on each shard, summed), never the subtitles, however many there are; their
// answers equal a full count over visible videos.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { runBatch } from "../../src/db/raw-batch";
import { api, createApplication, rowsRead } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { shardDbs, shardOf } from "../helpers/shards";

let app: string;

/**
 * The counts as the lists answered them before the trigger-kept counts: one grouped pass over every subtitle of every
 * shard, judged by the catalogue's origins and states.
 */
const fullCount = async (which: "originals" | "translations") => {
  const { results: videos } = await env.DB.prepare(
    `SELECT v.id AS id, COALESCE(NULLIF(v.origin_language, ''), c.origin_language) AS origin FROM videos v
     CROSS JOIN containers c ON c.id = v.container_id WHERE v.state = 'normal' AND c.state = 'normal'`,
  ).all<{ id: number; origin: string }>();
  const origins = new Map(videos.map((v) => [v.id, v.origin]));
  const counts = new Map<string, number>();
  for (const shard of shardDbs()) {
    const groups = await shard.all<{ language: string; video_id: number; n: number }>(
      sql`SELECT language, video_id, COUNT(*) AS n FROM subtitles GROUP BY language, video_id`,
    );
    for (const g of groups) {
      const origin = origins.get(g.video_id);
      if (origin === undefined || (g.language === origin) !== (which === "originals")) continue;
      counts.set(g.language, (counts.get(g.language) ?? 0) + g.n);
    }
  }
  return [...counts]
    .map(([language, count]) => ({ language, count }))
    .sort((a, b) => b.count - a.count || a.language.localeCompare(b.language));
};

beforeAll(async () => {
  app = (await createApplication()).wireId;
  // 4,000 segments on 40 videos (some hidden), each with up to six languages: about 15,000 subtitles, on the two
  // containers' shards (one each), written as a writer does (facts first, ids from the shard's range).
  const series = await createContainer({ title: "Many subtitles", originLanguage: "ko" });
  const second = await createContainer({ title: "Second", originLanguage: "fr" });
  const hidden = await createContainer({ title: "Hidden", originLanguage: "ja", state: "pending" });
  // The two visible containers on different shards: the lists sum both shards' counts.
  expect((await shardOf(series.id)).shard).not.toBe((await shardOf(second.id)).shard);
  for (let i = 0; i < 40; i++) {
    const v = await createVideo(i % 5 === 4 ? hidden.id : i % 5 === 3 ? second.id : series.id, {
      number: i + 1,
      state: i % 7 === 6 ? "blocked" : "normal",
      originLanguage: i % 3 === 2 ? "en" : "",
    });
    const placed = await videoShard(v.id);
    // 100 segments, then at most six subtitles each: ids first + k for segment k, first + 100 + 6k + l for its subtitles.
    const first = firstAllocatedId(placed.shard, 700);
    await runBatch(placed.db, [
      allocateShardIdsStatement(placed.db, placed.shard, 700).getSQL(),
      sql`INSERT INTO segments (id, container_id, video_id, start_ms, end_ms)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
       SELECT ${first} + i, ${placed.video.containerId}, ${v.id}, i * 1000, i * 1000 + 900 FROM n`,
      sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text)
       SELECT ${first} + 100 + (s.start_ms / 1000) * 6 + l.key, s.container_id, s.id, s.video_id, l.value, 'x'
       FROM segments s CROSS JOIN json_each('["ko","en","es","fr","ja","de"]') l
       WHERE s.video_id = ${v.id} AND (s.start_ms / 1000 + l.key) % (l.key + 1) = 0`,
    ]);
  }
});

describe("language lists", () => {
  for (const [path, which] of [
    ["/v4/translations/languages.json", "translations"],
    ["/v4/tranlslations/languages.json", "translations"],
    ["/v4/captions/languages.json", "originals"],
  ] as const) {
    it(`${path} reads at most 100 rows and equals a full count of ${which}`, async () => {
      let n = 0;
      for (const shard of shardDbs()) n += (await shard.get<{ n: number }>(sql`SELECT count(*) AS n FROM subtitles`))!.n;
      expect(n).toBeGreaterThan(5000);
      const res = await api(`${path}?app=${app}`);
      expect(res.status).toBe(200);
      expect(rowsRead(res)).toBeLessThanOrEqual(100);
      expect(await res.json()).toEqual(await fullCount(which));
    });
  }
});
