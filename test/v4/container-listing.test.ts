import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { KV_KEYS } from "../../src/services/kv-cache";
import { api, createApplication, errorBody, rowsRead } from "../helpers";
import { bulkSpec, expectedOrder, insertCatalogue, type ModelContainer } from "../helpers/bulk-catalogue";
import { catalogueChanged, createContainer } from "../helpers/catalogue";

type ListBody = { more: boolean; response: any[]; count?: number; pagination?: { previous: string | null; next: string | null } };

const SIZE = 320;
let model: ModelContainer[];
let unhostedApp: Awaited<ReturnType<typeof createApplication>>;
let plainApp: Awaited<ReturnType<typeof createApplication>>;
/** Rows read per request, printed at the end so the budget figures are visible. */
const measured: Record<string, number> = {};

const pub = (m: ModelContainer) => m.hosted && m.licensed;

async function list(path: string) {
  const res = await api(path);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return { res, body: (await res.json()) as ListBody };
}

/** Every id of a listing, following `more` page by page (per_page=100). */
async function allIds(path: string) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { body } = await list(`${path}${path.includes("?") ? "&" : "?"}only_ids=true&per_page=100&page=${page}`);
    ids.push(...(body.response as string[]));
    if (!body.more) return ids;
  }
}

beforeAll(async () => {
  model = await insertCatalogue(Array.from({ length: SIZE }, (_, i) => bulkSpec(i, "bulk")));
  unhostedApp = await createApplication({ unhosted: true });
  plainApp = await createApplication();
});

describe("GET /v4/containers.json?ids=", () => {
  it("keeps the requested order in both syntaxes", async () => {
    const ids = [model[10], model[3], model[200], model[1]].filter((m) => m.state === "normal").map((m) => `${m.id}c`);
    for (const q of [ids.join(","), `(${ids.join(",")})`]) {
      const { res, body } = await list(`/v4/containers.json?ids=${encodeURIComponent(q)}`);
      expect(body.more).toBe(false);
      expect(body.response.map((c: { id: string }) => c.id)).toEqual(ids);
      expect(body.response[0]).toMatchObject({ type: model[10].type, titles: { en: model[10].title } });
      expect(rowsRead(res)).toBeLessThanOrEqual(10 * ids.length);
    }
  });

  it("omits malformed, missing, duplicate and non-normal-state ids without an error", async () => {
    const hidden = model.find((m) => m.state !== "normal")!;
    const ok = model
      .filter((m) => m.state === "normal")
      .slice(0, 2)
      .map((m) => `${m.id}c`);
    const q = ["abc", ok[1], "12v", "999999c", `${hidden.id}c`, "01c", ok[0], ok[1]].join(",");
    const { body } = await list(`/v4/containers.json?ids=(${q})`);
    expect(body.response.map((c: { id: string }) => c.id)).toEqual([ok[1], ok[0]]);
    const empty = await list("/v4/containers.json?ids=999998c");
    expect(empty.body).toEqual({ more: false, response: [] });
  });

  it("reads 25 ids at no more than 10 rows per id", async () => {
    const ids = model
      .filter((m) => m.state === "normal")
      .slice(40, 65)
      .map((m) => `${m.id}c`);
    const { res, body } = await list(`/v4/containers.json?ids=${ids.join(",")}`);
    expect(body.response).toHaveLength(25);
    measured["ids=25"] = rowsRead(res);
    expect(rowsRead(res)).toBeLessThanOrEqual(10 * 25);
  });

  it("refuses more than 25 ids with a 400 naming ids", async () => {
    const ids = model.slice(0, 26).map((m) => `${m.id}c`);
    for (const q of [ids.join(","), `(${ids.join(",")})`]) {
      const res = await api(`/v4/containers.json?ids=${q}`);
      expect(res.status).toBe(400);
      const body = await errorBody(res);
      expect(body.vcode).toBe(5002);
      expect(body.details?.map((d) => d.field)).toEqual(["ids"]);
    }
  });

  it("keeps only the path's type on a pseudo-type path and answers ids with only_ids", async () => {
    const film = model.find((m) => m.type === "film" && m.state === "normal")!;
    const series = model.find((m) => m.type === "series" && m.state === "normal")!;
    const { body } = await list(`/v4/films.json?ids=${series.id}c,${film.id}c&only_ids=true`);
    expect(body.response).toEqual([`${film.id}c`]);
    const typed = await list(`/v4/containers.json?type=series&ids=${series.id}c,${film.id}c&only_ids=true`);
    expect(typed.body.response).toEqual([`${series.id}c`]);
  });
});

