import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { subtitleCompletions, licenses, containers } from "../../src/db/schema";
import { api, db } from "../helpers";
import { catalogueChanged, createContainer, createVideo } from "../helpers/catalogue";
import { v3Token } from "../helpers/v3";

let token: string;
let film: Awaited<ReturnType<typeof createContainer>>;
let movieId: number;

beforeAll(async () => {
  token = await v3Token();
  film = await createContainer({
    type: "film",
    originCountry: "fr",
    title: "Quiet Harbour",
    titles: { fr: "Port tranquille" },
    genres: [9],
    regions: ["fr"],
  });
  movieId = (await createVideo(film.id, { type: "movie", number: 1 })).id;
  await db().insert(subtitleCompletions).values({ resourceKind: "c", resourceId: film.id, language: "de", percent: 95 });
  const series = await createContainer({ type: "series", originCountry: "kr", title: "Moon River Love", genres: [18, 6] });
  await createVideo(series.id, { number: 1 });
  await db().insert(subtitleCompletions).values({ resourceKind: "c", resourceId: series.id, language: "es", percent: 60 });
  for (let i = 0; i < 3; i++) {
    const up = await createContainer({
      type: i === 2 ? "series" : "film",
      upcoming: true,
      originCountry: "us",
      title: `Soon ${i}`,
      titles: i === 0 ? { ko: `곧 ${i}` } : {},
      descriptions: { en: `Coming ${i}` },
      releaseDate: `2027-0${i + 1}-01`,
      genres: [1],
    });
    await db()
      .insert(licenses)
      .values({ containerId: up.id, region: "us", platform: i === 1 ? "tv" : "web" });
  }
  await createContainer({ type: "artist", title: "Moon Singers", genres: [23] });
  await createContainer({ type: "news", title: "Moon Report Daily" });
});

