import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, errorBody, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

// GET /v4/search.json: what is never found, the filters, bad input and who may call (docs/api.md, "Search (v4)").
type Item = { id: string; blocking?: { geo: boolean } };
type Body = { more: boolean; response: Item[] };

const ids: Record<string, string> = {};

async function found(query: string, init: Parameters<typeof api>[1] = {}) {
  const res = await api(`/v4/search.json?${query}`, init);
  expect(res.status, `${query}: ${res.status === 200 ? "" : await res.clone().text()}`).toBe(200);
  return ((await res.json()) as Body).response.map((i) => i.id);
}

beforeAll(async () => {
  // Hidden in every way the listings hide: none of these may be found by "zircon".
  for (const [name, opts] of Object.entries({
    pending: { state: "pending" as const },
    blocked: { state: "blocked" as const },
    unhosted: { hosted: false },
    unlicensed: { licensed: false },
  })) {
    const c = await createContainer({ title: `Zircon ${name}`, ...opts });
    ids[`${name}Container`] = c.wireId;
    ids[`${name}Video`] = (await createVideo(c.id, { title: `Zircon ${name} episode` })).wireId;
  }
  const shown = await createContainer({ title: "Zircon Shown", views: 5 });
  ids.shown = shown.wireId;
  ids.shownEpisode = (await createVideo(shown.id, { number: 1, title: "Zircon Shown episode" })).wireId;
  ids.pendingEpisode = (await createVideo(shown.id, { number: 2, title: "Zircon pending episode", state: "pending" })).wireId;
  ids.blockedEpisode = (await createVideo(shown.id, { number: 3, title: "Zircon blocked episode", state: "blocked" })).wireId;
  ids.shownTrailer = (await createVideo(shown.id, { type: "trailer", title: "Zircon Shown trailer" })).wireId;
  const film = await createContainer({ type: "film", title: "Zircon Film", views: 4 });
  ids.film = film.wireId;
  ids.movie = (await createVideo(film.id, { type: "movie", title: "Zircon Film" })).wireId;
  ids.artist = (await createContainer({ type: "artist", title: "Zircon Band", views: 3 })).wireId;

  const adult = await createContainer({ title: "Garnet Nights", adult: true, views: 9 });
  ids.adult = adult.wireId;
  ids.adultVideo = (await createVideo(adult.id, { title: "Garnet Nights episode" })).wireId;
  ids.family = (await createContainer({ title: "Garnet Days", views: 1 })).wireId;

  ids.korea = (await createContainer({ title: "Topaz Korea", regions: ["kr"], views: 3 })).wireId;
  ids.anywhere = (await createContainer({ title: "Topaz Anywhere", views: 2 })).wireId;
  const us = await createContainer({ title: "Topaz America", regions: ["us"], views: 1 });
  ids.america = us.wireId;
  ids.americaClip = (await createVideo(us.id, { type: "clip", title: "Topaz America clip" })).wireId;
});

describe("visibility", () => {
  it("never finds hidden containers (pending, blocked, unhosted, unlicensed), their videos, or hidden videos", async () => {
    const all = await found("term=zircon&per_page=100");
    expect(all).toEqual(expect.arrayContaining([ids.shown, ids.shownEpisode, ids.shownTrailer, ids.film, ids.movie, ids.artist]));
    const hidden = Object.entries(ids).filter(
      ([name]) => /^(pending|blocked|unhosted|unlicensed)|Episode$/.test(name) && name !== "shownEpisode",
    );
    for (const [name, id] of hidden) expect(all, name).not.toContain(id);
    expect(all).toHaveLength(6);
  });

  it("never shows a hidden container to a token either (search shows the public catalogue)", async () => {
    const staff = await signedInUser({ staff: true });
    expect(await found("term=zircon%20pending", { token: staff.token })).toEqual([]);
  });

  it("family_friendly=1 (or true) leaves out adult containers and their videos", async () => {
    expect(await found("term=garnet")).toEqual([ids.adult, ids.family, ids.adultVideo]);
    expect(await found("term=garnet&family_friendly=1")).toEqual([ids.family]);
    expect(await found("term=garnet&family_friendly=true")).toEqual([ids.family]);
    expect(await found("term=garnet&family_friendly=0")).toHaveLength(3);
  });

  it("watchable_in keeps what may be watched there: unrestricted, or licensed for that region", async () => {
    expect(await found("term=topaz")).toEqual([ids.korea, ids.anywhere, ids.america, ids.americaClip]);
    expect(await found("term=topaz&watchable_in=kr")).toEqual([ids.korea, ids.anywhere]);
    expect(await found("term=topaz&watchable_in=US")).toEqual([ids.anywhere, ids.america, ids.americaClip]);
  });

  it("flags what the viewer's region may not watch (blocking.geo), as the listings do, without leaving it out", async () => {
    const inKorea = { cf: { country: "KR" } } as Parameters<typeof api>[1];
    const res = await api("/v4/search.json?term=topaz", inKorea);
    const geo = Object.fromEntries(((await res.json()) as Body).response.map((i) => [i.id, i.blocking?.geo]));
    expect(geo).toEqual({ [ids.korea]: false, [ids.anywhere]: false, [ids.america]: true, [ids.americaClip]: true });
  });
});

