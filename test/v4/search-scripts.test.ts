import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { fillTitleIndexForms } from "../../scripts/title-index-forms.mjs";
import { titles } from "../../src/db/schema";
import { indexForm } from "../../src/domain/search-text";
import { api, db, staffManagerOther, type User } from "../helpers";
import { catalogueChanged, createContainer, createVideo } from "../helpers/catalogue";
import { post } from "../helpers/container-writes";

// GET /v4/search.json on titles in scripts written without spaces, full-width letters and accents (docs/api.md,
// "Search (v4)"; docs/decisions.md, "Search (v4)"): titles are indexed in their index form, so a run of Chinese,
// Japanese or Korean characters finds any substring of a title, one character included.
type Item = { id: string; tt?: string };
type Body = { response: Item[] };

let staff: User;
const ids: Record<string, string> = {};

async function found(query: string) {
  const res = await api(`/v4/search.json?${query}`);
  expect(res.status, `${query}: ${res.status === 200 ? "" : await res.clone().text()}`).toBe(200);
  return ((await res.json()) as Body).response.map((i) => i.id);
}
const term = (text: string) => found(`term=${encodeURIComponent(text)}`);

beforeAll(async () => {
  ({ staff } = await staffManagerOther());
  // Through the API: the container writer stores each title's index form.
  const res = await post(staff.token, {
    type: "series",
    origin: { country: "cn", language: "zh" },
    titles: { en: "Shanghai Love Story", zh: "上海爱情故事", ja: "上海ラブストーリー" },
    flags: { hosted: true, licensed: true },
    state: "normal",
  });
  expect(res.status).toBe(201);
  ids.shanghai = ((await res.json()) as { id: string }).id;
  ids.garden = (await createContainer({ title: "The King's Secret Garden", titles: { ko: "왕의 비밀 정원" }, views: 5 })).wireId;
  ids.loveStory = (await createContainer({ title: "Love Story", titles: { zh: "爱情故事" }, views: 1 })).wireId;
  ids.newShanghai = (await createContainer({ title: "New Shanghai", titles: { zh: "新上海" }, views: 900 })).wireId;
  ids.tokyo = (await createContainer({ title: "ＴＯＫＹＯ Nights", views: 3 })).wireId;
  // "é" written as e and a combining acute accent: unicode61 alone would split the word at the mark.
  ids.amelie = (await createContainer({ title: "Ame\u0301lie in Paris", titles: { fr: "Café Élégance" }, views: 2 })).wireId;
});

describe("titles without spaces between words", () => {
  it("finds a Chinese, Japanese or Korean title by any run inside it", async () => {
    expect((await term("上海")).sort()).toEqual([ids.shanghai, ids.newShanghai].sort());
    expect(await term("爱情")).toContain(ids.shanghai);
    expect(await term("ラブ")).toEqual([ids.shanghai]);
    expect(await term("왕")).toEqual([ids.garden]);
    expect(await term("비밀 정원")).toEqual([ids.garden]);
  });

  it("matches a run as a whole, in order: the characters apart or reversed find nothing", async () => {
    expect(await term("海上")).toEqual([]);
    expect(await term("上故")).toEqual([]);
  });

  it("finds one character, in the full and the short form", async () => {
    expect(await term("ラ")).toEqual([ids.shanghai]);
    expect((await term("爱")).sort()).toEqual([ids.shanghai, ids.loveStory].sort());
    expect(await found(`c=${encodeURIComponent("왕")}`)).toEqual([ids.garden]);
  });

  it("mixes runs and spaced words: every term required, across the resource's titles", async () => {
    expect(await term("上海 love")).toEqual([ids.shanghai]);
    expect(await term("爱情 garden")).toEqual([]);
  });

  it("ranks CJK titles as Latin ones: exact title, then a title starting with the term, then views", async () => {
    // 爱情故事 is the whole title of Love Story (1 view) and inside 上海爱情故事 (0 views).
    expect(await term("爱情故事")).toEqual([ids.loveStory, ids.shanghai]);
    // 上海爱情故事 starts with 上海; 新上海 (900 views) only holds it.
    expect(await term("上海")).toEqual([ids.shanghai, ids.newShanghai]);
    expect(await term("上海爱情故事")).toEqual([ids.shanghai]);
  });

  it("shows the title in the viewer's language in the short form", async () => {
    const res = await api(`/v4/search.json?c=${encodeURIComponent("上海爱")}&language=zh`);
    expect(((await res.json()) as Body).response[0]).toMatchObject({ id: ids.shanghai, tt: "上海爱情故事" });
    const ja = await api(`/v4/search.json?c=${encodeURIComponent("ラブスト")}&language=ja`);
    expect(((await ja.json()) as Body).response[0]).toMatchObject({ id: ids.shanghai, tt: "上海ラブストーリー" });
  });
});

