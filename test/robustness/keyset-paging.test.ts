// Keyset paging across shards (docs/decisions.md, "Keyset paging across shards"): OFFSET paging over N shards reads
// each shard's first `offset + limit` entries, a cursor only about `limit` after its position. Both shards hold more
// translations than the paging ceiling, so the deepest OFFSET page pays N·(offset + limit), and the same page by
// cursor, and pages past the ceiling, are held to a budget of about a page per shard. The figures in docs/scaling.md
// ("Shards as built", rows read across shards) are the lines this file prints:
//   npx vitest run test/robustness/keyset-paging.test.ts
import { env } from "cloudflare:workers";
import { sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { allTranslations, languageTranslations } from "../../src/db/queries/translations";
import { runBatch } from "../../src/db/raw-batch";
import { userHistoriesQuery } from "../../src/db/queries/histories";
import { createShardDb, shardBinding } from "../../src/db/shards";
import { encodeCursor } from "../../src/lib/cursor";
import { PAGING_CEILING, lastServedPage } from "../../src/lib/paging";
import { api, createApplication, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

type Json = any;

/** Translations on each shard: more than the ceiling, so each shard's OFFSET read at the deepest page is the full `offset + limit`. */
const PER_SHARD = PAGING_CEILING + 200;
const PER_PAGE = 100;
const DEEPEST = lastServedPage(PER_PAGE);
/**
 * A page by cursor, at any depth: each shard's walk reads three rows per entry (index entry, video facts, container
 * facts) for `limit` (= per_page + 1) entries, the hydration about five per item, the catalogue a few (the application,
 * the shard map). With N = 2: 2·3·101 + 5·101 + 100.
 */
const CURSOR_PAGE_BUDGET = 2 * 3 * (PER_PAGE + 1) + 5 * (PER_PAGE + 1) + 100;
/** A language walk seeks into a video's subtitles by id: per shard about two rows per entry, plus the video's facts. */
const LANGUAGE_CURSOR_BUDGET = 2 * 2 * (PER_PAGE + 1) + 5 * (PER_PAGE + 1) + 100;
/** A history page by cursor: per shard about one row read per entry for `limit` entries, the catalogue a few (the user, the session). */
const HISTORY_CURSOR_BUDGET = 2 * (PER_PAGE + 1) + 100;

let app: string;
let official: string;
let author: Awaited<ReturnType<typeof signedInUser>>;
const videos: Array<{ id: number; containerId: number; shard: number }> = [];

/**
 * One video per container, PER_SHARD English translations each (Korean origin), created one a second from the same
 * base on both shards: every creation time is held by a row on each shard, so the order across them is decided by id.
 */
async function seed(containerId: number, videoId: number) {
  const placed = await videoShard(videoId);
  const first = firstAllocatedId(placed.shard, 2 * PER_SHARD);
  await runBatch(placed.db, [
    allocateShardIdsStatement(placed.db, placed.shard, 2 * PER_SHARD).getSQL(),
    sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${PER_SHARD})
     INSERT INTO segments (id, container_id, video_id, start_ms, end_ms)
     SELECT ${first} + i, ${containerId}, ${videoId}, i * 1000, i * 1000 + 900 FROM n`,
    sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text, created_at)
     SELECT id + ${PER_SHARD}, container_id, id, video_id, 'en', '번역 ' || id, 1700000000 + (id - ${first}) FROM segments WHERE video_id = ${videoId}`,
  ]);
  videos.push({ id: videoId, containerId, shard: placed.shard });
}

/** PER_SHARD history rows of the author on a video's shard, one a second from the same base on both shards (ties again). */
async function seedHistory(video: { id: number; containerId: number }) {
  const placed = await videoShard(video.id);
  const first = firstAllocatedId(placed.shard, PER_SHARD);
  await runBatch(placed.db, [
    allocateShardIdsStatement(placed.db, placed.shard, PER_SHARD).getSQL(),
    sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${PER_SHARD})
     INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, text, created_at)
     SELECT ${first} + i, 'subtitle', ${author.user.id}, ${author.user.username}, ${video.id}, ${video.containerId}, 'ko', '수정 ' || i, 1700000000 + i FROM n`,
  ]);
}

beforeAll(async () => {
  app = (await createApplication()).wireId;
  for (let k = 0; k < 2; k++) {
    const series = await createContainer({ originLanguage: "ko" });
    await seed(series.id, (await createVideo(series.id, { number: 1 })).id);
  }
  official = (await createApplication({ official: true })).wireId;
  author = await signedInUser();
  for (const video of videos) await seedHistory(video);
}, 120_000);

const translations = (query: Record<string, string>) => api(`/v4/tranlslations.json`, { app, query });

/** The plan of one shard's walk, one detail per line. */
async function planOf(walk: SQL) {
  const { sql: text, params } = new SQLiteAsyncDialect().sqlToQuery(walk);
  const { results } = await shardBinding(env, 1)
    .prepare(`EXPLAIN QUERY PLAN ${text} LIMIT 101`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail).join("\n");
}

describe("keyset paging across two shards", () => {
  it("holds more than the ceiling on each shard", async () => {
    expect(new Set(videos.map((v) => v.shard)).size).toBe(2);
    for (const v of videos) {
      const { binding } = await shardOf(
        (await env.DB.prepare("SELECT container_id AS c FROM videos WHERE id = ?").bind(v.id).first<{ c: number }>())!.c,
      );
      const row = await binding.prepare("SELECT count(*) AS n FROM subtitles WHERE video_id = ?").bind(v.id).first<{ n: number }>();
      expect(row?.n).toBe(PER_SHARD);
    }
  });

  it("reads each shard's walk after a cursor as an index range, not a scan", async () => {
    // The language walk seeks its first video from the cursor's and that video's subtitles from the cursor's id (the
    // index's rowid); the CTE's own rows are the only SCANs.
    const newest = await planOf(allTranslations([], [1_700_005_000, 5_000]));
    // SQLite ranges a row value on its first column and tests the whole value on each entry: one tie group more at most.
    expect(newest).toMatch(/SEARCH s USING COVERING INDEX subtitles_translations \(created_at<\?\)/);
    const language = await planOf(languageTranslations("en", undefined, [], [videos[0].id, 5_000]));
    expect(language).toMatch(/SEARCH s USING INDEX subtitles_language \(language=\? AND video_id=\? AND rowid>\?\)/);
    expect(language).toMatch(/SEARCH subtitles USING COVERING INDEX subtitles_language \(language=\? AND video_id>\?\)/);
    expect(`${newest}\n${language}`).not.toMatch(/SCAN (s|subtitles)\b/);
  });

  it("answers the deepest OFFSET page and the same page by cursor alike, the cursor at about a page per shard", async () => {
    // Page 1 both ways: the same rows read, as a first page is a first page.
    const first = await translations({ per_page: String(PER_PAGE) });
    const firstBody = (await first.json()) as Json;
    expect(firstBody.more).toBe(true);
    expect(typeof firstBody.cursor).toBe("string");
    const before = await translations({ per_page: String(PER_PAGE), page: String(DEEPEST - 1) });
    const cursor = ((await before.json()) as Json).cursor as string;
    const deepOffset = await translations({ per_page: String(PER_PAGE), page: String(DEEPEST) });
    const deepCursor = await translations({ per_page: String(PER_PAGE), cursor });
    const offsetBody = (await deepOffset.json()) as Json;
    const cursorBody = (await deepCursor.json()) as Json;
    expect(cursorBody.response.map((t: Json) => t.id)).toEqual(offsetBody.response.map((t: Json) => t.id));
    expect(cursorBody.response).toHaveLength(PER_PAGE);
    expect(cursorBody.cursor).toBe(offsetBody.cursor);
    const figures = {
      offsetFirst: rowsRead(first),
      offsetDeepest: rowsRead(deepOffset),
      cursorDeepest: rowsRead(deepCursor),
    };
    console.log(
      `every translation, N=2 shards, per_page ${PER_PAGE}: page 1 ${figures.offsetFirst} rows read; page ${DEEPEST} by OFFSET ${figures.offsetDeepest}, by cursor ${figures.cursorDeepest} (budget ${CURSOR_PAGE_BUDGET})`,
    );
    expect(figures.cursorDeepest).toBeLessThanOrEqual(CURSOR_PAGE_BUDGET);
    // OFFSET pays each shard's offset + limit: at least the index entries of both shards' walks.
    expect(figures.offsetDeepest).toBeGreaterThan(2 * PAGING_CEILING);
  });

  it("pages past the ceiling by cursor at the same cost, to the end of the list", async () => {
    let cursor = ((await (await translations({ per_page: String(PER_PAGE), page: String(DEEPEST) })).json()) as Json).cursor as string;
    let served = PAGING_CEILING;
    let most = 0;
    for (;;) {
      const res = await translations({ per_page: String(PER_PAGE), cursor });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Json;
      served += body.response.length;
      most = Math.max(most, rowsRead(res));
      if (!body.more) {
        expect(body.cursor).toBeUndefined();
        break;
      }
      cursor = body.cursor;
    }
    expect(served).toBe(2 * PER_SHARD);
    console.log(`every translation past the ceiling by cursor: the costliest page read ${most} rows (budget ${CURSOR_PAGE_BUDGET})`);
    expect(most).toBeLessThanOrEqual(CURSOR_PAGE_BUDGET);
  });

  it("pages a language's translations by cursor at about a page per shard, at any depth", async () => {
    const first = await translations({ to: "en", per_page: String(PER_PAGE) });
    const before = await translations({ to: "en", per_page: String(PER_PAGE), page: String(DEEPEST - 1) });
    const cursor = ((await before.json()) as Json).cursor as string;
    const deepOffset = await translations({ to: "en", per_page: String(PER_PAGE), page: String(DEEPEST) });
    const deepCursor = await translations({ to: "en", per_page: String(PER_PAGE), cursor });
    const cursorBody = (await deepCursor.json()) as Json;
    expect(cursorBody.response.map((t: Json) => t.id)).toEqual(((await deepOffset.json()) as Json).response.map((t: Json) => t.id));
    // Past the first video's PER_SHARD rows: the next cursor is in the second video, on the other shard.
    const later = encodeCursor({ list: "l", key: [Math.max(...videos.map((v) => v.id)), Number.MAX_SAFE_INTEGER - 1] });
    const end = await translations({ to: "en", per_page: String(PER_PAGE), cursor: later });
    expect(((await end.json()) as Json).response).toEqual([]);
    console.log(
      `a language's translations, N=2 shards, per_page ${PER_PAGE}: page 1 ${rowsRead(first)} rows read; page ${DEEPEST} by OFFSET ${rowsRead(deepOffset)}, by cursor ${rowsRead(deepCursor)} (budget ${LANGUAGE_CURSOR_BUDGET})`,
    );
    expect(rowsRead(deepCursor)).toBeLessThanOrEqual(LANGUAGE_CURSOR_BUDGET);
  });
});