describe("GET /v4/containers.json (listing)", () => {
  it("lists public normal-state containers by views with the paging envelope", async () => {
    const expected = expectedOrder(model, pub);
    const { res, body } = await list("/v4/containers.json");
    expect(body.more).toBe(true);
    expect(body.response.map((c: { id: string }) => c.id)).toEqual(expected.slice(0, 25));
    expect(body.response[0]).toMatchObject({ id: expected[0], flags: { state: "normal", hosted: true, licensed: true } });
    expect(body.count).toBeUndefined();
    measured["default page"] = rowsRead(res);
    expect(rowsRead(res)).toBeLessThanOrEqual(200);

    const page2 = await list("/v4/containers.json?page=2&only_ids=true");
    expect(page2.body.response).toEqual(expected.slice(25, 50));
    expect(await allIds("/v4/containers.json")).toEqual(expected);
  });

  it("adds count and absolute pagination links with with_paging=true", async () => {
    const expected = expectedOrder(model, (m) => pub(m) && m.type === "film");
    const { body } = await list("/v4/containers.json?type=film&with_paging=true&per_page=10");
    expect(body.count).toBe(expected.length);
    expect(body.pagination).toEqual({
      previous: null,
      next: "https://api.test/v4/containers.json?type=film&with_paging=true&per_page=10&page=2",
    });
    const last = Math.ceil(expected.length / 10);
    const end = await list(`/v4/containers.json?type=film&with_paging=true&per_page=10&page=${last}`);
    expect(end.body.more).toBe(false);
    expect(end.body.pagination).toEqual({
      previous: `https://api.test/v4/containers.json?type=film&with_paging=true&per_page=10&page=${last - 1}`,
      next: null,
    });
    expect(end.body.response.map((c: { id: string }) => c.id)).toEqual(expected.slice((last - 1) * 10));
  });

  it("clamps per_page to 100 and falls back to 25 for nonsense", async () => {
    expect((await list("/v4/containers.json?per_page=500&only_ids=true")).body.response).toHaveLength(100);
    expect((await list("/v4/containers.json?per_page=0&only_ids=true")).body.response).toHaveLength(25);
    expect((await list("/v4/containers.json?per_page=abc&only_ids=true")).body.response).toHaveLength(25);
    const ids = (await list("/v4/containers.json?per_page=3&only_ids=true")).body.response;
    expect(ids).toEqual(expectedOrder(model, pub).slice(0, 3));
  });

  const FILTERS: Array<[string, string, (m: ModelContainer) => boolean]> = [
    ["genre", "genre=2g", (m) => m.genres.includes(2)],
    ["genre", "genre=2", (m) => m.genres.includes(2)],
    ["origin_country", "origin_country=JP", (m) => m.country === "jp"],
    ["subtitle_completion", "subtitle_completion=en", (m) => (m.subs.en ?? 0) >= 50],
    ["subtitle_completion", "subtitle_completion=es", (m) => (m.subs.es ?? 0) >= 50],
    ["family_friendly", "family_friendly=1", (m) => !m.adult],
    ["type", "type=artist", (m) => m.type === "artist"],
    ["type+genre", "type=film&genre=3", (m) => m.type === "film" && m.genres.includes(3)],
    [
      "type+genre+country+family+sub",
      "type=series&genre=1&origin_country=kr&family_friendly=1&subtitle_completion=en",
      (m) => m.type === "series" && m.genres.includes(1) && m.country === "kr" && !m.adult && (m.subs.en ?? 0) >= 50,
    ],
  ];
  for (const [name, query, filter] of FILTERS) {
    it(`filters by ${query}`, async () => {
      const expected = expectedOrder(model, (m) => pub(m) && filter(m));
      // Single filters span several pages; combinations are smaller but never empty.
      expect(expected.length).toBeGreaterThan(name.includes("+") ? 0 : 25);
      const { res, body } = await list(`/v4/containers.json?${query}`);
      expect(body.response.map((c: { id: string }) => c.id)).toEqual(expected.slice(0, 25));
      measured[query] = rowsRead(res);
      expect(rowsRead(res)).toBeLessThanOrEqual(200);
      expect(await allIds(`/v4/containers.json?${query}`)).toEqual(expected);
    });
  }

  const SORTS = ["views", "views_recent", "trending", "newest_video", "average_rating", "release_date", "viki_air_time", "title"] as const;
  for (const sort of SORTS) {
    it(`sorts by ${sort}`, async () => {
      const { res, body } = await list(`/v4/containers.json?sort=${sort}`);
      expect(body.response.map((c: { id: string }) => c.id)).toEqual(expectedOrder(model, pub, sort).slice(0, 25));
      measured[`sort=${sort}`] = rowsRead(res);
      expect(rowsRead(res)).toBeLessThanOrEqual(200);
      const filtered = await list(`/v4/containers.json?sort=${sort}&genre=9&per_page=100&only_ids=true`);
      expect(filtered.body.response).toEqual(expectedOrder(model, (m) => pub(m) && m.genres.includes(9), sort).slice(0, 100));
    });
  }

  it("accepts and ignores direction (it applies only to sort=number)", async () => {
    const { body } = await list("/v4/containers.json?sort=title&direction=desc&only_ids=true");
    expect(body.response).toEqual(expectedOrder(model, pub, "title").slice(0, 25));
  });

  it("answers 400 naming the field for unknown sorts and malformed filters", async () => {
    const cases: Array<[string, string]> = [
      ["sort=popularity", "sort"],
      ["sort=number&direction=sideways", "direction"],
      ["direction=up", "direction"],
      ["genre=abc", "genre"],
      ["genre=6c", "genre"],
      ["origin_country=korea", "origin_country"],
      ["subtitle_completion=english!", "subtitle_completion"],
      ["family_friendly=yes", "family_friendly"],
      ["hosted=no", "hosted"],
      ["type=movie", "type"],
      ["type=movies", "type"],
      ["type=Films", "type"],
      ["type=film,series", "type"],
    ];
    for (const [query, field] of cases) {
      const res = await api(`/v4/containers.json?${query}`);
      expect(res.status, query).toBe(400);
      expect(
        (await errorBody(res)).details?.map((d) => d.field),
        query,
      ).toEqual([field]);
    }
  });

  it("honours hosted=0 and licensed=0 only for applications with unhosted access", async () => {
    const unhosted = expectedOrder(model, (m) => !m.hosted);
    const unlicensed = expectedOrder(model, (m) => !m.licensed);
    expect(unhosted.length).toBeGreaterThan(0);
    expect(unlicensed.length).toBeGreaterThan(0);
    const app = unhostedApp.wireId;
    expect((await list(`/v4/containers.json?hosted=0&only_ids=true&app=${app}`)).body.response).toEqual(unhosted);
    expect((await list(`/v4/containers.json?licensed=0&only_ids=true&app=${app}`)).body.response).toEqual(unlicensed);
    expect((await list(`/v4/containers.json?hosted=0&licensed=0&only_ids=true&app=${app}`)).body.response).toEqual(
      expectedOrder(model, (m) => !m.hosted && !m.licensed),
    );
    const res = await api(`/v4/containers.json?hosted=0&app=${app}`);
    measured["hosted=0 (unhosted access)"] = rowsRead(res);

    const ignored = expectedOrder(model, pub).slice(0, 25);
    for (const q of [`hosted=0&app=${plainApp.wireId}`, `licensed=0&app=${plainApp.wireId}`, "hosted=0&licensed=0"]) {
      expect((await list(`/v4/containers.json?${q}&only_ids=true`)).body.response, q).toEqual(ignored);
    }
  });

  it("reads type= as the singular type or the interface's plural name", async () => {
    for (const [plural, type] of [
      ["films", "film"],
      ["artists", "artist"],
      ["series", "series"],
      ["news", "news"],
    ] as const) {
      const expected = expectedOrder(model, (m) => pub(m) && m.type === type);
      expect((await list(`/v4/containers.json?type=${plural}&only_ids=true&per_page=100`)).body.response, plural).toEqual(
        expected.slice(0, 100),
      );
      expect((await list(`/v4/containers.json?type=${type}&only_ids=true&per_page=100`)).body.response, type).toEqual(
        expected.slice(0, 100),
      );
    }
    const film = model.find((m) => m.type === "film" && m.state === "normal")!;
    const artist = model.find((m) => m.type === "artist" && m.state === "normal")!;
    const { body } = await list(`/v4/containers.json?type=artists&ids=${film.id}c,${artist.id}c&only_ids=true`);
    expect(body.response).toEqual([`${artist.id}c`]);
  });

  it("takes type= on a pseudo-type path too: the same type keeps the listing, another lists nothing", async () => {
    const films = expectedOrder(model, (m) => pub(m) && m.type === "film");
    for (const q of ["type=films", "type=film"]) {
      expect((await list(`/v4/films.json?${q}&only_ids=true&per_page=100`)).body.response, q).toEqual(films.slice(0, 100));
    }
    const { res, body } = await list("/v4/films.json?type=series&with_paging=true");
    expect(body).toEqual({ more: false, response: [], count: 0, pagination: { previous: null, next: null } });
    expect(rowsRead(res)).toBe(0);
    const series = model.find((m) => m.type === "series" && m.state === "normal")!;
    expect((await list(`/v4/films.json?type=series&ids=${series.id}c`)).body).toEqual({ more: false, response: [] });
    for (const q of ["type=movie", "type=film%27--"]) {
      const bad = await api(`/v4/artists.json?${q}`);
      expect(bad.status, q).toBe(400);
      expect(
        (await errorBody(bad)).details?.map((d) => d.field),
        q,
      ).toEqual(["type"]);
    }
  });

  it("serves /v4/films.json and the other pseudo-type listings like type=", async () => {
    for (const [pseudo, type] of [
      ["films", "film"],
      ["series", "series"],
      ["news", "news"],
      ["artists", "artist"],
    ] as const) {
      const expected = expectedOrder(model, (m) => pub(m) && m.type === type);
      expect((await list(`/v4/${pseudo}.json?only_ids=true&per_page=100`)).body.response).toEqual(expected.slice(0, 100));
      expect((await list(`/v4/containers.json?type=${type}&only_ids=true&per_page=100`)).body.response).toEqual(expected.slice(0, 100));
      const { res } = await list(`/v4/${pseudo}.json?genre=3&sort=title`);
      measured[`/v4/${pseudo}.json?genre=3&sort=title`] = rowsRead(res);
      expect(rowsRead(res)).toBeLessThanOrEqual(200);
    }
  });

  it("is publicly cacheable with an ETag and 304", async () => {
    const res = await api("/v4/containers.json?genre=6g");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await api("/v4/containers.json?genre=6g", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const films = await api("/v4/films.json");
    expect(films.headers.get("etag")).toBeTruthy();
  });
});

const collator = new Intl.Collator("en", { sensitivity: "base" });
/** all.json's order for model containers (English titles): locale collation, ties by id. */
const readingOrder = (rows: ModelContainer[]) =>
  [...rows].sort((a, b) => collator.compare(a.title, b.title) || a.id - b.id).map((m) => `${m.id}c`);

/** Main child video type per container type: sort=number counts these (normal state only). */
const MAIN_CHILD = { series: "episode", film: "movie", news: "news_clip", artist: "music_video" } as const;

describe("GET /v4/containers.json?sort=number", () => {
  /** Normal-state main-child videos per container id; the oracle for sort=number. */
  const counts = new Map<number, number>();
  const byNumber = (filter: (m: ModelContainer) => boolean, direction: "asc" | "desc" = "desc") => {
    const rows = model.filter((m) => m.state === "normal" && filter(m));
    const key = (m: ModelContainer) => counts.get(m.id) ?? 0;
    rows.sort((a, b) => key(a) - key(b) || a.id - b.id);
    if (direction === "desc") rows.reverse();
    return rows.map((m) => `${m.id}c`);
  };

  beforeAll(async () => {
    // 30 public containers of every type get 1..9 main-child videos, plus videos that must not count: a
    // trailer (not the main child) and a pending main-child video.
    const chosen = model
      .filter((m) => pub(m) && m.state === "normal")
      .filter((_, i) => i % 7 === 2)
      .slice(0, 30);
    expect(chosen.length).toBe(30);
    const rows: Array<[number, string, number, string]> = [];
    chosen.forEach((m, i) => {
      const n = ((i * 5) % 9) + 1;
      counts.set(m.id, n);
      for (let k = 1; k <= n; k++) rows.push([m.id, MAIN_CHILD[m.type], k, "normal"]);
      rows.push([m.id, "trailer", 100, "normal"], [m.id, MAIN_CHILD[m.type], 101, "pending"]);
    });
    for (let i = 0; i < rows.length; i += 20) {
      const part = rows.slice(i, i + 20);
      await env.DB.prepare(`INSERT INTO videos (container_id, type, number, state) VALUES ${part.map(() => "(?, ?, ?, ?)").join(", ")}`)
        .bind(...part.flat())
        .run();
    }
  });

  it("orders by the count of main-child videos, most first, ties by id", async () => {
    const expected = byNumber(pub);
    const { res, body } = await list("/v4/containers.json?sort=number");
    expect(body.response.map((c: { id: string }) => c.id)).toEqual(expected.slice(0, 25));
    const top = body.response[0] as Record<string, any>;
    const key = { series: "episodes", film: "movies", news: "news_clips", artist: "music_videos" }[top.type as ModelContainer["type"]];
    expect(top[key].count).toBe(9); // the count the container object shows is the sort key
    measured["sort=number"] = rowsRead(res);
    expect(rowsRead(res)).toBeLessThanOrEqual(200);
    expect(await allIds("/v4/containers.json?sort=number")).toEqual(expected);
    expect((await list("/v4/containers.json?sort=number&direction=desc&only_ids=true")).body.response).toEqual(expected.slice(0, 25));
  });

  it("honours direction=asc: fewest first, ties by id ascending", async () => {
    const expected = byNumber(pub, "asc");
    const { res, body } = await list("/v4/containers.json?sort=number&direction=asc");
    expect(body.response.map((c: { id: string }) => c.id)).toEqual(expected.slice(0, 25));
    measured["sort=number&direction=asc"] = rowsRead(res);
    expect(await allIds("/v4/containers.json?sort=number&direction=asc")).toEqual(expected);
  });

  it("combines with filters, pseudo-type paths and paging", async () => {
    const genre = byNumber((m) => pub(m) && m.genres.includes(9), "asc");
    expect((await list("/v4/containers.json?sort=number&direction=asc&genre=9&only_ids=true&per_page=100")).body.response).toEqual(
      genre.slice(0, 100),
    );
    const series = byNumber((m) => pub(m) && m.type === "series");
    const { res, body } = await list("/v4/series.json?sort=number&per_page=5&page=2&with_paging=true");
    expect(body.response.map((c: { id: string }) => c.id)).toEqual(series.slice(5, 10));
    expect(body.count).toBe(series.length);
    measured["/v4/series.json?sort=number&page=2"] = rowsRead(res);
    const app = unhostedApp.wireId;
    const unhosted = byNumber((m) => !m.hosted);
    expect((await list(`/v4/containers.json?hosted=0&sort=number&only_ids=true&app=${app}`)).body.response).toEqual(unhosted.slice(0, 25));
  });

  it("follows video writes: hiding, deleting and adding main-child videos move the container", async () => {
    const [first] = byNumber(pub);
    const id = Number.parseInt(first, 10);
    await env.DB.prepare("UPDATE videos SET state = 'pending' WHERE container_id = ? AND number <= 5").bind(id).run();
    await catalogueChanged();
    counts.set(id, 4);
    expect((await list("/v4/containers.json?sort=number&only_ids=true&per_page=100")).body.response).toEqual(byNumber(pub).slice(0, 100));
    await env.DB.prepare("DELETE FROM videos WHERE container_id = ? AND state = 'normal' AND number > 5 AND number < 100").bind(id).run();
    await catalogueChanged();
    counts.delete(id);
    expect((await list("/v4/containers.json?sort=number&direction=asc&only_ids=true&per_page=100")).body.response).toEqual(
      byNumber(pub, "asc").slice(0, 100),
    );
    await env.DB.prepare("UPDATE videos SET state = 'normal' WHERE container_id = ? AND number <= 5").bind(id).run();
    await catalogueChanged();
    counts.set(id, 5);
    expect(await allIds("/v4/containers.json?sort=number")).toEqual(byNumber(pub));
  });

  it("recounts for the new main child when a container changes type", async () => {
    const c = await createContainer({ type: "series", hosted: false, title: "Type changer" });
    for (const [type, number] of [
      ["episode", 1],
      ["episode", 2],
      ["episode", 3],
      ["movie", 1],
    ] as const) {
      await env.DB.prepare("INSERT INTO videos (container_id, type, number) VALUES (?, ?, ?)").bind(c.id, type, number).run();
    }
    const facetCounts = async () =>
      (
        await env.DB.prepare("SELECT DISTINCT video_count AS n FROM container_facets WHERE container_id = ?")
          .bind(c.id)
          .all<{ n: number }>()
      ).results.map((r) => r.n);
    expect(await facetCounts()).toEqual([3]);
    await env.DB.prepare("UPDATE containers SET type = 'film' WHERE id = ?").bind(c.id).run();
    expect(await facetCounts()).toEqual([1]);
    await env.DB.prepare("UPDATE containers SET hosted = 1 WHERE id = ?").bind(c.id).run(); // facet rebuild
    expect(await facetCounts()).toEqual([1]);
    await env.DB.prepare("DELETE FROM containers WHERE id = ?").bind(c.id).run();
  });
});

describe("GET /v4/containers/all.json", () => {
  it("lists every normal-state container alphabetically in the concise form, from KV once built", async () => {
    await env.CACHE.delete(KV_KEYS.allContainers);
    const res = await api("/v4/containers/all.json");
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListBody;
    expect(body.more).toBe(false);
    expect(body.response.map((c: { id: string }) => c.id)).toEqual(readingOrder(model.filter((m) => m.state === "normal")));
    const first = model.find((m) => `${m.id}c` === body.response[0].id)!;
    expect(body.response[0]).toEqual({
      id: `${first.id}c`,
      type: first.type,
      titles: { en: first.title },
      url: {
        api: `https://api.test/v4/${first.type === "film" ? "films" : first.type === "artist" ? "artists" : first.type}/${first.id}c.json`,
      },
    });
    expect(res.headers.get("etag")).toBeTruthy();

    await catalogueChanged(); // past the edge cache, so that this read shows KV's
    const cached = await api("/v4/containers/all.json");
    expect(rowsRead(cached)).toBe(0);
    const added = await createContainer({ type: "film", title: "Aaaa first of all" });
    await env.CACHE.delete(KV_KEYS.allContainers); // what invalidateCatalogueListings does for writers
    const fresh = (await (await api("/v4/containers/all.json")).json()) as ListBody;
    expect(fresh.response[0]).toMatchObject({ id: added.wireId, titles: { en: "Aaaa first of all" } });
  });

  it("sorts as people read: case and accents do not count, equal titles by id", async () => {
    const made: Record<string, string> = {};
    for (const title of ["Zebra", "Ébène", "eagle", "Banana", "apple", "Apple", "ébène"]) {
      made[(await createContainer({ type: "news", title })).wireId] = title;
    }
    await env.CACHE.delete(KV_KEYS.allContainers);
    const res = await api("/v4/containers/all.json");
    const body = (await res.json()) as ListBody;
    const titles = body.response.filter((c: { id: string }) => c.id in made).map((c: { id: string }) => made[c.id]);
    expect(titles).toEqual(["apple", "Apple", "Banana", "eagle", "Ébène", "ébène", "Zebra"]);
    // Building it reads every container once (no index order needed any more); it is then served from KV.
    expect(rowsRead(res)).toBeLessThanOrEqual(model.length + 20);
    // Cached in KV: the next read costs no row and keeps the order.
    await catalogueChanged(); // past the edge cache, so that this read shows KV's
    const again = await api("/v4/containers/all.json");
    expect(rowsRead(again)).toBe(0);
    expect(((await again.json()) as ListBody).response.map((c: { id: string }) => c.id)).toEqual(
      body.response.map((c: { id: string }) => c.id),
    );
  });
});

describe("GET /v4/containers/genres.json", () => {
  type GenreItem = { id: string; name: { en: string }; set: string };
  const GENERAL = [
    ...Array.from({ length: 14 }, (_, i) => `${i + 1}g`),
    "16g",
    "15g",
    ...Array.from({ length: 6 }, (_, i) => `${17 + i}g`),
  ];
  const MUSIC = Array.from({ length: 12 }, (_, i) => `${23 + i}g`);

  it("answers both sets as a bare array, general (16 before 15) then music, each item with its set", async () => {
    for (const key of ["all", "general", "music"] as const) await env.CACHE.delete(KV_KEYS.genres(key));
    const res = await api("/v4/containers/genres.json");
    expect(res.status).toBe(200);
    const body = (await res.json()) as GenreItem[];
    expect(body.map((g) => g.id)).toEqual([...GENERAL, ...MUSIC]);
    expect(body[0]).toEqual({ id: "1g", name: { en: "Action & Adventure" }, set: "general" });
    expect(body[22]).toEqual({ id: "23g", name: { en: "K-Pop" }, set: "music" });
    expect(body.filter((g) => g.set === "music").map((g) => g.id)).toEqual(MUSIC);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(rowsRead(res)).toBeLessThanOrEqual(34);
    await catalogueChanged(); // past the edge cache, so that this read shows KV's
    expect(rowsRead(await api("/v4/containers/genres.json"))).toBe(0); // from KV
  });

  it("keeps one set for set= or type=, each cached under its own key, and 400 for a bad type or set", async () => {
    for (const q of ["type=artist", "type=artists", "set=music", "set=music&type=film"]) {
      const body = (await (await api(`/v4/containers/genres.json?${q}`)).json()) as GenreItem[];
      expect(
        body.map((g) => g.id),
        q,
      ).toEqual(MUSIC);
      expect(new Set(body.map((g) => g.set)), q).toEqual(new Set(["music"]));
    }
    for (const q of ["type=film", "type=films", "type=series", "set=general", "set=general&type=artist"]) {
      const body = (await (await api(`/v4/containers/genres.json?${q}`)).json()) as GenreItem[];
      expect(
        body.map((g) => g.id),
        q,
      ).toEqual(GENERAL);
    }
    expect(((await env.CACHE.get(KV_KEYS.genres("music"), "json")) as GenreItem[]).map((g) => g.id)).toEqual(MUSIC);
    expect(((await env.CACHE.get(KV_KEYS.genres("general"), "json")) as GenreItem[]).map((g) => g.id)).toEqual(GENERAL);
    for (const [q, field] of [
      ["type=movie", "type"],
      ["set=pop", "set"],
    ]) {
      const bad = await api(`/v4/containers/genres.json?${q}`);
      expect(bad.status, q).toBe(400);
      expect((await errorBody(bad)).details?.[0].field, q).toBe(field);
    }
  });
});

describe("OpenAPI", () => {
  it("documents the listing with its limits, threshold and parameters", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, any> };
    const listing = doc.paths["/v4/containers.json"].get;
    expect(listing.description).toContain("at most 25");
    const completion = listing.parameters.find((p: { name: string }) => p.name === "subtitle_completion");
    expect(completion.description).toContain("50%");
    const names = listing.parameters.map((p: { name: string }) => p.name);
    for (const n of [
      "ids",
      "type",
      "genre",
      "origin_country",
      "subtitle_completion",
      "family_friendly",
      "hosted",
      "licensed",
      "sort",
      "direction",
      "page",
      "per_page",
      "with_paging",
      "only_ids",
    ]) {
      expect(names).toContain(n);
    }
    for (const p of [
      "/v4/films.json",
      "/v4/artists.json",
      "/v4/containers/all.json",
      "/v4/containers/genres.json",
      "/v4/containers/{container_id}/episodes.json",
      "/v4/series/{container_id}/episodes.json",
    ]) {
      expect(doc.paths[p]?.get, p).toBeTruthy();
    }
  });
});

describe("rows read (docs/spec/limits.md#rows-read-budgets)", () => {
  it("stays within 200 rows per page of 25 and 10 rows per bulk id", () => {
    console.log(
      `rows read on ${SIZE} containers:\n${Object.entries(measured)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join("\n")}`,
    );
    for (const [k, v] of Object.entries(measured)) expect(v, k).toBeLessThanOrEqual(k.startsWith("ids") ? 250 : 200);
  });
});