describe("width and accents", () => {
  it("finds a full-width Latin title by plain letters, and plain by full-width", async () => {
    expect(await term("tokyo nights")).toEqual([ids.tokyo]);
    expect(await term("ｔｏｋｙｏ")).toEqual([ids.tokyo]);
  });

  it("ignores accents, precomposed or combining, in the title and in the term", async () => {
    expect(await term("amelie")).toEqual([ids.amelie]);
    expect(await term("AMÉLIE")).toEqual([ids.amelie]);
    expect(await term("cafe elegance")).toEqual([ids.amelie]);
    expect(await term("Ame\u0301lie")).toEqual([ids.amelie]);
  });
});

describe("the stored index form", () => {
  const titleOf = (wireId: string, language: string) =>
    and(eq(titles.resourceKind, "c"), eq(titles.resourceId, Number.parseInt(wireId, 10)), eq(titles.language, language));

  it("is written with the text by the API, and null for text the index reads as it is", async () => {
    const rows = await db()
      .select()
      .from(titles)
      .where(eq(titles.resourceId, Number.parseInt(ids.shanghai, 10)));
    const forms = Object.fromEntries(rows.filter((r) => r.resourceKind === "c").map((r) => [r.language, r.searchText]));
    expect(forms).toEqual({ en: null, zh: "上 海 爱 情 故 事", ja: "上 海 ラ ブ ス ト ー リ ー" });
  });

  it("follows a title replaced through the API: the old words stop matching, the new ones match", async () => {
    const url = `/v4/containers/${ids.garden}/titles.json`;
    const res = await api(url, { method: "POST", token: staff.token, json: { language_code: "ko", title: "왕의 남자" } });
    expect(res.status).toBe(201);
    expect(await term("정원")).toEqual([]);
    expect(await term("남자")).toEqual([ids.garden]);
    const [row] = await db().select().from(titles).where(titleOf(ids.garden, "ko"));
    expect(row.searchText).toBe("왕 의 남 자");
  });

  it("refuses a new text written with the old text's index form", async () => {
    const forgetful = env.DB.prepare("UPDATE titles SET text = '上海' WHERE resource_kind = 'c' AND resource_id = ?1 AND language = 'zh'");
    await expect(forgetful.bind(Number.parseInt(ids.shanghai, 10)).run()).rejects.toThrow(
      /titles.search_text must be written with the text/,
    );
    await db()
      .update(titles)
      .set({ text: "上海", searchText: indexForm("上海") })
      .where(titleOf(ids.shanghai, "zh"));
    await db()
      .update(titles)
      .set({ text: "上海爱情故事", searchText: indexForm("上海爱情故事") })
      .where(titleOf(ids.shanghai, "zh"));
  });

  it("is filled for titles written without it (before migration 0041) by the operator's walk", async () => {
    const old = await createContainer({ title: "Palace Nights" });
    // As a title written before the writers stored the form: the index holds the whole run as one token.
    await env.DB.prepare("INSERT INTO titles (resource_kind, resource_id, language, text) VALUES ('c', ?1, 'ko', '궁궐의 밤')")
      .bind(old.id)
      .run();
    await catalogueChanged();
    expect(await term("궁궐")).toEqual([]);
    const walked = await fillTitleIndexForms(async (sql) => (await env.DB.prepare(sql).all()).results, indexForm);
    expect(walked.written).toBe(1);
    await catalogueChanged();
    expect(await term("궁궐")).toEqual([old.wireId]);
    expect(await term("밤")).toEqual([old.wireId]);
    const again = await fillTitleIndexForms(async (sql) => (await env.DB.prepare(sql).all()).results, indexForm);
    expect(again).toEqual({ read: walked.read, written: 0 });
  });

  it("splits a page of long titles into statements D1 takes (under 100 KB each)", async () => {
    const holder = await createContainer({ title: "Long Titles" });
    const video = await createVideo(holder.id, { title: "Long Titles Episode" });
    // 60 titles of 200 Chinese characters, written without their form: about 87 KB of changes in one page.
    const long = (i: number) => `长标题${i}号`.padEnd(200, "天地玄黄宇宙洪荒");
    await env.DB.batch(
      Array.from({ length: 60 }, (_, i) =>
        env.DB.prepare("INSERT INTO titles (resource_kind, resource_id, language, text) VALUES ('v', ?1, ?2, ?3)").bind(
          video.id,
          `x${i}`,
          long(i),
        ),
      ),
    );
    const updates: number[] = [];
    const walked = await fillTitleIndexForms(async (sql) => {
      if (sql.startsWith("UPDATE")) updates.push(new TextEncoder().encode(sql).length);
      return (await env.DB.prepare(sql).all()).results;
    }, indexForm);
    expect(walked.written).toBe(60);
    expect(updates.length).toBe(2);
    for (const bytes of updates) expect(bytes).toBeLessThan(100_000);
    await catalogueChanged();
    expect(await term("长标题59号")).toEqual([video.wireId]);
  });
});
