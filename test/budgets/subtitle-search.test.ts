// Rows read by a subtitle search (docs/performance.md, "Subtitle search: rows read"): each shard asked reads at most
// SUBTITLE_SEARCH_ROW_BUDGET rows for a first page, whatever the query, because its index walk stops after
// SUBTITLE_SEARCH_CANDIDATES matches. The lines here match far more than that on one shard (a common word, one common
// character), so a walk that did not stop would read thousands.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { emptyStats, instrument } from "../../src/db/client";
import { subtitleMatchesQuery } from "../../src/db/queries/subtitle-search";
import { createShardDb, shardBinding } from "../../src/db/shards";
import { parseQuery } from "../../src/domain/search-text";
import { SUBTITLE_SEARCH_CANDIDATES, SUBTITLE_SEARCH_ROW_BUDGET, scopedMatch } from "../../src/services/subtitle-search";
import { api } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { insertTrack } from "../helpers/subtitles";
import { shardOf } from "../helpers/shards";

const LINES = 3000;

let shard: number;
let containerId: number;

beforeAll(async () => {
  const container = await createContainer({ title: "Budget series" });
  containerId = container.id;
  ({ shard } = await shardOf(container.id));
  for (let v = 0; v < 3; v++) {
    const video = await createVideo(container.id, { number: v + 1 });
    const cues = Array.from({ length: LINES / 3 }, (_, i): [number, number, string] => [
      1000 + i * 2000,
      2500 + i * 2000,
      i % 2 ? `the cat and the dog ${i} 猫 사랑해요` : `the weather of the day ${i} 東京の猫`,
    ]);
    await insertTrack(video.id, i18n(v), cues);
  }
}, 60_000);

/** One video in each of three languages. */
const i18n = (v: number) => ["en", "ko", "ja"][v];

/** The rows a shard reads for the service's query of `q`, narrowed as the request says. */
async function rowsRead(q: string, narrow: { language?: string; containerId?: number } = {}, viewerLanguage?: string) {
  const parsed = parseQuery(q);
  if ("error" in parsed) throw new Error(parsed.error);
  const match = scopedMatch(parsed, { q, ...narrow, familyFriendly: false });
  const stats = emptyStats();
  const db = createShardDb(instrument(shardBinding(env, shard), stats));
  const rows = await subtitleMatchesQuery(db, { match, candidates: SUBTITLE_SEARCH_CANDIDATES, viewerLanguage, leftOut: [] });
  return { rows: rows.length, read: stats.rowsRead };
}

describe("rows read per shard for a first page", () => {
  const kinds: Array<[string, string, { language?: string; inContainer?: true }, string?]> = [
    ["the commonest English word", "the", {}],
    ["two common words", "the cat", {}],
    ["a prefix", "the wea", {}],
    ["one common Han character", "猫", {}],
    ["a Korean word inside eojeol", "사랑", {}],
    ["a three-character run", "東京の", {}],
    ["nothing matches", "zzzqqq", {}],
    ["a common word in one language", "the", { language: "en" }],
    ["a common character in one container", "猫", { inContainer: true }],
    ["with the viewer's line", "猫", {}, "en"],
  ];
  for (const [what, q, narrow, viewer] of kinds) {
    it(`${what} (${q})`, async () => {
      const { rows, read } = await rowsRead(
        q,
        { language: narrow.language, containerId: narrow.inContainer ? containerId : undefined },
        viewer,
      );
      expect(rows).toBeLessThanOrEqual(SUBTITLE_SEARCH_CANDIDATES);
      expect(read, `${what}: ${rows} lines`).toBeLessThanOrEqual(SUBTITLE_SEARCH_ROW_BUDGET);
    });
  }

  it("the route in all: at most the budget per shard plus the catalogue's reads", async () => {
    const res = await api({ path: "/v4/search/subtitles.json", query: { q: "the", k: "budget" } });
    expect(res.status).toBe(200);
    const read = Number(/d1-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
    // Two shards, the shard map (a row per shard) and two rows per video of the hits.
    expect(read).toBeLessThanOrEqual(2 * SUBTITLE_SEARCH_ROW_BUDGET + 200);
  });
});
