// Rows-read budget of v4 search (docs/spec/limits.md, "Rows-read budgets": a search reads at most 500 rows) on the
// large synthetic catalogue (test/helpers/large-catalogue.ts), where common words match thousands of titles: the
// candidate limits (src/services/search.ts) are what holds the cost, whatever the term, filter or form. The figures
// are printed at the end for docs/performance.md, "Search".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, rowsRead } from "../helpers";
import { seedLargeCatalogue } from "../helpers/large-catalogue";

const SEARCH_BUDGET = 500;
/**
 * The seed's size: 2,000 containers (about 25,000 videos, 28,000 titles) keep the file under 20 seconds, where the
 * 10,000 of test/budgets/reads.test.ts take a minute. The cost does not grow with the catalogue once a term matches
 * more than the candidate limits, and the common words and one-letter prefixes below do (`c=s` reads the most a
 * search can: both limits full, a movie probe per film). docs/performance.md, "Search", has the figures at 10,000.
 */
const CONTAINERS = 2_000;

// Demo-like terms over the seed's title vocabulary (scripts/large-catalogue-sql.mjs): common words, two words, a word
// in another script, the autocomplete form down to one letter, and every filter.
const QUERIES = [
  "term=moonlight",
  "term=golden%20garden",
  "term=episode",
  "term=official%20trailer",
  "term=%EB%8B%AC%EB%B9%9B", // 달빛
  "term=moonlight&language=ko",
  "term=moonlight&type=series,episode",
  "term=official&type=trailer",
  "term=moonlight&family_friendly=1&watchable_in=kr",
  "term=moonlight&with_paging=true&per_page=10&page=3",
  "term=moonlight&only_ids=true",
  "c=s",
  "c=sil",
  "c=moonlight%20b",
  "c=e&type=film",
];

const measured: Array<{ query: string; rows: number; items: number; ms: number }> = [];

beforeAll(async () => {
  const seeded = await seedLargeCatalogue(CONTAINERS);
  console.log(
    `large catalogue seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}\n` +
      seeded.timings.map((t) => `  ${t.step}: ${t.ms} ms`).join("\n"),
  );
}, 120_000);

afterAll(() => {
  const lines = measured.map((m) => `| \`${decodeURIComponent(m.query)}\` | ${m.rows} | ${m.items} | ${m.ms} |`);
  console.log(["| query | rows read | items | ms |", "|---|---|---|---|", ...lines].join("\n"));
});

describe(`GET /v4/search.json on the large catalogue: at most ${SEARCH_BUDGET} rows`, () => {
  for (const query of QUERIES) {
    it(query, async () => {
      const started = performance.now();
      const res = await api(`/v4/search.json?${query}`);
      const ms = Math.round(performance.now() - started);
      expect(res.status, query).toBe(200);
      const body = (await res.json()) as { response: unknown[] };
      measured.push({ query, rows: rowsRead(res), items: body.response.length, ms });
      expect(body.response.length, query).toBeGreaterThan(0);
      expect(rowsRead(res), query).toBeLessThanOrEqual(SEARCH_BUDGET);
    });
  }
});