describe("a user's subtitle history by cursor across two shards", () => {
  const page = (query: Record<string, string>) =>
    api(`/v4/users/${author.id}/subtitle_histories.json`, { method: "POST", app: official, token: author.token, query, json: {} });

  it("answers the deepest OFFSET page and the same page by cursor alike, the cursor at about a page per shard", async () => {
    const first = await page({ per_page: String(PER_PAGE) });
    expect(first.status).toBe(200);
    const cursor = ((await (await page({ per_page: String(PER_PAGE), page: String(DEEPEST - 1) })).json()) as Json).cursor as string;
    const deepOffset = await page({ per_page: String(PER_PAGE), page: String(DEEPEST) });
    const deepCursor = await page({ per_page: String(PER_PAGE), cursor });
    const cursorBody = (await deepCursor.json()) as Json;
    expect(cursorBody.response.map((h: Json) => h.id)).toEqual(((await deepOffset.json()) as Json).response.map((h: Json) => h.id));
    expect(cursorBody.response).toHaveLength(PER_PAGE);
    console.log(
      `a user's subtitle history, N=2 shards, per_page ${PER_PAGE}: page 1 ${rowsRead(first)} rows read; page ${DEEPEST} by OFFSET ${rowsRead(deepOffset)}, by cursor ${rowsRead(deepCursor)} (budget ${HISTORY_CURSOR_BUDGET})`,
    );
    expect(rowsRead(deepCursor)).toBeLessThanOrEqual(HISTORY_CURSOR_BUDGET);
    expect(rowsRead(deepOffset)).toBeGreaterThan(2 * PAGING_CEILING);
  });

  it("reads each shard's history after a cursor as an index range", async () => {
    const after = [1_700_005_000, 5_000] as const;
    const { sql: text, params } = userHistoriesQuery(
      createShardDb(shardBinding(env, 1)),
      { userId: author.user.id },
      0,
      101,
      [],
      after,
    ).toSQL();
    const { results } = await shardBinding(env, 1)
      .prepare(`EXPLAIN QUERY PLAN ${text}`)
      .bind(...params)
      .all<{ detail: string }>();
    expect(results.map((r) => r.detail).join("\n")).toMatch(
      /SEARCH subtitle_histories USING INDEX subtitle_histories_user \(user_id=\? AND created_at<\?\)/,
    );
  });
});
