// Rows-read budgets (docs/spec/limits.md, "Rows-read budgets") on a seeded catalogue of 10,000 containers and 100,000+ videos: a page of
// 25 containers reads at most 200 rows whatever the filter and sort, a bulk ids= read at most 10 rows per id,
// a container's episodes page at most 200, one container at most 2. D1 bills per row read, so these are the
// cost of the hot catalogue reads; the figures are copied into docs/performance.md.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINER_SORTS } from "../../src/domain/container-sorts";
import { LISTING_FILTERS } from "../../src/domain/facets";
import { api, rowsRead } from "../helpers";
import { seedLargeCatalogue, someListedContainers, type LargeCatalogueCounts } from "../helpers/large-catalogue";
import { v3Token } from "../helpers/v3";

const PAGE_BUDGET = 200;
const BULK_IDS = 25;
const BULK_BUDGET = 10 * BULK_IDS;
const EPISODES_BUDGET = 200;
const ONE_CONTAINER_BUDGET = 2;

// Every facet filter the listing offers, with the example its declaration gives.
const FILTERS: Record<string, string> = {
  none: "",
  type: "type=series",
  ...Object.fromEntries(Object.entries(LISTING_FILTERS).map(([name, f]) => [name, `${name}=${f.example}`])),
};
// Every sort the listing offers, plus number in its other direction.
const SORTS = [...CONTAINER_SORTS, "number&direction=asc"];
const PAGES = [1, 4, 6];

let counts: LargeCatalogueCounts;
let oneContainer: number;
let bulkIds: number[];
let longSeries: { id: number; episodes: number };
/** Measured rows read, printed at the end for docs/performance.md. */
const measured: Array<{ what: string; rows: number; budget: number; status: number }> = [];

async function measure(what: string, path: string, budget: number) {
  const res = await api(path);
  const rows = res.headers.get("server-timing") ? rowsRead(res) : Number.NaN;
  measured.push({ what, rows, budget, status: res.status });
  return { res, rows };
}

beforeAll(async () => {
  const seeded = await seedLargeCatalogue(10_000);
  counts = seeded.counts;
  console.log(
    `large catalogue seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(counts)}\n` +
      seeded.timings.map((t) => `  ${t.step}: ${t.ms} ms`).join("\n"),
  );
  [oneContainer] = await someListedContainers(1);
  bulkIds = await someListedContainers(BULK_IDS);
  const row = await env.DB.prepare(
    `SELECT container_id AS id, count(*) AS episodes FROM videos
     WHERE container_id > 1000000 AND type = 'episode' AND state = 'normal'
       AND container_id IN (SELECT id FROM containers WHERE state = 'normal' AND type = 'series')
     GROUP BY container_id ORDER BY episodes DESC LIMIT 1`,
  ).first<{ id: number; episodes: number }>();
  longSeries = row!;
}, 300_000);

afterAll(() => {
  const lines = measured.map((m) => `| ${m.what} | ${m.status} | ${Number.isNaN(m.rows) ? "-" : m.rows} | ${m.budget} |`);
  console.log(["| read | status | rows read | budget |", "|---|---|---|---|", ...lines].join("\n"));
});

describe("the seeded catalogue", () => {
  it("has at least 10,000 containers and 100,000 videos", () => {
    expect(counts.containers).toBeGreaterThanOrEqual(10_000);
    expect(counts.videos).toBeGreaterThanOrEqual(100_000);
    expect(counts.container_facets).toBeGreaterThan(counts.containers);
  });
});

describe("GET /v4/containers/<id>.json", () => {
  it(`reads at most ${ONE_CONTAINER_BUDGET} rows`, async () => {
    const { res, rows } = await measure("one container", `/v4/containers/${oneContainer}c.json`, ONE_CONTAINER_BUDGET);
    expect(res.status).toBe(200);
    expect(rows).toBeLessThanOrEqual(ONE_CONTAINER_BUDGET);
  });
});

describe("GET /v4/containers.json: a page of 25", () => {
  for (const [filter, query] of Object.entries(FILTERS)) {
    for (const sort of SORTS) {
      for (const page of PAGES) {
        const path = `/v4/containers.json?${query ? `${query}&` : ""}sort=${sort}&page=${page}&per_page=25`;
        it(`filter ${filter}, sort ${sort}, page ${page}: at most ${PAGE_BUDGET} rows`, async () => {
          const { res, rows } = await measure(`list, filter ${filter}, sort ${sort}, page ${page}`, path, PAGE_BUDGET);
          expect(res.status, path).toBe(200);
          const body = (await res.json()) as { response: unknown[]; more: boolean };
          expect(body.response, path).toHaveLength(25);
          expect(rows, path).toBeLessThanOrEqual(PAGE_BUDGET);
        });
      }
    }
  }
});

describe("GET /v4/containers.json?ids=", () => {
  it(`${BULK_IDS} ids read at most ${BULK_BUDGET} rows`, async () => {
    const ids = bulkIds.map((id) => `${id}c`).join(",");
    const { res, rows } = await measure(`bulk ids= of ${BULK_IDS}`, `/v4/containers.json?ids=${ids}`, BULK_BUDGET);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response: Array<{ id: string }> };
    expect(body.response.map((c) => c.id)).toEqual(bulkIds.map((id) => `${id}c`));
    expect(rows).toBeLessThanOrEqual(BULK_BUDGET);
  });
});

describe("GET /v4/containers/<id>/episodes.json", () => {
  it("has a long series to page through", () => {
    expect(longSeries.episodes).toBeGreaterThan(50);
  });

  for (const page of [1, 2]) {
    it(`page ${page} of the longest series reads at most ${EPISODES_BUDGET} rows`, async () => {
      const path = `/v4/containers/${longSeries.id}c/episodes.json?page=${page}&per_page=25`;
      const { res, rows } = await measure(`episodes, page ${page}`, path, EPISODES_BUDGET);
      expect(res.status, path).toBe(200);
      const body = (await res.json()) as { response: unknown[] };
      expect(body.response).toHaveLength(25);
      expect(rows, path).toBeLessThanOrEqual(EPISODES_BUDGET);
    });
  }
});

const SEARCH_BUDGET = 500;

describe("GET /api/v3/search.json (full-text over every title)", () => {
  for (const query of ["moonlight", "golden garden", "sil", "moonlight&watchable_in=us&platform=web"]) {
    it(`"${query}" reads at most ${SEARCH_BUDGET} rows`, async () => {
      const token = await v3Token();
      const [words, ...filters] = query.split("&");
      const path = `/api/v3/search.json?${["query=" + encodeURIComponent(words), ...filters].join("&")}&access_token=${token}`;
      const { res, rows } = await measure(`v3 search "${query}"`, path, SEARCH_BUDGET);
      expect(res.status, path).toBe(200);
      const body = (await res.json()) as { response: unknown[] };
      expect(body.response.length).toBeGreaterThan(0);
      expect(rows, path).toBeLessThanOrEqual(SEARCH_BUDGET);
    });
  }
});
