// Language-only translation walks (`/v4/translations.json?to=<lang>[&from=<lang>]`, unsigned `app=`) are bounded by
// the page, not by the data (docs/decisions.md, "Translations and captions"): every video the walk passes is a
// position of the list, a video with no translation to show an empty one, so a page reads a few rows per position on
// each shard however many videos hold the language, answers `more: true` when it stops early, and the next page
// continues where it stopped.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, rowsRead } from "../helpers";
import { createContainer } from "../helpers/catalogue";
import { allocateIdsStatement, shardOf } from "../helpers/shards";

type Page = { more: boolean; response: Array<{ id: string; video_id: string }> | string[]; count?: number };

/** Videos with an English subtitle on each shard: all of English origin but every 60th, of Korean origin. */
const PER_SHARD = 600;
const KOREAN_EVERY = 60;
/** Facts-only video ids, interleaved across the two shards so the merge is exercised. */
const VIDEO_BASE = 900_000_000;
/**
 * Rows a position may cost on a shard: the loose scan's seek, its row in the scan's queue, the video's and the
 * container's facts (measured: 4 per position, as for a video the walk passed before it was bounded).
 */
const ROWS_PER_POSITION = 4;
/** The application's lookup, the shard map, and the page's hydration (about 8 rows an item). */
const FIXED = 100;
const SHARDS = 2;
const budget = (offset: number, perPage: number, items: number) => ROWS_PER_POSITION * (offset + perPage + 1) * SHARDS + 8 * items + FIXED;

let app: string;
/** The English translations (of the Korean-origin videos) in the walk's order: by video id. */
const expected: string[] = [];

beforeAll(async () => {
  app = (await createApplication()).wireId;
  // One English container on each shard (placement alternates; create until both shards have one).
  const placed = new Map<number, number>();
  while (placed.size < SHARDS) {
    const c = await createContainer({ originLanguage: "en" });
    const { shard } = await shardOf(c.id);
    if (!placed.has(shard)) placed.set(shard, c.id);
  }
  // On each shard, as a writer leaves them: the facts, then one segment and one English subtitle per video, ids from
  // the shard's range (segment first + k, its subtitle first + PER_SHARD + k). Facts-only videos: the walk reads the
  // shard alone, and a real catalogue of 1,200 videos would take most of the test's time to seed.
  for (const [i, [shard, containerId]] of [...placed].entries()) {
    const { binding } = await shardOf(containerId);
    const video = (k: string) => `${VIDEO_BASE} + 2 * ${k} + ${i}`;
    // The first id allocateIdsStatement gives (firstAllocatedId, as SQL text for a raw statement).
    const firstSql = `((SELECT next_id FROM shard_ids WHERE shard = ${shard}) - ${2 * PER_SHARD - 1})`;
    await binding.batch([
      binding
        .prepare("INSERT INTO container_facts (container_id, state, origin_language) VALUES (?, 'normal', 'en') ON CONFLICT DO NOTHING")
        .bind(containerId),
      binding.prepare(
        `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k + 1 < ${PER_SHARD})
         INSERT INTO video_facts (video_id, container_id, state, origin_language, number)
         SELECT ${video("k")}, ${containerId}, 'normal', CASE WHEN k % ${KOREAN_EVERY} = ${KOREAN_EVERY / 2} THEN 'ko' ELSE '' END, k FROM n`,
      ),
      allocateIdsStatement(binding, shard, 2 * PER_SHARD),
      binding.prepare(
        `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k + 1 < ${PER_SHARD})
         INSERT INTO segments (id, container_id, video_id, start_ms, end_ms) SELECT ${firstSql} + k, ${containerId}, ${video("k")}, 0, 900 FROM n`,
      ),
      binding.prepare(
        `INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text)
         SELECT id + ${PER_SHARD}, container_id, id, video_id, 'en', 'en ' || video_id FROM segments WHERE video_id >= ${VIDEO_BASE}`,
      ),
    ]);
  }
  const rows: Array<{ video: number; id: number }> = [];
  for (const containerId of placed.values()) {
    const { binding } = await shardOf(containerId);
    const { results } = await binding
      .prepare(
        `SELECT s.video_id AS video, s.id AS id FROM subtitles s JOIN video_facts v ON v.video_id = s.video_id
         WHERE s.video_id >= ${VIDEO_BASE} AND v.origin_language = 'ko'`,
      )
      .all<{ video: number; id: number }>();
    rows.push(...results);
  }
  expected.push(...rows.sort((a, b) => a.video - b.video || a.id - b.id).map((r) => `${r.id}s`));
}, 60_000);

const translations = (query: Record<string, string>) => api("/v4/translations.json", { app, query });

describe("language-only translation walks", () => {
  it("seeds 20 translations among 1,200 videos of English origin on two shards", () => {
    expect(expected).toHaveLength((SHARDS * PER_SHARD) / KOREAN_EVERY);
  });

  it("stops a walk that finds nothing after a page of videos per shard, and says more", async () => {
    const res = await translations({ to: "en", from: "zz" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Page;
    expect(body.response).toEqual([]);
    expect(body.more).toBe(true);
    const rows = rowsRead(res);
    console.log(`to=en&from=zz, page 1 of 25 over ${SHARDS * PER_SHARD} videos: ${rows} rows read (budget ${budget(0, 25, 0)})`);
    expect(rows).toBeLessThanOrEqual(budget(0, 25, 0));
  });

  for (const query of [{ to: "en", from: "ko" }, { to: "en" }] as Array<Record<string, string>>) {
    it(`pages ${new URLSearchParams(query)} to the end, each page within its budget, no item lost or repeated`, async () => {
      const seen: string[] = [];
      let worst = -Infinity;
      for (let page = 1; ; page++) {
        const res = await translations({ ...query, per_page: "100", page: String(page) });
        expect(res.status).toBe(200);
        const body = (await res.json()) as Page;
        const ids = (body.response as Array<{ id: string }>).map((t) => t.id);
        seen.push(...ids);
        const rows = rowsRead(res);
        worst = Math.max(worst, rows - budget((page - 1) * 100, 100, ids.length));
        expect(rows, `page ${page}`).toBeLessThanOrEqual(budget((page - 1) * 100, 100, ids.length));
        if (!body.more) break;
        expect(page, "pages end").toBeLessThan(SHARDS * PER_SHARD);
      }
      expect(seen).toEqual(expected);
      console.log(`${new URLSearchParams(query)}: paged to the end, the closest page ${-worst} rows under its budget`);
    });
  }

  it("answers ids only without the empty positions, and counts only translations", async () => {
    const ids = (await (await translations({ to: "en", from: "ko", only_ids: "true", per_page: "100" })).json()) as Page;
    expect(ids.response.every((id) => typeof id === "string" && /^\d+s$/.test(id))).toBe(true);
    expect(ids.response).toEqual(expected.slice(0, ids.response.length));
    const res = await translations({ to: "en", from: "ko", with_paging: "true" });
    const counted = (await res.json()) as Page;
    expect(counted.count).toBe(expected.length);
    // The count reads the walk to its end here (600 positions a shard), as it reads at most COUNT_LIMIT positions.
    const countBudget = ROWS_PER_POSITION * PER_SHARD * SHARDS + budget(0, 25, counted.response.length);
    console.log(`to=en&from=ko with its count: ${rowsRead(res)} rows read (budget ${countBudget})`);
    expect(rowsRead(res)).toBeLessThanOrEqual(countBudget);
  });
});