describe("type filter", () => {
  it("keeps the types named: container types, video types, or both", async () => {
    expect(await found("term=zircon&type=series")).toEqual([ids.shown]);
    expect(await found("term=zircon&type=films")).toEqual([ids.film]);
    expect(await found("term=zircon&type=film,movie")).toEqual([ids.film, ids.movie]);
    expect(await found("term=zircon&type=episode,trailer")).toEqual([ids.shownEpisode, ids.shownTrailer]);
    expect(await found("term=zircon&type=artist,%20Episode")).toEqual([ids.artist, ids.shownEpisode]);
    expect(await found("term=zircon&type=news")).toEqual([]);
    expect(await found("term=zircon&type=")).toHaveLength(6);
  });
});

describe("bad input: a 400 naming the field, never a 500", () => {
  const CASES: Array<[string, string, string]> = [
    ["no term", "", "term"],
    ["empty term", "term=", "term"],
    ["blank term", "term=%20%20", "term"],
    ["term too long", `term=${"a".repeat(201)}`, "term"],
    ["term without words", "term=%21%3F%21", "term"],
    ["q without words", "q=%2D%2D", "q"],
    ["c without words", "c=%2A", "c"],
    ["c with term", "c=zir&term=zircon", "c"],
    ["unknown type", "term=zircon&type=series,show", "type"],
    ["bad language", "term=zircon&language=english!", "language"],
    ["bad watchable_in", "term=zircon&watchable_in=usa", "watchable_in"],
    ["bad family_friendly", "term=zircon&family_friendly=maybe", "family_friendly"],
  ];
  for (const [what, query, field] of CASES) {
    it(`${what}: 400 naming ${field}`, async () => {
      const res = await api(`/v4/search.json?${query}`);
      expect(res.status, what).toBe(400);
      const body = await errorBody(res);
      expect(body.vcode).toBe(5002);
      expect(body.details?.map((d) => d.field)).toContain(field);
    });
  }

  it("reads hostile terms as words: quotes, FTS syntax, NUL and other control characters", async () => {
    for (const term of [
      '"zircon',
      "zircon*",
      "zircon OR NEAR(",
      "zircon\u0000shown",
      "zircon\u0007",
      "-zircon",
      "zircon:shown",
      "^zircon",
    ]) {
      const res = await api(`/v4/search.json?term=${encodeURIComponent(term)}`);
      expect(res.status, JSON.stringify(term)).toBe(200);
    }
    expect(await found(`term=${encodeURIComponent("zircon\u0000shown")}&type=series`)).toEqual([ids.shown]);
  });

  it("takes 200 characters, and ignores words past the eighth", async () => {
    expect((await api(`/v4/search.json?term=${"a".repeat(200)}`)).status).toBe(200);
    expect(await found("term=zircon%20shown%20a%20b%20c%20d%20e%20f%20g%20h&type=series")).toEqual([]);
    expect(await found("term=zircon%20shown%20zircon%20shown%20zircon%20shown%20zircon%20shown%20nothing&type=series")).toEqual([
      ids.shown,
    ]);
  });
});

describe("who may call: anyone, with the same answer", () => {
  it("answers another user's token the public results, privately, in one round trip", async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const anonymous = await found("term=zircon");
    for (const who of [alice, bob]) {
      const res = await api("/v4/search.json?term=zircon", { token: who.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("server-timing")).toMatch(/d1-trips;desc="1"/);
      expect(((await res.json()) as Body).response.map((i) => i.id)).toEqual(anonymous);
    }
    // A dead token on a public read is no token (docs/api.md, "What the API tolerates").
    const dead = await api("/v4/search.json?term=zircon", { token: "not-a-session" });
    expect(dead.status).toBe(200);
    expect(dead.headers.get("x-token-ignored")).toBe("invalid");
  });

  it("treats an unsigned unknown app= as none, refuses a signed one (401), answers a signed known one uncached", async () => {
    const unknown = await api("/v4/search.json?term=zircon&app=999999a", { unsigned: true });
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get("x-app-ignored")).toBe("unknown");
    const forged = await api("/v4/search.json?term=zircon&app=999999a", {
      headers: { timestamp: String(Math.floor(Date.now() / 1000)), signature: "00" },
    });
    expect(forged.status).toBe(401);
    expect((await errorBody(forged)).vcode).toBe(4);
    const app = await createApplication();
    const signed = await api("/v4/search.json?term=zircon", { app: app.wireId });
    expect(signed.status).toBe(200);
    expect(signed.headers.get("cache-control")).toBe("private, no-store");
  });
});
