import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { listItems, lists, subtitleCompletions, titles } from "../../src/db/schema";
import { api, db, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

type Item = { id: string; type: string; titles: Record<string, string>; container?: { id: string } };
type Envelope = {
  more: boolean;
  response: Item[];
  details: { id: string; titles: Record<string, string>; source: string; editable: boolean };
  count?: number;
  pagination?: { previous: string | null; next: string | null };
};

const completion = (kind: "c" | "v", id: number, language: string, percent: number) =>
  db().insert(subtitleCompletions).values({ resourceKind: kind, resourceId: id, language, percent });

let listId: string;
/** Wire ids of the visible items in list order. */
let ids: Record<string, string>;
let staff: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  member = await signedInUser();
  const drama = await createContainer({ type: "series", originCountry: "kr", title: "List Drama", genres: [6] });
  const film = await createContainer({ type: "film", originCountry: "jp", title: "List Film", genres: [18] });
  const artist = await createContainer({ type: "artist", originCountry: "us", title: "List Artist", genres: [23] });
  const pending = await createContainer({ type: "series", state: "pending", title: "List Pending" });
  const episode = await createVideo(drama.id, { number: 1, title: "Drama 1" });
  const episode2 = await createVideo(drama.id, { number: 2, title: "Drama 2" });
  const movie = await createVideo(film.id, { type: "movie", title: "Film movie" });
  const blockedVideo = await createVideo(drama.id, { number: 3, state: "blocked" });
  const orphanedVideo = await createVideo(pending.id, { number: 1 });
  await completion("c", drama.id, "en", 80);
  await completion("c", film.id, "en", 30);
  await completion("v", episode.id, "en", 60);
  // The container is at 80% but this episode's own completion is what counts.
  await completion("v", episode2.id, "en", 20);
  await completion("v", movie.id, "en", 50);

  const [list] = await db().insert(lists).values({}).returning();
  await db().insert(titles).values({ resourceKind: "l", resourceId: list.id, language: "en", text: "Test list" });
  listId = `${list.id}l`;
  // Natural order is by position, not by insertion order.
  const order: Array<["c" | "v", number]> = [
    ["c", film.id],
    ["v", blockedVideo.id],
    ["v", episode.id],
    ["c", drama.id],
    ["c", pending.id],
    ["v", orphanedVideo.id],
    ["c", artist.id],
    ["v", episode2.id],
    ["v", movie.id],
  ];
  const rows = order.map(([resourceKind, resourceId], i) => ({ listId: list.id, position: (i + 1) * 10, resourceKind, resourceId }));
  await db().insert(listItems).values(rows.reverse());
  ids = {
    film: film.wireId,
    episode: episode.wireId,
    drama: drama.wireId,
    artist: artist.wireId,
    episode2: episode2.wireId,
    movie: movie.wireId,
  };
});

