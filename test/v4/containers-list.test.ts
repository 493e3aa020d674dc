import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { KV_KEYS } from "../../src/services/kv-cache";
import { api, createApplication, errorBody, rowsRead } from "../helpers";
import { bulkSpec, expectedOrder, insertCatalogue, type ModelContainer } from "../helpers/bulk-catalogue";
import { createContainer } from "../helpers/catalogue";

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
    const ok = model.filter((m) => m.state === "normal").slice(0, 2).map((m) => `${m.id}c`);
    const q = ["abc", ok[1], "12v", "999999c", `${hidden.id}c`, "01c", ok[0], ok[1]].join(",");
    const { body } = await list(`/v4/containers.json?ids=(${q})`);
    expect(body.response.map((c: { id: string }) => c.id)).toEqual([ok[1], ok[0]]);
    const empty = await list("/v4/containers.json?ids=999998c");
    expect(empty.body).toEqual({ more: false, response: [] });
  });

  it("reads 25 ids at no more than 10 rows per id", async () => {
    const ids = model.filter((m) => m.state === "normal").slice(40, 65).map((m) => `${m.id}c`);
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
    ["type+genre+country+family+sub", "type=series&genre=1&origin_country=kr&family_friendly=1&subtitle_completion=en", (m) =>
      m.type === "series" && m.genres.includes(1) && m.country === "kr" && !m.adult && (m.subs.en ?? 0) >= 50],
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
      ["sort=number", "sort"],
      ["sort=popularity", "sort"],
      ["direction=up", "direction"],
      ["genre=abc", "genre"],
      ["genre=6c", "genre"],
      ["origin_country=korea", "origin_country"],
      ["subtitle_completion=english!", "subtitle_completion"],
      ["family_friendly=yes", "family_friendly"],
      ["hosted=no", "hosted"],
      ["type=movie", "type"],
    ];
    for (const [query, field] of cases) {
      const res = await api(`/v4/containers.json?${query}`);
      expect(res.status, query).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.field), query).toEqual([field]);
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

  it("serves /v4/films.json and the other pseudo-type listings like type=", async () => {
    for (const [pseudo, type] of [["films", "film"], ["series", "series"], ["news", "news"], ["artists", "artist"]] as const) {
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

describe("GET /v4/containers/all.json", () => {
  it("lists every normal-state container alphabetically in the concise form, from KV once built", async () => {
    await env.CACHE.delete(KV_KEYS.allContainers);
    const res = await api("/v4/containers/all.json");
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListBody;
    expect(body.more).toBe(false);
    expect(body.response.map((c: { id: string }) => c.id)).toEqual(expectedOrder(model, () => true, "title"));
    const first = model.find((m) => `${m.id}c` === body.response[0].id)!;
    expect(body.response[0]).toEqual({
      id: `${first.id}c`,
      type: first.type,
      titles: { en: first.title },
      url: { api: `https://api.test/v4/${first.type === "film" ? "films" : first.type === "artist" ? "artists" : first.type}/${first.id}c.json` },
    });
    expect(res.headers.get("etag")).toBeTruthy();

    const cached = await api("/v4/containers/all.json");
    expect(rowsRead(cached)).toBe(0);
    const added = await createContainer({ type: "film", title: "Aaaa first of all" });
    await env.CACHE.delete(KV_KEYS.allContainers); // what invalidateCatalogueListings does for writers
    const fresh = (await (await api("/v4/containers/all.json")).json()) as ListBody;
    expect(fresh.response[0]).toMatchObject({ id: added.wireId, titles: { en: "Aaaa first of all" } });
  });
});

describe("GET /v4/containers/genres.json", () => {
  it("answers the general set as a bare array in listing order (16 before 15)", async () => {
    const res = await api("/v4/containers/genres.json");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Array<{ id: string; name: { en: string } }>;
    expect(body).toHaveLength(22);
    expect(body[0]).toEqual({ id: "1g", name: { en: "Action & Adventure" } });
    const ids = body.map((g) => g.id);
    expect(ids.indexOf("16g")).toBe(ids.indexOf("15g") - 1);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(rowsRead(await api("/v4/containers/genres.json"))).toBe(0); // from KV
  });

  it("answers the music set for type=artist or set=music, and 400 for a bad type", async () => {
    for (const q of ["type=artist", "set=music"]) {
      const body = (await (await api(`/v4/containers/genres.json?${q}`)).json()) as Array<{ id: string }>;
      expect(body.map((g) => g.id)).toEqual(Array.from({ length: 12 }, (_, i) => `${23 + i}g`));
    }
    expect((await (await api("/v4/containers/genres.json?type=film")).json()) as unknown[]).toHaveLength(22);
    const bad = await api("/v4/containers/genres.json?type=movie");
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).details?.[0].field).toBe("type");
  });
});

describe("OpenAPI", () => {
  it("documents the listing with its limits, threshold and parameters", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, any> };
    const listing = doc.paths["/v4/containers.json"].get;
    expect(listing.description).toContain("at most 25");
    expect(listing.description).toContain("50%");
    const names = listing.parameters.map((p: { name: string }) => p.name);
    for (const n of ["ids", "type", "genre", "origin_country", "subtitle_completion", "family_friendly", "hosted", "licensed", "sort", "direction", "page", "per_page", "with_paging", "only_ids"]) {
      expect(names).toContain(n);
    }
    for (const p of ["/v4/films.json", "/v4/artists.json", "/v4/containers/all.json", "/v4/containers/genres.json", "/v4/containers/{container_id}/episodes.json", "/v4/series/{container_id}/episodes.json"]) {
      expect(doc.paths[p]?.get, p).toBeTruthy();
    }
  });
});

describe("rows read (DESIGN.md §7 budgets)", () => {
  it("stays within 200 rows per page of 25 and 10 rows per bulk id", () => {
    console.log(`rows read on ${SIZE} containers:\n${Object.entries(measured).map(([k, v]) => `  ${k}: ${v}`).join("\n")}`);
    for (const [k, v] of Object.entries(measured)) expect(v, k).toBeLessThanOrEqual(k.startsWith("ids") ? 250 : 200);
  });
});
