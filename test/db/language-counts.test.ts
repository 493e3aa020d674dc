// docs/decisions.md, "Language counts are kept by triggers": the two language lists read the trigger-kept
// language_counts (one row per language), never the subtitles, however many there are; their answers equal a full
// count over visible videos.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, rowsRead } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

let app: string;

/** The counts as the lists answered them before the trigger-kept counts: one grouped pass over every subtitle. */
const fullCount = async (which: "originals" | "translations") => {
  const { results } = await env.DB.prepare(
    `SELECT g.language AS language,
       SUM(CASE WHEN (g.language = COALESCE(NULLIF(v.origin_language, ''), c.origin_language)) = (?1 = 'originals') THEN g.n ELSE 0 END) AS count
     FROM (SELECT language, video_id, COUNT(*) AS n FROM subtitles GROUP BY language, video_id) g
     CROSS JOIN videos v ON v.id = g.video_id CROSS JOIN containers c ON c.id = v.container_id
     WHERE v.state = 'normal' AND c.state = 'normal' GROUP BY g.language HAVING count > 0`,
  )
    .bind(which)
    .all<{ language: string; count: number }>();
  return results.sort((a, b) => b.count - a.count || a.language.localeCompare(b.language));
};

beforeAll(async () => {
  app = (await createApplication()).wireId;
  // 4,000 segments on 40 videos (some hidden), each with up to six languages: about 15,000 subtitles.
  const series = await createContainer({ title: "Many subtitles", originLanguage: "ko" });
  const hidden = await createContainer({ title: "Hidden", originLanguage: "ja", state: "pending" });
  for (let i = 0; i < 40; i++) {
    const v = await createVideo(i % 5 === 4 ? hidden.id : series.id, {
      number: i + 1,
      state: i % 7 === 6 ? "blocked" : "normal",
      originLanguage: i % 3 === 2 ? "en" : "",
    });
    await env.DB.prepare(
      `INSERT INTO segments (video_id, start_ms, end_ms)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99) SELECT ?1, i * 1000, i * 1000 + 900 FROM n`,
    )
      .bind(v.id)
      .run();
    await env.DB.prepare(
      `INSERT INTO subtitles (segment_id, video_id, language, text)
       SELECT s.id, s.video_id, l.value, 'x' FROM segments s CROSS JOIN json_each('["ko","en","es","fr","ja","de"]') l
       WHERE s.video_id = ?1 AND (s.start_ms / 1000 + l.key) % (l.key + 1) = 0`,
    )
      .bind(v.id)
      .run();
  }
});

describe("language lists", () => {
  for (const [path, which] of [
    ["/v4/translations/languages.json", "translations"],
    ["/v4/tranlslations/languages.json", "translations"],
    ["/v4/captions/languages.json", "originals"],
  ] as const) {
    it(`${path} reads at most 100 rows and equals a full count of ${which}`, async () => {
      const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM subtitles").first<{ n: number }>())!;
      expect(n).toBeGreaterThan(5000);
      const res = await api(`${path}?app=${app}`);
      expect(res.status).toBe(200);
      expect(rowsRead(res)).toBeLessThanOrEqual(100);
      expect(await res.json()).toEqual(await fullCount(which));
    });
  }
});
