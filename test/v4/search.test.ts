import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { containers, titles } from "../../src/db/schema";
import { api, db, rowsRead } from "../helpers";
import { catalogueChanged, createContainer, createVideo } from "../helpers/catalogue";

// GET /v4/search.json (docs/api.md, "Search (v4)"): relevance, the short form, paging, the edge cache. Filters, hidden
// content and bad input are in search-filters.test.ts.
type Item = {
  id: string;
  type?: string;
  titles?: Record<string, string>;
  t?: string;
  tt?: string;
  u?: { w: string; a: string };
  i?: string | null;
};
type Body = { more: boolean; response: Item[] | string[]; count?: number; pagination?: { previous: string | null; next: string | null } };

const ids: Record<string, string> = {};

async function search(query: string, init: Parameters<typeof api>[1] = {}) {
  const res = await api(`/v4/search.json?${query}`, init);
  expect(res.status, `${query}: ${res.status === 200 ? "" : await res.clone().text()}`).toBe(200);
  return { res, body: (await res.json()) as Body };
}
/** The resource ids an index row matches, read straight from the index. */
const indexed = async (table: string, match: string) =>
  (await env.DB.prepare(`SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ?1`).bind(match).all<{ id: number }>()).results.map(
    (r) => r.id,
  );
const eqTitle = (id: number) => and(eq(titles.resourceKind, "c"), eq(titles.resourceId, id), eq(titles.language, "en"));
const idsOf = (body: Body) => (body.response as Item[]).map((i) => (typeof i === "string" ? i : i.id));
const cached = (res: Response) => /cache;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1];
const trips = (res: Response) => Number(/d1-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

beforeAll(async () => {
  const c = async (name: string, title: string, opts: Parameters<typeof createContainer>[0] = {}) =>
    (ids[name] = (await createContainer({ title, ...opts })).wireId);
  const style = await createContainer({ title: "Gangnam Style", views: 100 });
  ids.gangnamStyle = style.wireId;
  await c("gangnamBeauty", "Gangnam Beauty", { views: 300, titles: { ko: "강남미인" } });
  const flower = await createContainer({ type: "film", title: "Flower of Gangnam", views: 5000, posterUrl: "https://img.test/flower.jpg" });
  ids.flower = flower.wireId;
  ids.flowerMovie = (await createVideo(flower.id, { type: "movie", title: "Flower of Gangnam", views: 10 })).wireId;
  await c("moonlight", "Moonlight", { type: "film", views: 1 });
  await c("moonlightBakery", "Moonlight Bakery", { views: 50, titles: { ko: "달빛 베이커리" } });
  const rain = await createContainer({ title: "Love Rain", views: 10 });
  ids.loveRain = rain.wireId;
  ids.rainEpisode = (await createVideo(rain.id, { number: 1, title: "Episode 1" })).wireId;
  ids.rainTrailer = (await createVideo(rain.id, { type: "trailer", title: "Love Rain Official Trailer", views: 4 })).wireId;
  ids.styleClip = (await createVideo(style.id, { type: "clip", title: "Gangnam Style Behind the Scenes" })).wireId;
  await c("amelie", "Amélie's Garden", { type: "film", views: 3 });
  await c("palace", "Palace", { views: 1000 });
  await c("palaceStory", "Royal Palace Story", { views: 10, titles: { fr: "Palace" } });
  const tv = await createContainer({ title: "Sunday Variety", views: 20 });
  ids.sundayVariety = tv.wireId;
  // A video title in two languages: matched by either.
  const special = await createVideo(tv.id, { type: "clip", title: "Holiday Special" });
  ids.holidaySpecial = special.wireId;
  await db().insert(titles).values({ resourceKind: "v", resourceId: special.id, language: "es", text: "Especial de Vacaciones" });
  await catalogueChanged();
});

describe("relevance", () => {
  // A term and what ranks first, on the data above: exact title, then a title starting with the term, then every word
  // in a title, then views; containers before videos on a tie; case and accents ignored.
  const TABLE: Array<[string, string]> = [
    ["gangnam style", "gangnamStyle"],
    ["gangnam", "gangnamBeauty"], // starts with it, most views among those (Flower of Gangnam has more, but only contains it)
    ["flower of gangnam", "flower"], // the film and its movie are both exact: the container first
    ["moonlight", "moonlight"], // the exact title beats the more popular Moonlight Bakery
    ["bakery", "moonlightBakery"],
    ["달빛", "moonlightBakery"], // its Korean title
    ["강남미인", "gangnamBeauty"],
    ["LOVE RAIN", "loveRain"],
    ["love rain trailer", "rainTrailer"], // a video, by its own title
    ["amelie", "amelie"], // accents ignored
    ["AMÉLIE'S", "amelie"],
    ["behind the scenes", "styleClip"],
    ["vacaciones", "holidaySpecial"], // a video's Spanish title
    ["palace", "palace"], // exact in English and in French: views decide without `language`
  ];
  for (const [term, first] of TABLE) {
    it(`"${term}" answers ${first} first`, async () => {
      const { body } = await search(`term=${encodeURIComponent(term)}`);
      expect(idsOf(body)[0], JSON.stringify(idsOf(body))).toBe(ids[first]);
    });
  }

  it("orders every match: tier, then views, containers before videos, then id", async () => {
    const { body } = await search("term=gangnam");
    expect(idsOf(body)).toEqual([ids.gangnamBeauty, ids.gangnamStyle, ids.styleClip, ids.flower, ids.flowerMovie]);
  });

  it("puts titles in the viewer's language first, and the short form shows that title", async () => {
    expect(idsOf((await search("term=palace&language=fr")).body).slice(0, 2)).toEqual([ids.palaceStory, ids.palace]);
    expect(idsOf((await search("term=palace&language=en")).body).slice(0, 2)).toEqual([ids.palace, ids.palaceStory]);
    const short = (await search("c=pala&language=fr")).body.response as Item[];
    expect(short[0]).toMatchObject({ id: ids.palaceStory, tt: "Palace" });
    const korean = (await search("c=gangnam%20b&language=ko")).body.response as Item[];
    expect(korean[0]).toMatchObject({ id: ids.gangnamBeauty, tt: "강남미인" });
  });

  it("matches whole words in the full form: a word's beginning alone finds nothing", async () => {
    expect((await search("term=gangn")).body.response).toEqual([]);
    expect((await search("q=gangnam%20style")).body.response[0]).toMatchObject({ id: ids.gangnamStyle });
  });

  it("answers full container and video objects", async () => {
    const { body } = await search("term=love%20rain");
    const [container, trailer] = body.response as Item[];
    expect(container).toMatchObject({ id: ids.loveRain, type: "series", titles: { en: "Love Rain" } });
    expect(trailer).toMatchObject({ id: ids.rainTrailer, type: "trailer", container: { id: ids.loveRain } });
  });

  it("keeps the index in step with title writes: renamed, removed and deleted titles", async () => {
    const kept = await createContainer({ title: "Quokka Diaries" });
    expect(idsOf((await search("term=quokka")).body)).toEqual([kept.wireId]);
    await db().update(titles).set({ text: "Wombat Diaries" }).where(eqTitle(kept.id));
    await catalogueChanged();
    expect((await search("term=quokka")).body.response).toEqual([]);
    expect(idsOf((await search("term=wombat")).body)).toEqual([kept.wireId]);
    await db().delete(titles).where(eqTitle(kept.id));
    await catalogueChanged();
    expect((await search("term=wombat")).body.response).toEqual([]);
    expect(await indexed("search_containers_fts", "wombat")).toEqual([]);
  });

  it("drops a deleted container's and its videos' rows from the index (the cleanup triggers delete their titles)", async () => {
    const gone = await createContainer({ title: "Axolotl Tales", titles: { es: "Cuentos de Ajolote" } });
    const episode = await createVideo(gone.id, { number: 1, title: "Axolotl Tales 1" });
    expect(await indexed("search_containers_fts", "axolotl")).toEqual([gone.id]);
    expect(await indexed("search_videos_fts", "axolotl")).toEqual([episode.id]);
    await db().delete(containers).where(eq(containers.id, gone.id));
    expect(await indexed("search_containers_fts", "axolotl OR ajolote")).toEqual([]);
    expect(await indexed("search_videos_fts", "axolotl")).toEqual([]);
  });
});

describe("the short form (c=)", () => {
  it("answers the interface's suggestion items; the last word is a prefix; a film links to its movie", async () => {
    const { body } = await search("c=flower%20of%20gan");
    expect(body.response[0]).toEqual({
      id: ids.flower,
      t: "film",
      tt: "Flower of Gangnam",
      u: { w: `/videos/${ids.flowerMovie}`, a: `/v4/videos/${ids.flowerMovie}.json` },
      i: "https://img.test/flower.jpg",
    });
    const series = (await search("c=gangnam%20st")).body.response as Item[];
    expect(series[0]).toEqual({
      id: ids.gangnamStyle,
      t: "series",
      tt: "Gangnam Style",
      u: { w: `/series/${ids.gangnamStyle}`, a: `/v4/series/${ids.gangnamStyle}.json` },
      i: null,
    });
    expect(series[1]).toMatchObject({ id: ids.styleClip, t: "clip", u: { w: `/videos/${ids.styleClip}` } });
  });

  it("completes a single letter or two", async () => {
    expect(idsOf((await search("c=g")).body)).toContain(ids.gangnamStyle);
    // Neither title is the term itself: both start with it, and views decide.
    expect(idsOf((await search("c=mo")).body).slice(0, 2)).toEqual([ids.moonlightBakery, ids.moonlight]);
  });
});

describe("paging", () => {
  it("pages the ranked matches like every v4 list", async () => {
    const all = idsOf((await search("term=gangnam")).body);
    const first = await search("term=gangnam&per_page=2&with_paging=true");
    expect(idsOf(first.body)).toEqual(all.slice(0, 2));
    expect(first.body).toMatchObject({ more: true, count: all.length, pagination: { previous: null } });
    expect(first.body.pagination!.next).toBe("https://api.test/v4/search.json?term=gangnam&per_page=2&with_paging=true&page=2");
    const last = await search("term=gangnam&per_page=2&page=3&with_paging=true");
    expect(idsOf(last.body)).toEqual(all.slice(4));
    expect(last.body).toMatchObject({ more: false, pagination: { next: null } });
    expect((await search("term=gangnam&only_ids=true")).body.response).toEqual(all);
    expect((await search("term=gangnam&page=9")).body).toEqual({ more: false, response: [] });
  });

  it("refuses a page past the paging ceiling, naming page", async () => {
    const res = await api("/v4/search.json?term=gangnam&page=101&per_page=100");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { details: Array<{ field: string }> }).details[0].field).toBe("page");
  });
});

describe("cost and caching", () => {
  it("is one D1 round trip and reads two or three rows per match", async () => {
    const { res } = await search("term=gangnam&watchable_in=kr");
    expect(trips(res)).toBe(1);
    expect(rowsRead(res)).toBeLessThanOrEqual(30);
    const short = await search("c=g&type=film,series,clip");
    expect(trips(short.res)).toBe(1);
  });

  it("is edge-cached: Cache-Control public, an ETag, 304, and a hit without D1", async () => {
    const path = "term=moonlight&per_page=3";
    const first = await search(path);
    expect(first.res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = first.res.headers.get("etag")!;
    const again = await search(path);
    expect(cached(again.res)).toBe("hit");
    expect(again.res.headers.get("server-timing")).not.toMatch(/d1/);
    expect(again.body).toEqual(first.body);
    expect((await api(`/v4/search.json?${path}`, { headers: { "if-none-match": etag } })).status).toBe(304);
  });
});