describe("v3 genres", () => {
  it("lists the 22 genres of the interface, id 16 before id 15", async () => {
    const res = await api("/api/v3/genres/movies.json", { query: { access_token: token } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; pagination: unknown; response: Array<{ id: number; name: string }> };
    expect(body.count).toBe(22);
    expect(body.pagination).toEqual({ previous: "", next: "" });
    const ids = body.response.map((g) => g.id);
    expect(ids.indexOf(16)).toBe(ids.indexOf(15) - 1);
    expect(body.response[0]).toEqual({ id: 1, name: "Action & Adventure" });
  });

  it("keeps genres with matching resources for each filter", async () => {
    const names = async (path: string) =>
      ((await (await api(path, { query: { access_token: token } })).json()) as { response: Array<{ id: number }> }).response.map(
        (g) => g.id,
      );
    expect(await names("/api/v3/genres/movies.json?origin_country=fr")).toEqual([9]);
    expect(await names("/api/v3/genres/series.json?origin_country=KR")).toEqual([6, 18]);
    expect(await names("/api/v3/genres/movies.json?subtitle_language=de")).toEqual([9]);
    expect(await names("/api/v3/genres/series.json?subtitle_language=es")).toEqual([]); // 60% < 90%
    expect(await names("/api/v3/genres/movies.json?watchable_in=fr&platform=web")).toEqual([9]);
    expect(await names("/api/v3/genres/movies.json?watchable_in=fr&platform=tv")).toEqual([]);
  });

  it("refuses platform without watchable_in", async () => {
    for (const kind of ["series", "music_videos"]) {
      const res = await api(`/api/v3/genres/${kind}.json?platform=web`, { query: { access_token: token } });
      expect(res.status, kind).toBe(400);
      expect(await res.json()).toEqual({ message: expect.stringContaining("platform"), status: 400, request_id: expect.any(String) });
    }
  });
});

describe("v3 genres of music videos (the music set, which artists carry)", () => {
  const ids = async (path: string) => {
    const res = await api(path, { query: { access_token: token } });
    expect(res.status, path).toBe(200);
    return ((await res.json()) as { response: Array<{ id: number; name: string }> }).response.map((g) => g.id);
  };

  beforeAll(async () => {
    const a = await createContainer({ type: "artist", originCountry: "jp", title: "Lantern Choir", genres: [27, 24] });
    await db().insert(licenses).values({ containerId: a.id, region: "jp", platform: "web" });
    await db().insert(subtitleCompletions).values({ resourceKind: "c", resourceId: a.id, language: "fr", percent: 95 });
    await createVideo(a.id, { type: "music_video", number: 1 });
    const b = await createContainer({ type: "artist", originCountry: "tw", title: "Paper Kites", genres: [26] });
    await db().insert(licenses).values({ containerId: b.id, region: "tw", platform: "tv" });
    // A fan channel (not hosted) never counts, and a film from jp keeps its genre out of the music listing.
    await createContainer({ type: "artist", originCountry: "jp", hosted: false, title: "Garage Band", genres: [30] });
    await createContainer({ type: "film", originCountry: "jp", title: "Tokyo Drift Film", genres: [1] });
  });

  it("lists the music set unfiltered, in listing order", async () => {
    const res = await api("/api/v3/genres/music_videos.json", { query: { access_token: token } });
    const body = (await res.json()) as { count: number; response: Array<{ id: number; name: string }> };
    expect(body.count).toBe(12);
    expect(body.response.map((g) => g.id)).toEqual(Array.from({ length: 12 }, (_, i) => 23 + i));
    expect(body.response[0]).toEqual({ id: 23, name: "K-Pop" });
  });

  it("keeps music genres of matching artists for each filter", async () => {
    expect(await ids("/api/v3/genres/music_videos.json?origin_country=jp")).toEqual([24, 27]);
    expect(await ids("/api/v3/genres/music_videos.json?origin_country=TW")).toEqual([26]);
    expect(await ids("/api/v3/genres/music_videos.json?origin_country=kr")).toEqual([23]); // Moon Singers
    expect(await ids("/api/v3/genres/music_videos.json?origin_country=us")).toEqual([]);
    expect(await ids("/api/v3/genres/music_videos.json?subtitle_language=fr")).toEqual([24, 27]);
    expect(await ids("/api/v3/genres/music_videos.json?watchable_in=jp&platform=web")).toEqual([24, 27]);
    expect(await ids("/api/v3/genres/music_videos.json?watchable_in=jp&platform=tv")).toEqual([]);
    expect(await ids("/api/v3/genres/music_videos.json?watchable_in=tw")).toEqual([26]);
    expect(await ids("/api/v3/genres/music_videos.json?watchable_in=tw&platform=tv&origin_country=tw")).toEqual([26]);
    // The film from jp stays in the general listings and out of this one.
    expect(await ids("/api/v3/genres/movies.json?origin_country=jp")).toEqual([1]);
  });

  it("answers 400 for malformed filters", async () => {
    for (const q of ["origin_country=japan", "subtitle_language=f", "watchable_in=jp&platform=vr"]) {
      expect((await api(`/api/v3/genres/music_videos.json?${q}`, { query: { access_token: token } })).status, q).toBe(400);
    }
  });
});

describe("v3 coming soon", () => {
  it("pages with absolute next/previous links and v3 item fields", async () => {
    const res = await api("/api/v3/coming_soon.json?per_page=2", { query: { access_token: token } });
    const body = (await res.json()) as {
      count: number;
      pagination: { previous: string; next: string };
      response: Array<Record<string, unknown>>;
    };
    expect(body.count).toBe(2);
    expect(body.pagination.previous).toBe("");
    expect(body.pagination.next).toMatch(/^https:\/\/api\.test\/api\/v3\/coming_soon\.json\?.*page=2/);
    expect(body.response[0]).toMatchObject({
      title: "Soon 0",
      title_language: "en",
      description: "Coming 0",
      description_language: "en",
      type: "movie",
    });
    expect(body.response[0].created_at).toMatch(/^[A-Z][a-z]+ \d\d, \d{4} \d\d:\d\d$/);
    expect(body.response[0].genres).toEqual([{ id: 1, name: "Action & Adventure" }]);
    // Links carry no credentials (the client adds its own access_token, as the v3 gem does).
    expect(body.pagination.next).not.toContain("access_token");
    const page2 = (await (await api(body.pagination.next, { query: { access_token: token } })).json()) as {
      response: unknown[];
      pagination: { previous: string };
    };
    expect(page2.response).toHaveLength(1);
    expect(page2.pagination.previous).toContain("page=1");
  });

  it("answers titles in the asked language, falling back to English", async () => {
    const body = (await (await api("/api/v3/coming_soon/movies.json?language=ko", { query: { access_token: token } })).json()) as {
      response: Array<Record<string, string>>;
    };
    expect(body.response.map((r) => [r.title, r.title_language])).toEqual([
      ["곧 0", "ko"],
      ["Soon 1", "en"],
    ]);
  });

  it("filters by type, region and platform", async () => {
    const series = (await (await api("/api/v3/coming_soon/series.json", { query: { access_token: token } })).json()) as {
      response: Array<{ type: string }>;
    };
    expect(series.response.map((r) => r.type)).toEqual(["series"]);
    const tv = (await (await api("/api/v3/coming_soon.json?watchable_in=us&platform=tv", { query: { access_token: token } })).json()) as {
      response: Array<{ title: string }>;
    };
    expect(tv.response.map((r) => r.title)).toEqual(["Soon 1"]);
  });
});

describe("v3 search", () => {
  it("requires a query", async () => {
    expect((await api("/api/v3/search.json", { query: { access_token: token } })).status).toBe(400);
  });

  it("finds movies, series, artists and news in any language's titles", async () => {
    const body = (await (await api("/api/v3/search.json?query=moon", { query: { access_token: token } })).json()) as {
      response: Array<{ type: string; resource: Record<string, unknown> }>;
    };
    const types = body.response.map((r) => [r.type, r.resource.title]).sort();
    expect(types).toEqual([
      ["other", "Moon Report Daily"],
      ["other", "Moon Singers"],
      ["series", "Moon River Love"],
    ]);
    const series = body.response.find((r) => r.type === "series")!.resource;
    expect(series).toMatchObject({
      uri: expect.stringMatching(/\/api\/v3\/series\/\d+\.json$/),
      episodes: { count: 1 },
      subtitles: { es: 60 },
    });

    const fr = (await (await api("/api/v3/search.json?query=tranquille", { query: { access_token: token } })).json()) as {
      response: Array<{ type: string; resource: Record<string, unknown> }>;
    };
    expect(fr.response).toHaveLength(1);
    expect(fr.response[0]).toMatchObject({
      type: "movie",
      resource: { id: movieId, channel_id: film.id, origin_country: "France", formats: { flash_embed: expect.any(String) } },
    });

    const soon = (await (await api("/api/v3/search.json?query=soon", { query: { access_token: token } })).json()) as {
      response: Array<{ type: string; resource: { type: string } }>;
    };
    expect(soon.response.map((r) => [r.type, r.resource.type]).sort()).toEqual([
      ["coming_soon", "movie"],
      ["coming_soon", "movie"],
      ["coming_soon", "other"],
    ]);
  });

  it("links series to an episodes listing that answers", async () => {
    const body = (await (await api("/api/v3/search.json?query=river", { query: { access_token: token } })).json()) as {
      response: Array<{ resource: { episodes: { uri: string } } }>;
    };
    const episodes = (await (await api(body.response[0].resource.episodes.uri, { query: { access_token: token } })).json()) as {
      count: number;
      response: Array<Record<string, unknown>>;
    };
    expect(episodes.count).toBe(1);
    expect(episodes.response[0]).toMatchObject({ number: 1, created_at: expect.stringMatching(/^[A-Z][a-z]+ \d\d, \d{4}/) });
  });

  it("honours platform together with watchable_in, as coming soon does", async () => {
    const web = await createContainer({ type: "film", title: "Quokka Festival" });
    await db().insert(licenses).values({ containerId: web.id, region: "au", platform: "web" });
    const tv = await createContainer({ type: "series", title: "Quokka Road" });
    await db()
      .insert(licenses)
      .values([
        { containerId: tv.id, region: "au", platform: "tv" },
        { containerId: tv.id, region: "nz", platform: "web" },
      ]);
    await createContainer({ type: "news", title: "Quokka News" }); // no licence: not watchable in any named region
    const titles = async (q: string) => {
      const res = await api(`/api/v3/search.json?query=quokka${q}`, { query: { access_token: token } });
      expect(res.status, q).toBe(200);
      return ((await res.json()) as { response: Array<{ resource: { title: string } }> }).response.map((r) => r.resource.title).sort();
    };
    expect(await titles("")).toEqual(["Quokka Festival", "Quokka News", "Quokka Road"]);
    expect(await titles("&watchable_in=AU")).toEqual(["Quokka Festival", "Quokka Road"]);
    expect(await titles("&watchable_in=au&platform=web")).toEqual(["Quokka Festival"]);
    expect(await titles("&watchable_in=au&platform=tv")).toEqual(["Quokka Road"]);
    expect(await titles("&watchable_in=au&platform=mobile")).toEqual([]);
    expect(await titles("&watchable_in=nz&platform=web")).toEqual(["Quokka Road"]);
    for (const q of ["&platform=tv", "&watchable_in=au&platform=vr", "&watchable_in=aus"]) {
      const res = await api(`/api/v3/search.json?query=quokka${q}`, { query: { access_token: token } });
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { status: number }).status).toBe(400);
    }
  });

  it("follows title changes", async () => {
    const c = await createContainer({ type: "news", title: "Zebra Bulletin" });
    expect(
      ((await (await api("/api/v3/search.json?query=zebra", { query: { access_token: token } })).json()) as { response: unknown[] })
        .response,
    ).toHaveLength(1);
    await api(`/v4/containers/${c.wireId}.json`); // unrelated read keeps nothing stale
    await db().update(containers).set({ state: "blocked" }).where(eq(containers.id, c.id));
    await catalogueChanged();
    expect(
      ((await (await api("/api/v3/search.json?query=zebra", { query: { access_token: token } })).json()) as { response: unknown[] })
        .response,
    ).toHaveLength(0);
  });
});

