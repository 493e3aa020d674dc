// The paging ceiling (docs/decisions.md, "Paging ceiling and repeated parameters"): no list serves an item past
// PAGING_CEILING, since an OFFSET is read row by row and `with_paging=true` used to count the whole walk. The attack was
// `GET /v4/tranlslations.json?app=<any public id>&page=100000&per_page=100`: unsigned, uncached, reading the whole
// translation index. Here the translation index holds more than the ceiling, and the deepest page allowed (and its
// count) is held to a rows-read budget.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { allocateShardIdsStatement, firstAllocatedId } from "../../src/db/queries/shard-rows";
import { runBatch } from "../../src/db/raw-batch";
import { COUNT_LIMIT, PAGING_CEILING, lastServedPage } from "../../src/lib/paging";
import { api, createApplication, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { v3Token } from "../helpers/v3";

type Json = any;

/** More translations than the ceiling, so the deepest page and the count stop at the ceiling, not at the data. */
const SEEDED = PAGING_CEILING + 200;
/**
 * The walk of every translation reads three rows per entry it passes (the index entry, its video, its container),
 * the page's hydration about four per item: the deepest page reads at most the ceiling's entries plus the page.
 */
const DEEPEST_PAGE_BUDGET = 3 * PAGING_CEILING + 1_000;
/** A count reads the same walk, stopped at COUNT_LIMIT entries. */
const COUNT_BUDGET = 3 * COUNT_LIMIT + 1_000;

let app: string;

beforeAll(async () => {
  app = (await createApplication()).wireId;
  const series = await createContainer({ originLanguage: "ko" });
  const video = await createVideo(series.id, { number: 1 });
  // One statement each, so the seed takes about a second: segments one a second, an English (translated) subtitle on
  // each, on the container's shard as a writer puts them (facts first, ids from the shard's range: segment i has
  // first + i, its subtitle first + SEEDED + i).
  const placed = await videoShard(video.id);
  const first = firstAllocatedId(placed.shard, 2 * SEEDED);
  await runBatch(placed.db, [
    allocateShardIdsStatement(placed.db, placed.shard, 2 * SEEDED).getSQL(),
    sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${SEEDED})
     INSERT INTO segments (id, container_id, video_id, start_ms, end_ms)
     SELECT ${first} + i, ${series.id}, ${video.id}, i * 1000, i * 1000 + 900 FROM n`,
    sql`INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text)
     SELECT id + ${SEEDED}, container_id, id, video_id, 'en', 'en ' || id FROM segments WHERE video_id = ${video.id}`,
  ]);
}, 60_000);

const translations = (query: Record<string, string>) => api(`/v4/tranlslations.json`, { app, query });

describe("the translation listing past the paging ceiling", () => {
  it("refuses the attack request with a 400 naming page, before reading the index", async () => {
    const res = await translations({ page: "100000", per_page: "100" });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details).toEqual([{ field: "page", message: expect.stringContaining(String(PAGING_CEILING)) }]);
    // Only the application named by app= is read.
    expect(rowsRead(res)).toBeLessThanOrEqual(1);
  });

  it(`serves the deepest page (page × per_page = ${PAGING_CEILING}) within ${DEEPEST_PAGE_BUDGET} rows read, and refuses the next`, async () => {
    const last = String(lastServedPage(100));
    const res = await translations({ page: last, per_page: "100" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.response).toHaveLength(100);
    expect(body.more).toBe(true);
    const rows = rowsRead(res);
    console.log(`deepest translation page (page ${last}, per_page 100): ${rows} rows read (budget ${DEEPEST_PAGE_BUDGET})`);
    expect(rows).toBeLessThanOrEqual(DEEPEST_PAGE_BUDGET);
    expect((await translations({ page: String(Number(last) + 1), per_page: "100" })).status).toBe(400);
    // The same ceiling at the default per_page (25): page 400 is served, page 401 is not.
    expect((await translations({ page: String(lastServedPage(25)) })).status).toBe(200);
    expect((await translations({ page: String(lastServedPage(25) + 1) })).status).toBe(400);
  });

  it(`counts at most ${COUNT_LIMIT} rows with with_paging=true, and says the count is capped`, async () => {
    const res = await translations({ with_paging: "true", per_page: "100", page: String(lastServedPage(100)) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.count).toBe(PAGING_CEILING);
    expect(body.count_capped).toBe(true);
    // `more` stays true (items remain) but no link leads to a refused page.
    expect(body.more).toBe(true);
    expect(body.pagination.next).toBeNull();
    const rows = rowsRead(res);
    console.log(`deepest translation page with its count: ${rows} rows read (budget ${DEEPEST_PAGE_BUDGET + COUNT_BUDGET})`);
    expect(rows).toBeLessThanOrEqual(DEEPEST_PAGE_BUDGET + COUNT_BUDGET);
  });

  it("answers per_page=99999999999999999999 as per_page=100, never a 500", async () => {
    const queries: Array<Record<string, string>> = [
      { per_page: "99999999999999999999" },
      { per_page: "99999999999999999999", page: "2", with_paging: "true" },
      { per_page: "99999999999999999999", only_ids: "true" },
      { per_page: "-99999999999999999999" },
      { per_page: "1e400", page: "1e400" },
    ];
    for (const query of queries) {
      const res = await translations(query);
      expect(res.status, JSON.stringify(query)).toBeLessThan(500);
    }
    const res = await translations({ per_page: "99999999999999999999" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).response).toHaveLength(100);
    const past = await translations({ per_page: "99999999999999999999", page: String(lastServedPage(100) + 1) });
    expect(past.status).toBe(400);
  });
});

describe("every paged list takes the same ceiling", () => {
  // One request per paged list (each handler's call to `paging`): the first page is served and the page after the
  // deepest one is refused naming `page`. Subtitle versions, compare and reports, webhooks and their deliveries call
  // the same `paging` and are tested with their fixtures in their own files.
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let official: string;
  let container: string;
  let v3: string;
  beforeAll(async () => {
    v3 = await v3Token();
    user = await signedInUser();
    official = (await createApplication({ official: true })).wireId;
    container = (await createContainer({ title: "Paged" })).wireId;
  });

  const lists = () =>
    [
      ["/v4/containers.json", {}],
      ["/v4/series.json", {}],
      [`/v4/containers/${container}/videos.json`, {}],
      [`/v4/container/${container}/contributions.json`, {}],
      [`/v4/users/${user.id}/contributions.json`, {}],
      ["/v4/lists/2l.json", {}],
      ["/v4/translations.json", { app }],
      [`/v4/users/${user.id}/subscriptions.json`, { app: official, token: user.token }],
      [`/v4/users/${user.id}/markers.json`, { token: user.token }],
      [`/v4/users/${user.id}/threads.json`, { token: user.token }],
      [`/v4/users/${user.id}/notifications.json`, { token: user.token }],
      ["/api/v3/movies.json", { v3: true }],
    ] as const;

  it("serves page 1 and refuses the page past the ceiling on each", async () => {
    for (const [path, { v3: isV3, ...opts }] of lists().map(([p, o]) => [p, { v3: false, ...o }] as const)) {
      const credential: Record<string, string> = isV3 ? { access_token: v3 } : {};
      const first = await api(path, { ...opts, query: { with_paging: "true", ...credential } });
      expect(first.status, path).toBe(200);
      const past = await api(path, { ...opts, query: { page: String(lastServedPage(25) + 1), ...credential } });
      expect(past.status, path).toBe(400);
      if (!path.startsWith("/api/v3")) expect((await errorBody(past)).details?.[0]?.field, path).toBe("page");
    }
  });

  it("reads page and per_page from a JSON body the same way (subtitle histories)", async () => {
    const path = `/v4/users/${user.id}/subtitle_histories.json`;
    const ok = await api(path, { method: "POST", app: official, token: user.token, json: { page: lastServedPage(100), per_page: 100 } });
    expect(ok.status).toBe(200);
    const past = await api(path, {
      method: "POST",
      app: official,
      token: user.token,
      json: { page: lastServedPage(100) + 1, per_page: 100 },
    });
    expect(past.status).toBe(400);
    expect((await errorBody(past)).details?.[0]?.field).toBe("page");
  });
});
