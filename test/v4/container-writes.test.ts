import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PLATFORMS, containerFacets, containers, licenses } from "../../src/db/schema";
import { insertGenreLinks, insertLicenses, insertManagers, insertTexts, newContainerId } from "../../src/db/queries/catalogue-writes";
import { WRITE_LIMITS } from "../../src/routes/v4/contracts/catalogue-writes";
import { api, db, errorBody, staffManagerOther, type User } from "../helpers";
import { createVideo } from "../helpers/catalogue";
import { fieldsOf, minimal, post, put, read, managedBy } from "../helpers/container-writes";

let staff: User;
let manager: User;
let other: User;

beforeAll(async () => {
  ({ staff, manager, other } = await staffManagerOther());
});

describe("POST /v4/containers.json: happy path", () => {
  it("creates a container with every field and answers 201 with the container view", async () => {
    const res = await post(staff.token, {
      type: "series",
      origin: { country: "KR", language: "ko" },
      titles: { en: "  Love in Seoul ", ko: "서울의 사랑" },
      descriptions: { en: "A love story." },
      genres: ["18g", "6g", "6g"],
      flags: { hosted: true, licensed: false, adult: true, on_air: true, upcoming: true },
      images: { poster: { url: "https://img.test/love.jpg" } },
      release_date: "2013-10-22",
      licenses: [
        { region: "us", platforms: ["web", "mobile"] },
        { region: "kr", platforms: ["tv"] },
      ],
      managers: [manager.id],
      state: "normal",
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      type: "series",
      origin: { country: "kr", language: "ko" },
      titles: { en: "Love in Seoul", ko: "서울의 사랑" },
      descriptions: { en: "A love story." },
      genres: ["6g", "18g"],
      flags: { hosted: true, licensed: false, adult: true, on_air: true, upcoming: true, state: "normal" },
      images: { poster: { url: "https://img.test/love.jpg" } },
      release_date: "2013-10-22",
      managers: [{ id: manager.id, username: manager.user.username }],
      episodes: { count: 0 },
      blocked: true,
      blocking: { upcoming: true },
    });
    expect(body.id).toMatch(/^\d+c$/);
    expect(await read(body.id)).toEqual(body);

    const id = Number.parseInt(body.id, 10);
    const rows = await db().select().from(licenses).where(eq(licenses.containerId, id));
    expect(rows.map((r) => `${r.region}/${r.platform}`).sort()).toEqual(["kr/tv", "us/mobile", "us/web"]);
    const [row] = await db().select().from(containers).where(eq(containers.id, id));
    expect(row.sortTitle).toBe("love in seoul");
    expect(row.doc?.regions).toEqual(["kr", "us"]);
  });

  it("applies defaults to a minimal body", async () => {
    const res = await post(staff.token, minimal({ type: "film" }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      type: "film",
      descriptions: {},
      genres: [],
      managers: [],
      images: {},
      release_date: null,
      flags: { hosted: true, licensed: true, adult: false, on_air: false, upcoming: false, state: "normal" },
      movies: { count: 0 },
    });
  });

  it("gives artists the music genre set", async () => {
    const res = await post(staff.token, minimal({ type: "artist", genres: ["23g", "34g"] }));
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).genres).toEqual(["23g", "34g"]);
  });

  it("creates a pending container that only staff and its managers can read", async () => {
    const res = await post(staff.token, minimal({ state: "pending", managers: [manager.id] }));
    const { id } = (await res.json()) as { id: string };
    expect((await api(`/v4/containers/${id}.json`)).status).toBe(404);
    expect((await api(`/v4/containers/${id}.json`, { token: manager.token })).status).toBe(200);
  });

  it("documents the write routes in the OpenAPI document", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths["/v4/containers.json"]).toHaveProperty("post");
    expect(doc.paths["/v4/containers/{container_id}.json"]).toHaveProperty("put");
    expect(doc.paths["/v4/containers/{container_id}.json"]).toHaveProperty("delete");
  });
});

