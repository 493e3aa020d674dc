import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { syncShardFacts } from "../../src/services/shard-facts";
import { api, createApplication, db, errorBody, rowsRead } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createSubtitles } from "../helpers/localisation";
import { shardDbs } from "../helpers/shards";

/** GET /v4/tranlslations.json with no filter: every translation, newest first (migration 0015's index). */
type Fixture = Awaited<ReturnType<typeof createSubtitles>>;
type Item = {
  id: string;
  video_id: string;
  language: string;
  text: string;
  original: { id: string; language: string; text: string } | null;
};
type Page = { more: boolean; response: Item[]; count?: number };

const SPELLINGS = ["tranlslations", "translations"] as const;
let app: string;

beforeAll(async () => {
  app = (await createApplication()).wireId;
});

/**
 * Translations of visible videos by the definition (language other than the origin), read straight from every shard's
 * tables and the catalogue's origins and states.
 */
async function definitionCount() {
  const { results: videos } = await env.DB.prepare(
    `SELECT v.id AS id, coalesce(nullif(v.origin_language, ''), c.origin_language) AS origin FROM videos v
     JOIN containers c ON c.id = v.container_id WHERE v.state = 'normal' AND c.state = 'normal'`,
  ).all<{ id: number; origin: string }>();
  const origins = new Map(videos.map((v) => [v.id, v.origin]));
  let n = 0;
  for (const shard of shardDbs()) {
    const rows = await shard.all<{ video_id: number; language: string }>(sql`SELECT video_id, language FROM subtitles`);
    n += rows.filter((r) => origins.has(r.video_id) && r.language !== origins.get(r.video_id)).length;
  }
  return n;
}

/** A change made straight in the catalogue reaches the shards' facts through the outbox (a request syncs its own). */
const syncFacts = () => syncShardFacts({ db: db(), env });

describe("translations: every translation, newest first (app= only)", () => {
  let film: { id: number; wireId: string };
  let older: { id: number; wireId: string };
  let newer: { id: number; wireId: string };
  let a: Fixture;
  let b: Fixture;

  beforeAll(async () => {
    film = await createContainer({ originLanguage: "ja" });
    older = await createVideo(film.id, { number: 1 });
    a = await createSubtitles(older.id, 3, { ja: 3, en: 3 });
    const blocked = await createVideo(film.id, { number: 2, state: "blocked" });
    await createSubtitles(blocked.id, 1, { ja: 1, en: 1 });
    newer = await createVideo(film.id, { number: 3 });
    b = await createSubtitles(newer.id, 2, { ja: 2, fr: 2 });
  });

  it("lists translations by id, newest first, under both spellings, leaving out originals and hidden videos", async () => {
    for (const spelling of SPELLINGS) {
      const res = await api(`/v4/${spelling}.json`, { app: app, query: { per_page: "4" } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Page;
      expect(body.more).toBe(true);
      expect(body.response.map((t) => t.id)).toEqual([b.at("fr", 1), b.at("fr", 0), a.at("en", 2), a.at("en", 1)].map((x) => x.wireId));
      expect(body.response[0]).toMatchObject({
        video_id: newer.wireId,
        language: "fr",
        text: "fr 1",
        original: { id: b.at("ja", 1).wireId, language: "ja", text: "ja 1" },
      });
    }
    const page2 = (await (
      await api("/v4/translations.json", { app: app, query: { per_page: "4", page: "2", with_paging: "true" } })
    ).json()) as Page;
    expect(page2).toMatchObject({ more: false, count: 5 });
    expect(page2.response.map((t) => t.id)).toEqual([a.at("en", 0).wireId]);
    expect(await definitionCount()).toBe(5);
    const ids = (await (await api("/v4/translations.json", { app: app, query: { per_page: "2", only_ids: "true" } })).json()) as {
      response: string[];
    };
    expect(ids.response).toEqual([b.at("fr", 1).wireId, b.at("fr", 0).wireId]);
  });

  it("follows origin changes of a video and of its container", async () => {
    // The newer video becomes French: its French lines are originals, its Japanese ones translations.
    await env.DB.prepare("UPDATE videos SET origin_language = 'fr' WHERE id = ?").bind(newer.id).run();
    await syncFacts();
    let top = (await (await api("/v4/translations.json", { app: app, query: { per_page: "3" } })).json()) as Page;
    expect(top.response.map((t) => t.id)).toEqual([b.at("ja", 1), b.at("ja", 0), a.at("en", 2)].map((x) => x.wireId));
    expect(top.response[0].original).toMatchObject({ id: b.at("fr", 1).wireId, language: "fr" });
    // The container becomes English: the older video (no origin of its own) follows; the newer keeps French.
    await env.DB.prepare("UPDATE containers SET origin_language = 'en' WHERE id = ?").bind(film.id).run();
    await syncFacts();
    top = (await (await api("/v4/translations.json", { app: app, query: { per_page: "5" } })).json()) as Page;
    expect(top.response.map((t) => t.id)).toEqual(
      [b.at("ja", 1), b.at("ja", 0), a.at("ja", 2), a.at("ja", 1), a.at("ja", 0)].map((x) => x.wireId),
    );
    const counted = (await (await api("/v4/translations.json", { app: app, query: { with_paging: "true" } })).json()) as Page;
    expect(counted.count).toBe(await definitionCount());
    // A subtitle added afterwards is judged by the origin of the moment.
    const more = await createSubtitles((await createVideo(film.id, { number: 6 })).id, 1, { en: 1, de: 1 });
    top = (await (await api("/v4/translations.json", { app: app, query: { per_page: "1" } })).json()) as Page;
    expect(top.response.map((t) => t.id)).toEqual([more.at("de", 0).wireId]);
  });

  it("keeps the other filter rules with the new names (400 naming the field)", async () => {
    for (const [query, field] of [
      [`&video_id=${older.wireId}&container_id=${film.wireId}`, "container_id"],
      ["&from=ja", "to"],
      ["&target_language=ja&origin_language=ja", "target_language"],
      ["&target_language=e", "target_language"],
      ["&video_id=1c", "video_id"],
    ]) {
      const res = await api(`/v4/translations.json?${query}`, { app });
      expect(res.status, query).toBe(400);
      expect(
        (await errorBody(res)).details?.map((d) => d.field),
        query,
      ).toContain(field);
    }
  });

  it("reads about a page of rows, however many originals are newer", async () => {
    const big = await createVideo(film.id, { number: 4, originLanguage: "ja" });
    await createSubtitles(big.id, 60, { ja: 60, en: 60 });
    // A newer import of originals only: a walk over all subtitles would pass all 600 before a translation.
    const fresh = await createVideo(film.id, { number: 5, originLanguage: "ja" });
    await createSubtitles(fresh.id, 600, { ja: 600 });
    for (const query of ["", "&page=2"]) {
      const res = await api(`/v4/translations.json?${query}`, { app });
      const body = (await res.json()) as Page;
      expect(body.response, query).toHaveLength(25);
      expect(
        body.response.every((t) => t.video_id === big.wireId && t.language === "en"),
        query,
      ).toBe(true);
      console.log(`translations newest first${query}: ${rowsRead(res)} rows read`);
      // About 8 rows per item (index entry, video, container, subtitle, segment, original, votes); page 2 also
      // reads the 25 entries it skips, with their videos and containers.
      expect(rowsRead(res), query).toBeLessThanOrEqual(query ? 230 + 75 : 230);
    }
  });
});
