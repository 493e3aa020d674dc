// Keyset paging across shards (docs/decisions.md, "Keyset paging across shards"; docs/api.md, "Cursors"): the lists read
// across every shard answer `cursor` beside a boolean `more`, and walking a list by cursor gives exactly the rows, in
// the order, that walking it by `page` gives. Rows are spread over both shards, their creation times tie across
// shards (the order then falls to the id), and their texts are Korean and Japanese, which a cursor never carries.
import { beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "../../src/lib/cursor";
import { toBase64Url, utf8 } from "../../src/lib/encoding";
import { edgeKey } from "../../src/services/edge-cache";
import { api, createApplication, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createHistories, createSubtitles } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

type Json = any;
type User = Awaited<ReturnType<typeof signedInUser>>;
type Page = {
  more: boolean;
  response: Array<{ id: string | number }>;
  cursor?: string;
  pagination?: { previous: string | null; next: string | null };
};

let app: string;
let official: string;
let alice: User;
let bob: User;
const containers: Array<{ id: number; wireId: string }> = [];
/** The video of the first container that Alice's history names. */
let historyVideo: string;

const translations = (query: Record<string, string>) => api("/v4/tranlslations.json", { app, query });
const histories = (user: User, query: Record<string, string>, json: unknown = {}, token = user.token) =>
  api(`/v4/users/${user.id}/subtitle_histories.json`, { method: "POST", app: official, token, query, json });

/** Sets creation times on every row of a table on both shards: `1_700_000_000 + id % 3`, so most times are held by rows of both. */
async function tieCreationTimes(table: "subtitles" | "subtitle_histories") {
  for (const c of containers) {
    const { binding } = await shardOf(c.id);
    await binding.prepare(`UPDATE ${table} SET created_at = 1700000000 + id % 3 WHERE container_id = ?`).bind(c.id).run();
  }
}

beforeAll(async () => {
  app = (await createApplication()).wireId;
  official = (await createApplication({ official: true })).wireId;
  [alice, bob] = await Promise.all([signedInUser(), signedInUser()]);
  // Two containers, one on each shard; their videos interleave by id, so a language walk alternates between shards.
  const first = await createContainer({ originLanguage: "ko" });
  let second = await createContainer({ originLanguage: "ja" });
  while ((await shardOf(second.id)).shard === (await shardOf(first.id)).shard) second = await createContainer({ originLanguage: "ja" });
  containers.push(first, second);
  const korean = (n: number) => Array.from({ length: n }, (_, i) => `안녕하세요 ${i} — 번역`);
  const japanese = (n: number) => Array.from({ length: n }, (_, i) => `こんにちは ${i}「字幕」`);
  for (let k = 0; k < 3; k++) {
    const va = await createVideo(first.id, { number: k + 1 });
    await createSubtitles(va.id, 4, { ko: korean(4), en: japanese(4), ja: [null, "日本語", null, "テスト"] });
    const vb = await createVideo(second.id, { number: k + 1 });
    await createSubtitles(vb.id, 3, { ja: japanese(3), en: korean(3), ko: ["한국어", null, null] });
  }
  // Empty positions of a language walk: a video whose origin is the target language, and a hidden video.
  const english = await createVideo(first.id, { number: 10, originLanguage: "en" });
  await createSubtitles(english.id, 2, { en: 2, ko: korean(2) });
  const hidden = await createVideo(second.id, { number: 11, state: "blocked" });
  await createSubtitles(hidden.id, 2, { ja: 2, en: korean(2) });
  await tieCreationTimes("subtitles");
  // Alice's history on both shards, with tied creation times; Bob's beside it, never in hers.
  const rows = [];
  for (let i = 0; i < 9; i++) {
    for (const c of containers) {
      const video = (await api(`/v4/containers/${c.wireId}/videos.json`).then((r) => r.json())) as Json;
      const videoId = Number.parseInt(video.response[0].id, 10);
      historyVideo ??= video.response[0].id;
      rows.push({ userId: alice.user.id, videoId, containerId: c.id, language: i % 2 ? "ja" : "ko", text: korean(1)[0] });
      if (i < 3) rows.push({ userId: bob.user.id, videoId, containerId: c.id, text: japanese(1)[0] });
    }
  }
  await createHistories(rows);
  await tieCreationTimes("subtitle_histories");
}, 60_000);

/** Every page of a list by `page`: the ids in order, and how many pages it took. */
async function walkByPage(read: (query: Record<string, string>) => Promise<Response>, query: Record<string, string>) {
  const ids: Array<string | number> = [];
  for (let page = 1; ; page++) {
    const res = await read({ ...query, page: String(page) });
    expect(res.status, JSON.stringify(query)).toBe(200);
    const body = (await res.json()) as Page;
    ids.push(...body.response.map((r) => r.id));
    // The cursor is on every page that has a next one, OFFSET pages included, and on no other.
    expect(body.cursor === undefined, `page ${page}`).toBe(!body.more);
    if (!body.more) return { ids, pages: page };
  }
}

/** The same list by cursor, from the first page. */
async function walkByCursor(read: (query: Record<string, string>) => Promise<Response>, query: Record<string, string>) {
  const ids: Array<string | number> = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const res = await read(cursor ? { ...query, cursor } : query);
    expect(res.status, JSON.stringify(query)).toBe(200);
    const body = (await res.json()) as Page;
    ids.push(...body.response.map((r) => r.id));
    if (!body.more) {
      expect(body.cursor).toBeUndefined();
      return { ids, pages };
    }
    expect(body.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    cursor = body.cursor;
  }
}

describe("a list by cursor is the list by page", () => {
  const lists: Array<Record<string, string>> = [{}, { to: "en" }, { to: "en", from: "ko" }, { to: "ja" }, { to: "ko" }];

  it("places the containers on both shards", async () => {
    expect((await shardOf(containers[0].id)).shard).not.toBe((await shardOf(containers[1].id)).shard);
  });

  for (const filters of lists) {
    it(`walks ${JSON.stringify(filters)} alike at per_page 1, 2, 3 and 5`, async () => {
      const whole = (await (await translations({ ...filters, per_page: "100" })).json()) as Page;
      expect(whole.more).toBe(false);
      expect(whole.response.length).toBeGreaterThan(3);
      for (const perPage of ["1", "2", "3", "5"]) {
        const byPage = await walkByPage(translations, { ...filters, per_page: perPage });
        const byCursor = await walkByCursor(translations, { ...filters, per_page: perPage });
        expect(byCursor, `per_page ${perPage}`).toEqual(byPage);
        expect(byCursor.ids).toEqual(whole.response.map((t) => t.id));
      }
    });
  }

  it("walks a user's history alike, with and without filters, across both shards", async () => {
    for (const [query, body] of [
      [{ per_page: "2" }, {}],
      [{ per_page: "4" }, { language: "ja" }],
      [{ per_page: "5" }, {}],
      // One video: read on its container's shard alone, by the same cursor.
      [{ per_page: "2" }, { video_id: historyVideo }],
    ] as const) {
      const read = (q: Record<string, string>) => histories(alice, q, body);
      const byPage = await walkByPage(read, query);
      const byCursor = await walkByCursor(read, query);
      expect(byCursor).toEqual(byPage);
      expect(byPage.ids).toHaveLength("language" in body ? 8 : "video_id" in body ? 9 : 18);
      expect(new Set(byPage.ids).size).toBe(byPage.ids.length);
    }
  });

  it("answers cursor pages with a count, no previous link and the next cursor's link", async () => {
    const first = (await (await translations({ per_page: "2", with_paging: "true" })).json()) as Page & { count: number };
    const res = await translations({ per_page: "2", with_paging: "true", cursor: first.cursor! });
    const body = (await res.json()) as Page & { count: number };
    expect(body.count).toBe(first.count);
    expect(body.pagination?.previous).toBeNull();
    const next = new URL(body.pagination!.next!);
    expect(next.searchParams.get("cursor")).toBe(body.cursor);
    expect(next.searchParams.has("page")).toBe(false);
    // only_ids pages by cursor too.
    const ids = (await (await translations({ per_page: "2", only_ids: "true", cursor: first.cursor! })).json()) as Json;
    expect(ids.response).toEqual(body.response.map((t) => t.id));
  });

  it("keeps another user's history closed to a cursor", async () => {
    const first = (await (await histories(alice, { per_page: "2" })).json()) as Page;
    const res = await histories(alice, { per_page: "2", cursor: first.cursor! }, {}, bob.token);
    expect(res.status).toBe(403);
    // Bob's own history by cursor is his rows only.
    const own = await walkByCursor((q) => histories(bob, q), { per_page: "2" });
    expect(own.ids).toHaveLength(6);
  });

  it("keeps the cursor in the edge cache key, as any other parameter", () => {
    const url = (cursor: string) => `https://api.example/v4/tranlslations.json?app=1a&cursor=${cursor}&per_page=2`;
    const a = encodeCursor({ list: "t", key: [1_700_000_000, 5] });
    const b = encodeCursor({ list: "t", key: [1_700_000_000, 6] });
    expect(edgeKey(url(a), {}, ["1"])).not.toBe(edgeKey(url(b), {}, ["1"]));
    expect(edgeKey(url(a), {}, ["1"])).toContain(`cursor=${a}`);
  });
});

describe("a bad cursor is a 400 naming cursor", () => {
  const json = (value: unknown) => toBase64Url(utf8(JSON.stringify(value)));
  const malformed: Array<[string, string]> = [
    ["not base64url", "%%%"],
    ["not JSON", toBase64Url(utf8("안녕하세요"))],
    ["another shape", json({ l: "t", k: [1] })],
    ["a negative key", json({ l: "t", k: [-1, 2] })],
    ["a fraction", json({ l: "t", k: [1.5, 2] })],
    ["an unknown list", json({ l: "x", k: [1, 2] })],
    ["an extra field", json({ l: "t", k: [1, 2], sql: "1=1" })],
    ["a text key", json({ l: "t", k: ["こんにちは", 2] })],
    ["too long", "A".repeat(500)],
  ];

  for (const [what, cursor] of malformed) {
    it(`refuses ${what}`, async () => {
      for (const res of [await translations({ cursor }), await histories(alice, { cursor })]) {
        expect(res.status).toBe(400);
        expect((await errorBody(res)).details?.map((d: Json) => d.field)).toEqual(["cursor"]);
      }
    });
  }

  it("refuses a cursor of another list, with page, or on a list of one video or container", async () => {
    const history = encodeCursor({ list: "h", key: [1_700_000_000, 5] });
    const everything = encodeCursor({ list: "t", key: [1_700_000_000, 5] });
    const cases: Array<Promise<Response>> = [
      translations({ cursor: history }),
      translations({ to: "en", cursor: everything }),
      histories(alice, { cursor: everything }),
      translations({ cursor: everything, page: "2" }),
      translations({ cursor: everything, page: "1" }),
      histories(alice, { cursor: encodeCursor({ list: "h", key: [1_700_000_000, 5] }) }, { page: 2 }),
      translations({ container_id: containers[0].wireId, to: "en", cursor: encodeCursor({ list: "l", key: [1, 0] }) }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d: Json) => d.field)).toEqual(["cursor"]);
    }
  });

  it("takes an empty cursor= as none", async () => {
    const res = await translations({ cursor: "", per_page: "2" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Page).response).toHaveLength(2);
  });
});
