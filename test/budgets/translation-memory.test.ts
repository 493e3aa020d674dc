// Rows read by a translation memory lookup (docs/performance.md, "Translation memory lookup"): each statement (one
// text, one scope, one shard) reads at most TM_BUDGET_PER_TEXT rows, whatever the text, because its index walk stops
// after TM_CANDIDATES lines. The lines here all pass the pigeonhole filter of the texts asked (3,000 on one shard), so
// a walk that did not stop would read thousands. The last test prints the figures docs/performance.md quotes.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { emptyStats, instrument } from "../../src/db/client";
import { runUnitStatements, unitsStatement } from "../../src/db/queries/translation-memory";
import { createShardDb, shardBinding } from "../../src/db/shards";
import { candidateGroups, tmTokens } from "../../src/domain/translation-memory";
import { TM_CANDIDATES, TM_MAX_TEXTS, unitMatch } from "../../src/services/translation-memory";
import { api, createApplication, rowsRead } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { insertSegments, insertTexts } from "../helpers/subtitles";
import { shardOf } from "../helpers/shards";

/**
 * Rows one statement may read: TM_CANDIDATES candidates, each its index entry, its subtitle, its segment, two facts
 * rows and its translation (6), and with a context four more (two segments, two subtitles), plus the index's own
 * pages. Measured 60 × 6 = 360 + the index and 60 × 10 = 600 + the index below; the bound leaves room for the index.
 */
const TM_BUDGET_PER_TEXT = 700;
const LINES = 3000;

let shard: number;
let containerId: number;
let official: string;

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  const container = await createContainer({ title: "Budget series", originLanguage: "ko" });
  containerId = container.id;
  ({ shard } = await shardOf(container.id));
  for (let v = 0; v < 3; v++) {
    const video = await createVideo(container.id, { number: v + 1 });
    const segs = await insertSegments(
      video.id,
      Array.from({ length: LINES / 3 }, (_, i): [number, number] => [1000 + i * 2000, 2500 + i * 2000]),
    );
    await insertTexts(
      video.id,
      segs.map((s, i) => ({ segmentId: s.id, language: "ko", text: `지난 이야기에서 우리는 ${i % 7} 사랑해요 ${i}` })),
    );
    await insertTexts(
      video.id,
      segs.map((s, i) => ({ segmentId: s.id, language: "en", text: `Last time we ${i % 7} love you ${i}` })),
    );
  }
}, 120_000);

/** The rows a shard reads for one text's statement, in the series' scope or the catalogue's, with or without context. */
async function rowsFor(text: string, opts: { series?: boolean; context?: boolean } = {}) {
  const stats = emptyStats();
  const db = createShardDb(instrument(shardBinding(env, shard), stats));
  const statement = unitsStatement({
    match: unitMatch(candidateGroups(tmTokens(text)), "ko", opts.series ? { only: containerId } : undefined),
    candidates: TM_CANDIDATES,
    sourceLanguage: "ko",
    targetLanguage: "en",
    context: opts.context ?? false,
    leftOut: [],
  });
  const [rows] = await runUnitStatements(db, [statement]);
  return { units: rows.length, read: stats.rowsRead };
}

/** `n` distinct Hangul syllables none of the lines here holds. */
const distinct = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0xac00 + 1 + i * 7)).join("");

describe("rows read per text per shard", () => {
  const kinds: Array<[string, string, { series?: boolean; context?: boolean }]> = [
    ["a line every unit nearly is", "지난 이야기에서 우리는 3 사랑해요", {}],
    ["one common character", "사", {}],
    ["the longest text, one character repeated", "사".repeat(500), {}],
    ["the longest text, every token distinct", distinct(500), {}],
    [
      "the longest text, every token distinct, 14 of them the lines' syllables (no group whole in a line)",
      `지난이야기에서우리는사랑해요${distinct(486)}`,
      {},
    ],
    ["in the series' scope", "지난 이야기에서 우리는 3 사랑해요", { series: true }],
    ["with context", "지난 이야기에서 우리는 3 사랑해요", { context: true }],
    ["nothing matches", "전혀 없는 말", {}],
  ];
  for (const [what, text, opts] of kinds) {
    it(what, async () => {
      const { units, read } = await rowsFor(text, opts);
      console.log(`translation-memory statement, ${what}: ${units} units, ${read} rows read`);
      expect(units).toBeLessThanOrEqual(TM_CANDIDATES);
      expect(read, `${what}: ${units} units`).toBeLessThanOrEqual(TM_BUDGET_PER_TEXT);
    });
  }

  it("50 texts of 500 distinct characters, 126 groups each, the lines' syllables among them: answered, bounded", async () => {
    const texts = Array.from({ length: TM_MAX_TEXTS }, (_, i) => `지난이야기에서우리는사랑해요${distinct(486 - i)}`);
    const json = { source_language: "ko", target_language: "en", texts, container_id: `${containerId}c` };
    const started = Date.now();
    const res = await api("/v4/translation_memory/lookup.json", { method: "POST", json, app: official });
    const ms = Date.now() - started;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: Array<{ matches: unknown[] }> };
    expect(body.results.map((r) => r.matches.length)).toEqual(texts.map(() => 0));
    expect(rowsRead(res)).toBeLessThanOrEqual(3 * TM_MAX_TEXTS * TM_BUDGET_PER_TEXT + 100);
    console.log(`translation-memory lookup: ${TM_MAX_TEXTS} texts of 500 distinct characters: ${ms} ms, ${rowsRead(res)} rows read`);
  }, 60_000);

  it("the route with 50 texts and their context: one batch a shard, at most the budget per text per statement", async () => {
    const texts = Array.from({ length: TM_MAX_TEXTS }, (_, i) => `지난 이야기에서 우리는 ${i % 7} 사랑해요 ${i}`);
    const json = {
      source_language: "ko",
      target_language: "en",
      texts,
      container_id: `${containerId}c`,
      context: texts.map(() => ({ previous: "지난 이야기", next: "사랑해요" })),
    };
    // The first call warms the isolate (module load, the shards opened); the figure is the median of the next five.
    await api("/v4/translation_memory/lookup.json", { method: "POST", json, app: official });
    const times: number[] = [];
    let read = 0;
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const res = await api("/v4/translation_memory/lookup.json", { method: "POST", json, app: official });
      times.push(Date.now() - started);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: Array<{ matches: unknown[] }> };
      expect(body.results.every((r) => r.matches.length === 5)).toBe(true);
      read = rowsRead(res);
    }
    // Each shard runs the catalogue's statement of every text (the series left out), the series' shard the series' too.
    const statements = 3 * TM_MAX_TEXTS;
    expect(read).toBeLessThanOrEqual(statements * TM_BUDGET_PER_TEXT + 100);
    const median = [...times].sort((a, b) => a - b)[2];
    console.log(
      `translation-memory lookup: ${TM_MAX_TEXTS} texts with context, ${LINES} candidate lines on the series' shard: ` +
        `median ${median} ms (of ${times.join(", ")}), ${read} rows read (${Math.round(read / TM_MAX_TEXTS)} a text)`,
    );
  }, 60_000);
});
