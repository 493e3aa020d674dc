import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { licenses } from "../../src/db/schema";
import { issueV3Token } from "../../src/lib/v3-tokens";
import { api, createApplication, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { rubyEscape, type Json } from "./wire";

// The v3 gem (vireshas/viki-gem 1.0.x): docs/clients.md, "v3 Ruby gem". HTTParty puts `access_token` first,
// then the call's own parameters; pagination links are fetched as given with `access_token` appended.
const SECRET = "v3-gem-client-secret";
let clientId: string;
let series: Awaited<ReturnType<typeof createContainer>>;
let movieId: number;

/** `Viki.new(id, secret)`: POST /oauth/token with the three fields in the query string and no body. */
async function authRequest(id: string, secret: string) {
  const q = `grant_type=client_credentials&client_id=${rubyEscape(id)}&client_secret=${rubyEscape(secret)}`;
  return api(`/oauth/token?${q}`, { method: "POST" });
}

async function accessToken() {
  const res = await authRequest(clientId, SECRET);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** `client.<chain>(params).get`: GET /api/v3/<chain>.json?access_token=…&<params>. */
const v3Get = (chain: string, token: string, params: Record<string, string | number> = {}) =>
  api(
    `/api/v3/${chain}.json?access_token=${token}${Object.entries(params)
      .map(([k, v]) => `&${k}=${rubyEscape(String(v))}`)
      .join("")}`,
  );

/** APIObject#next: the link as given, with HTTParty appending `&access_token=`. */
const followUrl = (link: string, token: string) => `${link}${link.includes("?") ? "&" : "?"}access_token=${token}`;

/** What APIObject reads: `response` (or the whole hash), `count`, and `pagination` strings it calls `empty?` on. */
async function apiObject(res: Response) {
  expect(res.status).toBe(200);
  const body = (await res.json()) as Json;
  if (body.pagination !== undefined) {
    expect(typeof body.pagination.next).toBe("string");
    expect(typeof body.pagination.previous).toBe("string");
  }
  if (body.count !== undefined) expect(Number.isInteger(body.count)).toBe(true);
  return body;
}

beforeAll(async () => {
  clientId = (await createApplication({ secret: SECRET })).wireId;
  const film = await createContainer({ type: "film", originCountry: "fr", title: "Harbour Lights", genres: [9], regions: ["us"] });
  movieId = (await createVideo(film.id, { type: "movie", number: 1 })).id;
  series = await createContainer({ type: "series", title: "Harbour Nights", genres: [18] });
  await createVideo(series.id, { number: 1 });
  for (let i = 0; i < 5; i++) {
    const up = await createContainer({
      type: i % 2 ? "series" : "film",
      upcoming: true,
      title: `Gem Soon ${i}`,
      releaseDate: `2027-0${i + 1}-01`,
      genres: [1],
    });
    await db().insert(licenses).values({ containerId: up.id, region: "us", platform: "web" });
  }
});

describe("auth_request", () => {
  it("client_credentials in the query of a bodiless POST: 200 with access_token", async () => {
    const res = await authRequest(clientId, SECRET);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ access_token: expect.any(String), expires_in: 86400 });
  });

  it("hostile: a wrong or missing secret is 401 with the error_description the gem raises", async () => {
    for (const res of [
      await authRequest(clientId, "wrong"),
      await api(`/oauth/token?grant_type=client_credentials&client_id=${clientId}`, { method: "POST" }),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "invalid_client", error_description: expect.any(String), request_id: expect.any(String) });
    }
  });
});

describe("catalogue calls", () => {
  it("client.genres.movies.get: 22 genres of {id: integer, name: string}", async () => {
    const body = await apiObject(await v3Get("genres/movies", await accessToken()));
    expect(body.count).toBe(22);
    expect(body.response[0]).toEqual({ id: 1, name: "Action & Adventure" });
    expect(body.pagination).toEqual({ previous: "", next: "" });
  });

  it("client.coming_soon(per_page: 2).get, then APIObject#next until next is empty; links carry no access_token", async () => {
    const token = await accessToken();
    let body = await apiObject(await v3Get("coming_soon", token, { per_page: 2 }));
    const seen: number[] = [];
    for (let hops = 0; ; hops++) {
      expect(hops).toBeLessThan(5);
      seen.push(...body.response.map((i: Json) => i.id));
      for (const item of body.response)
        expect(item).toMatchObject({ id: expect.any(Number), title: expect.any(String), type: expect.stringMatching(/^(movie|series)$/) });
      if (!body.pagination.next) break;
      const next: string = body.pagination.next;
      expect(next).not.toMatch(/[?&](access_token|token|sig|t)=/);
      expect(new URL(next).searchParams.get("per_page")).toBe("2");
      const url = followUrl(next, token);
      expect(new URL(url).searchParams.getAll("access_token")).toEqual([token]);
      body = await apiObject(await api(url));
      if (body.pagination.previous) expect(body.pagination.previous).not.toContain("access_token");
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it("client.coming_soon.movies.get keeps only movies", async () => {
    const body = await apiObject(await v3Get("coming_soon/movies", await accessToken()));
    expect(body.response.length).toBeGreaterThan(0);
    expect(body.response.every((i: Json) => i.type === "movie")).toBe(true);
  });

  it("client.search(query: ...).get: items of {type, resource}; no query is a 400 whose message names it", async () => {
    const token = await accessToken();
    const body = await apiObject(await v3Get("search", token, { query: "Harbour" }));
    const types = body.response.map((i: Json) => i.type).sort();
    expect(types).toEqual(["movie", "series"]);
    const movie = body.response.find((i: Json) => i.type === "movie").resource;
    expect(movie).toMatchObject({ title: "Harbour Lights", uri: expect.stringContaining("/api/v3/movies/") });
    const missing = await v3Get("search", token);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toContain("query");
  });

  it("client.movies.get, client.movies(id).get and client.series(id).episodes.get", async () => {
    const token = await accessToken();
    const list = await apiObject(await v3Get("movies", token));
    expect(list.response.map((m: Json) => m.id)).toContain(movieId);
    const one = await apiObject(await v3Get(`movies/${movieId}`, token));
    expect(one).toMatchObject({ id: movieId, title: expect.any(String), formats: { flash_embed: expect.any(String) } });
    const episodes = await apiObject(await v3Get(`series/${series.id}/episodes`, token));
    expect(episodes.response).toHaveLength(1);
    const missing = await v3Get("movies/999999999", token);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toEqual(expect.any(String));
  });
});

describe("token failures the gem handles", () => {
  it("an invalid token is 401 (the gem re-authenticates and repeats); an expired one 403 with a message", async () => {
    const bad = await v3Get("genres/series", "garbage");
    expect(bad.status).toBe(401);
    expect(await apiObject(await v3Get("genres/series", await accessToken()))).toMatchObject({ count: 22 });
    const expired = await issueV3Token(env.V3_TOKEN_SECRET, { clientId: 1 }, Math.floor(Date.now() / 1000) - 86401);
    const refused = await v3Get("genres/series", expired);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toEqual(expect.any(String));
  });
});