async function items(query = "") {
  const res = await api(`/v4/lists/${listId}.json${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}
const idsOf = (body: Envelope) => body.response.map((i) => i.id);

describe("GET /v4/lists/<id>.json", () => {
  it("answers full container and video objects in list order, leaving out non-normal items", async () => {
    const res = await api(`/v4/lists/${listId}.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Envelope;
    expect(body.more).toBe(false);
    expect(idsOf(body)).toEqual([ids.film, ids.episode, ids.drama, ids.artist, ids.episode2, ids.movie]);
    expect(body.response[0]).toMatchObject({ id: ids.film, type: "film", titles: { en: "List Film" }, genres: ["18g"] });
    expect(body.response[1]).toMatchObject({
      id: ids.episode,
      type: "episode",
      titles: { en: "Drama 1" },
      subtitle_completions: { en: 60 },
      container: { id: ids.drama, type: "series", titles: { en: "List Drama" } },
    });
    // One page: the list head with the list walk (one batch), then three loads (containers, videos, the videos' containers).
    expect(rowsRead(res)).toBeLessThanOrEqual(60);
  });

  it("gives the list's details beside the response", async () => {
    const body = await items();
    expect(body.details).toEqual({
      id: listId,
      titles: { en: "Test list" },
      source: "curated",
      editable: true,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      url: { api: `https://api.test/v4/lists/${listId}.json` },
    });
    expect(Object.keys(await items("?with_paging=true&only_ids=true")).sort()).toEqual([
      "count",
      "details",
      "more",
      "pagination",
      "response",
    ]);
  });

  it("is publicly cacheable with an ETag", async () => {
    const res = await api(`/v4/lists/${listId}.json`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = res.headers.get("etag")!;
    expect((await api(`/v4/lists/${listId}.json`, { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("filters by type: a container type keeps containers, a video type keeps videos", async () => {
    expect(idsOf(await items("?type=series"))).toEqual([ids.drama]);
    expect(idsOf(await items("?type=film"))).toEqual([ids.film]);
    expect(idsOf(await items("?type=episode"))).toEqual([ids.episode, ids.episode2]);
    expect(idsOf(await items("?type=movie"))).toEqual([ids.movie]);
    expect(idsOf(await items("?type=news"))).toEqual([]);
  });

  it("filters by genre, a video through its container", async () => {
    expect(idsOf(await items("?genre=6g"))).toEqual([ids.episode, ids.drama, ids.episode2]);
    expect(idsOf(await items("?genre=18"))).toEqual([ids.film, ids.movie]);
    expect(idsOf(await items("?genre=23g"))).toEqual([ids.artist]);
  });

  it("filters by origin country, a video through its container", async () => {
    expect(idsOf(await items("?origin_country=kr"))).toEqual([ids.episode, ids.drama, ids.episode2]);
    expect(idsOf(await items("?origin_country=JP"))).toEqual([ids.film, ids.movie]);
  });

  it("filters by subtitle completion of at least 50%, a video by its own completion", async () => {
    expect(idsOf(await items("?subtitle_completion=en"))).toEqual([ids.episode, ids.drama, ids.movie]);
    expect(idsOf(await items("?subtitle_completion=fr"))).toEqual([]);
  });

  it("combines filters", async () => {
    expect(idsOf(await items("?type=episode&subtitle_completion=en&genre=6g"))).toEqual([ids.episode]);
  });

  it("pages in list order with more, count and pagination links", async () => {
    const first = await items("?per_page=2&with_paging=true");
    expect(idsOf(first)).toEqual([ids.film, ids.episode]);
    expect(first.more).toBe(true);
    expect(first.count).toBe(6);
    expect(first.pagination).toEqual({
      previous: null,
      next: `https://api.test/v4/lists/${listId}.json?per_page=2&with_paging=true&page=2`,
    });
    const second = await items("?per_page=2&page=2");
    expect(idsOf(second)).toEqual([ids.drama, ids.artist]);
    expect(second.more).toBe(true);
    const last = await items("?per_page=2&page=3&with_paging=true");
    expect(idsOf(last)).toEqual([ids.episode2, ids.movie]);
    expect(last.more).toBe(false);
    expect(last.pagination?.next).toBeNull();
    expect((await items("?per_page=2&page=4")).response).toEqual([]);
    const filtered = await items("?genre=6g&per_page=1&with_paging=true");
    expect(filtered.count).toBe(3);
    expect(filtered.more).toBe(true);
  });

  it("answers ids only with only_ids=true", async () => {
    const body = (await items("?only_ids=true&per_page=3")) as unknown as { more: boolean; response: string[]; details: unknown };
    expect(body).toEqual({ more: true, response: [ids.film, ids.episode, ids.drama], details: expect.objectContaining({ id: listId }) });
  });

  it("serves the built-in lists with their titles: 1l curated, 2l and 6l derived (test/v4/lists-derived.test.ts)", async () => {
    const expected = { "1l": ["Featured", "curated"], "2l": ["On Air", "on_air"], "6l": ["Upcoming", "upcoming"] };
    for (const [builtin, [title, source]] of Object.entries(expected)) {
      const res = await api(`/v4/lists/${builtin}.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Envelope).details).toMatchObject({ id: builtin, titles: { en: title }, source });
    }
  });

  it("404s missing and malformed list ids", async () => {
    for (const id of ["999999999l", "abc", "1c", "01l", "l"]) {
      const res = await api(`/v4/lists/${id}.json`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "not found", vcode: 404, request_id: expect.any(String) });
    }
  });

  it("refuses bad filters with 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["type=show", "type"],
      ["genre=action", "genre"],
      ["origin_country=korea", "origin_country"],
      ["subtitle_completion=e", "subtitle_completion"],
    ]) {
      const res = await api(`/v4/lists/${listId}.json?${query}`);
      expect(res.status).toBe(400);
      const body = await errorBody(res);
      expect(body.vcode).toBe(5002);
      expect(body.details?.map((d) => d.field)).toContain(field);
    }
  });
});

describe("POST /v4/lists.json", () => {
  const body = { titles: { en: "Weekend picks", ko: "주말 추천" } };

  it("needs a token (401) of a staff user (403)", async () => {
    const anonymous = await api("/v4/lists.json", { method: "POST", json: body });
    expect(anonymous.status).toBe(401);
    expect((await errorBody(anonymous)).vcode).toBe(4500);
    const other = await api(`/v4/lists.json?token=${member.token}`, { method: "POST", json: body });
    expect(other.status).toBe(403);
    expect((await errorBody(other)).vcode).toBe(5403);
  });

  it("creates an empty list for staff: 201 with the list object", async () => {
    const res = await api(`/v4/lists.json?token=${staff.token}`, { method: "POST", json: body });
    expect(res.status).toBe(201);
    const list = (await res.json()) as { id: string; titles: object; videos: string[]; created_at: string; url: { api: string } };
    expect(list).toMatchObject({ titles: body.titles, videos: [] });
    expect(list.id).toMatch(/^[1-9][0-9]*l$/);
    expect(list.created_at).toMatch(/Z$/);
    expect(list.url.api).toBe(`https://api.test/v4/lists/${list.id}.json`);
    const stored = await db()
      .select({ language: titles.language, text: titles.text })
      .from(titles)
      .where(and(eq(titles.resourceKind, "l"), eq(titles.resourceId, Number.parseInt(list.id, 10))))
      .all();
    expect(Object.fromEntries(stored.map((t) => [t.language, t.text]))).toEqual(body.titles);
    expect(await (await api(`/v4/lists/${list.id}.json`)).json()).toEqual({
      more: false,
      response: [],
      details: expect.objectContaining({ id: list.id, titles: body.titles, source: "curated", editable: true }),
    });
  });

  it("refuses bad input with 400 naming each field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ titles: { ko: "제목" } }, "titles.en"],
      [{ titles: { en: "" } }, "titles.en"],
      [{ titles: { en: "x".repeat(256) } }, "titles.en"],
      [{ titles: { en: "Fine", "Not A Code": "x" } }, "titles.Not A Code"],
      [{ titles: { en: "Fine", fr: true } }, "titles.fr"],
      [{ titles: { en: { text: "Fine" } } }, "titles.en"],
      [{}, "titles"],
    ];
    for (const [json, field] of cases) {
      const res = await api(`/v4/lists.json?token=${staff.token}`, { method: "POST", json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5002);
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
    // An unknown field is ignored (the list is still created empty) and named in x-ignored-fields.
    const extra = await api(`/v4/lists.json?token=${staff.token}`, { method: "POST", json: { titles: { en: "x" }, videos: ["1v"] } });
    expect(extra.status).toBe(201);
    expect(extra.headers.get("x-ignored-fields")).toBe("videos");
    expect(await extra.json()).toMatchObject({ titles: { en: "x" }, videos: [] });
  });
});