describe("v3 movies, XML and deprecation", () => {
  it("lists movies with the v3 movie fields at /v3/movies.json and /api/v3/movies.json", async () => {
    for (const path of ["/v3/movies.json", "/api/v3/movies.json"]) {
      const body = (await (await api(path, { query: { access_token: token } })).json()) as { response: Array<Record<string, unknown>> };
      const movie = body.response.find((m) => m.id === movieId)!;
      expect(movie).toMatchObject({
        title: "Quiet Harbour",
        channel_id: film.id,
        uri: expect.stringContaining(`/api/v3/movies/${movieId}.json`),
        genres: [{ id: 9, name: "Drama" }],
      });
      expect(Object.keys(movie)).toEqual(
        expect.arrayContaining(["description", "created_at", "origin_country", "image", "subtitles", "formats"]),
      );
    }
  });

  it("answers every v3 path in XML too", async () => {
    for (const path of ["/api/v3/genres/movies.xml", "/api/v3/coming_soon.xml", "/api/v3/search.xml?query=moon", "/v3/movies.xml"]) {
      const res = await api(path, { query: { access_token: token } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/xml");
      const text = await res.text();
      expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><response><count>\d+<\/count>/);
    }
    const genres = await (await api("/api/v3/genres/movies.xml", { query: { access_token: token } })).text();
    expect(genres).toContain("<response><id>1</id><name>Action &amp; Adventure</name></response>");
  });

  it("marks v3 responses deprecated with a link to the v4 equivalent", async () => {
    const res = await api("/api/v3/coming_soon.json", { query: { access_token: token } });
    expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
    expect(res.headers.get("link")).toContain('</v4/lists/6l.json>; rel="successor-version"'.replace("</", "<https://api.test/"));
  });
});