describe("multi-row inserts stay under D1's 100 bound parameters", () => {
  it("chunks every statement of a create at the field limits", async () => {
    // Distinct two-letter codes: aa, ba, ..., za, ab, ...
    const code = (i: number) => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
    const map = Object.fromEntries(
      ["en", ...Array.from({ length: WRITE_LIMITS.languages - 1 }, (_, i) => code(i))].map((l) => [l, `Title ${l}`]),
    );
    const regions = Array.from({ length: WRITE_LIMITS.licenses }, (_, i) => code(i));
    const rows = regions.flatMap((region) => PLATFORMS.map((platform) => ({ region, platform })));
    const d = db();
    const statements = [
      ...insertTexts(d, "title", "c", newContainerId, map),
      ...insertLicenses(d, newContainerId, rows),
      ...insertGenreLinks(
        d,
        1,
        Array.from({ length: 60 }, (_, i) => i + 1),
      ),
      ...insertManagers(
        d,
        1,
        Array.from({ length: 60 }, (_, i) => i + 1),
      ),
    ];
    for (const st of statements)
      expect((st as unknown as { toSQL(): { params: unknown[] } }).toSQL().params.length).toBeLessThanOrEqual(100);

    const res = await post(
      staff.token,
      minimal({ titles: map, descriptions: map, licenses: regions.map((region) => ({ region, platforms: PLATFORMS })) }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(Object.keys(body.titles)).toHaveLength(WRITE_LIMITS.languages);
    const stored = await db()
      .select()
      .from(licenses)
      .where(eq(licenses.containerId, Number.parseInt(body.id, 10)));
    expect(stored).toHaveLength(WRITE_LIMITS.licenses * PLATFORMS.length);
  });
});

describe("POST /v4/containers.json: bad input names the field", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["a wrong type", { flags: { hosted: "yes" } }, "flags.hosted"],
    ["an unknown container type", { type: "movie" }, "type"],
    ["a missing English title", { titles: { ko: "서울" } }, "titles.en"],
    ["an empty English title", { titles: { en: "   " } }, "titles.en"],
    ["a title over 200 characters", { titles: { en: "x".repeat(201) } }, "titles.en"],
    ["a description over 5000 characters", { descriptions: { en: "x".repeat(5001) } }, "descriptions.en"],
    ["a bad language key", { titles: { en: "A", english: "B" } }, "titles.english"],
    ["a bad country", { origin: { country: "KOR", language: "ko" } }, "origin.country"],
    ["a missing origin", { origin: undefined }, "origin"],
    ["a malformed genre", { genres: ["6"] }, "genres.0"],
    ["a malformed date", { release_date: "2013-13-40" }, "release_date"],
    ["a poster that is not a URL", { images: { poster: { url: "javascript:alert(1)" } } }, "images.poster.url"],
    ["an unknown platform", { licenses: [{ region: "us", platforms: ["vr"] }] }, "licenses.0.platforms.0"],
    ["a malformed manager id", { managers: ["12"] }, "managers.0"],
  ];
  it("ignores unknown fields, top-level and nested, and names them in x-ignored-fields", async () => {
    const res = await post(staff.token, minimal({ colour: "red", flags: { hosted: true, shiny: true } }));
    expect(res.status).toBe(201);
    expect(res.headers.get("x-ignored-fields")?.split(", ").sort()).toEqual(["colour", "flags.shiny"]);
  });
  for (const [what, over, field] of cases) {
    it(`refuses ${what} (${field})`, async () => {
      expect(await fieldsOf(await post(staff.token, minimal(over)))).toContain(field);
    });
  }

  it("refuses a genre of the wrong set, or one that does not exist, naming genres", async () => {
    expect(await fieldsOf(await post(staff.token, minimal({ type: "series", genres: ["6g", "23g"] })))).toEqual(["genres"]);
    expect(await fieldsOf(await post(staff.token, minimal({ type: "artist", genres: ["6g"] })))).toEqual(["genres"]);
    expect(await fieldsOf(await post(staff.token, minimal({ genres: ["99g"] })))).toEqual(["genres"]);
  });

  it("refuses managers that are not users", async () => {
    expect(await fieldsOf(await post(staff.token, minimal({ managers: ["999999999u"] })))).toEqual(["managers"]);
  });

  it("refuses malformed JSON", async () => {
    const res = await api(`/v4/containers.json?token=${staff.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"type": "series",',
    });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).vcode).toBe(5002);
  });
});

describe("POST /v4/containers.json: who may call it", () => {
  it("is 401 without a token, 403 for users and managers", async () => {
    const none = await post(undefined, minimal());
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    for (const u of [other, manager]) {
      const res = await post(u.token, minimal());
      expect(res.status).toBe(403);
      expect((await errorBody(res)).vcode).toBe(5403);
    }
    const dead = await post("not-a-session", minimal());
    expect(dead.status).toBe(401);
    expect((await errorBody(dead)).vcode).toBe(11);
  });
});

describe("PUT /v4/containers/<id>.json", () => {
  it("lets a manager edit content fields, visible on the next read", async () => {
    const c = await managedBy(manager, { genres: [6], posterUrl: "https://img.test/old.jpg", releaseDate: "2001-01-01" });
    const res = await put(c.wireId, manager.token, {
      origin: { country: "jp" },
      genres: ["9g", "18g"],
      flags: { adult: true, on_air: true, upcoming: false },
      images: { poster: { url: "https://img.test/new.jpg" } },
      release_date: null,
    });
    expect(res.status).toBe(200);
    const expected = {
      origin: { country: "jp", language: "ko" },
      genres: ["9g", "18g"],
      flags: { adult: true, on_air: true, upcoming: false, hosted: true, licensed: true, state: "normal" },
      images: { poster: { url: "https://img.test/new.jpg" } },
      release_date: null,
    };
    expect(await res.json()).toMatchObject(expected);
    expect(await read(c.wireId)).toMatchObject(expected);
    const facets = await db().select({ f: containerFacets.facet }).from(containerFacets).where(eq(containerFacets.containerId, c.id));
    expect(facets.map((r) => r.f)).toEqual(expect.arrayContaining(["country:jp", "genre:9", "genre:18"]));
    expect(facets.map((r) => r.f)).not.toContain("genre:6");

    const cleared = await put(c.wireId, manager.token, { images: { poster: null } });
    expect(((await cleared.json()) as any).images).toEqual({});
  });

  it("lets staff change state, type, managers, licences and the business flags", async () => {
    const c = await managedBy(manager, { type: "film", regions: ["us"] });
    const res = await put(c.wireId, staff.token, {
      type: "series",
      state: "pending",
      managers: [other.id],
      licenses: [{ region: "fr", platforms: ["tv"] }],
      flags: { hosted: false, licensed: false },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      type: "series",
      flags: { state: "pending", hosted: false, licensed: false },
      managers: [{ id: other.id }],
      episodes: { count: 0 },
    });
    expect((await api(`/v4/containers/${c.wireId}.json`)).status).toBe(404);
    expect((await api(`/v4/containers/${c.wireId}.json`, { token: other.token })).status).toBe(200);
    const rows = await db().select().from(licenses).where(eq(licenses.containerId, c.id));
    expect(rows.map((r) => `${r.region}/${r.platform}`)).toEqual(["fr/tv"]);
  });

  it("answers an empty body with the container unchanged", async () => {
    const c = await managedBy(manager);
    const res = await put(c.wireId, manager.token, {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).id).toBe(c.wireId);
  });

  it("refuses titles and descriptions, which have their own endpoints", async () => {
    const c = await managedBy(manager);
    expect(await fieldsOf(await put(c.wireId, staff.token, { titles: { en: "New" } }))).toEqual(["titles"]);
    expect(await fieldsOf(await put(c.wireId, staff.token, { descriptions: { en: "New" } }))).toEqual(["descriptions"]);
  });

  it("ignores unknown fields, reads 1/0 as booleans, refuses wrong types and genres of the wrong set", async () => {
    const c = await managedBy(manager);
    const ignored = await put(c.wireId, staff.token, { views: 1000, flags: { on_air: 1 } });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get("x-ignored-fields")).toBe("views");
    expect(await ignored.json()).toMatchObject({ flags: { on_air: true } });
    expect(await fieldsOf(await put(c.wireId, staff.token, { flags: { on_air: "maybe" } }))).toEqual(["flags.on_air"]);
    expect(await fieldsOf(await put(c.wireId, staff.token, { state: "deleted" }))).toEqual(["state"]);
    expect(await fieldsOf(await put(c.wireId, staff.token, { genres: ["25g"] }))).toEqual(["genres"]);
  });

  it("refuses a type its videos or genres do not fit", async () => {
    const film = await managedBy(manager, { type: "film" });
    await createVideo(film.id, { type: "movie" });
    expect(await fieldsOf(await put(film.wireId, staff.token, { type: "series" }))).toEqual(["type"]);
    expect((await put(film.wireId, staff.token, { type: "artist", genres: [] })).status).toBe(400);

    const series = await managedBy(manager, { type: "series", genres: [6] });
    expect(await fieldsOf(await put(series.wireId, staff.token, { type: "artist" }))).toEqual(["genres"]);
    const ok = await put(series.wireId, staff.token, { type: "artist", genres: ["23g"] });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ type: "artist", genres: ["23g"], music_videos: { count: 0 } });
  });

  it("is 401 without a token and 403 for another user", async () => {
    const c = await managedBy(manager);
    const none = await put(c.wireId, undefined, { flags: { on_air: true } });
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    const res = await put(c.wireId, other.token, { flags: { on_air: true } });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
    expect((await read(c.wireId)).flags.on_air).toBe(false);
  });

  it("refuses the staff-only fields to managers with 403 naming them", async () => {
    const c = await managedBy(manager);
    for (const [body, named] of [
      [{ state: "blocked" }, "state"],
      [{ managers: [manager.id, other.id] }, "managers"],
      [{ type: "film" }, "type"],
      [{ licenses: [] }, "licenses"],
      [{ flags: { hosted: false } }, "flags.hosted"],
      [{ flags: { licensed: false } }, "flags.licensed"],
    ] as const) {
      const res = await put(c.wireId, manager.token, body);
      expect(res.status).toBe(403);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5403);
      expect(err.error).toContain(named);
    }
    expect((await read(c.wireId)).flags.state).toBe("normal");
  });

  it("is 404 for missing containers, and for hidden ones to users who cannot see them", async () => {
    expect((await put("999999999c", staff.token, {})).status).toBe(404);
    expect((await put("abc", staff.token, {})).status).toBe(404);
    const hidden = await managedBy(manager, { state: "pending" });
    expect((await put(hidden.wireId, other.token, {})).status).toBe(404);
    expect((await put(hidden.wireId, manager.token, {})).status).toBe(200);
  });
});
