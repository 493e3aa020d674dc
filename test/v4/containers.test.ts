import { beforeAll, describe, expect, it } from "vitest";
import { api, createUser, login, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

let series: Awaited<ReturnType<typeof createContainer>>;
let hidden: Awaited<ReturnType<typeof createContainer>>;
let manager: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  manager = await signedInUser();
  series = await createContainer({
    type: "series",
    title: "Single Princesses",
    titles: { ko: "싱글 공주" },
    descriptions: { en: "Dates." },
    genres: [6, 18],
    managers: [manager.user.id],
    posterUrl: "https://img.test/p.jpg",
    averageRating: 9.1,
    ratingCount: 1200,
  });
  await createVideo(series.id, { number: 1, title: "Episode 1" });
  await createVideo(series.id, { number: 2 });
  await createVideo(series.id, { type: "trailer" });
  await createVideo(series.id, { number: 3, state: "pending" });
  hidden = await createContainer({ type: "film", state: "pending", managers: [manager.user.id] });
});

describe("GET /v4/containers/<id>.json", () => {
  it("answers the full container shape of docs/spec/wire.md in one D1 row", async () => {
    const res = await api(`/v4/containers/${series.wireId}.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({
      id: series.wireId,
      type: "series",
      origin: { country: "kr", language: "ko" },
      titles: { en: "Single Princesses", ko: "싱글 공주" },
      descriptions: { en: "Dates." },
      images: { poster: { url: "https://img.test/p.jpg" } },
      genres: ["6g", "18g"],
      subtitle_completions: {},
      managers: [{ id: manager.id, username: manager.user.username }],
      url: { api: `https://api.test/v4/series/${series.wireId}.json` },
      flags: { licensed: true, hosted: true, on_air: false, state: "normal", adult: false },
      review_stats: { average_rating: 9.1, count: 1200 },
      episodes: { count: 2, url: { api: `https://api.test/v4/containers/${series.wireId}/episodes.json` } },
      trailers: { count: 1 },
      blocked: false,
      blocking: { geo: false, paywall: false, upcoming: false },
    });
    expect(body.created_at).toMatch(/Z$/);
    expect(rowsRead(res)).toBeLessThanOrEqual(2);
  });

  it("is publicly cacheable with a strong ETag and answers 304 to If-None-Match", async () => {
    const res = await api(`/v4/containers/${series.wireId}.json`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await api(`/v4/containers/${series.wireId}.json`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
  });

  it("is never public for a request with a user token", async () => {
    const res = await api(`/v4/containers/${series.wireId}.json?token=${manager.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("etag")).toBeNull();
  });

  it("serves the pseudo-type path of the right type only", async () => {
    expect((await api(`/v4/series/${series.wireId}.json`)).status).toBe(200);
    expect((await api(`/v4/films/${series.wireId}.json`)).status).toBe(404);
  });

  it("404s malformed and missing ids", async () => {
    for (const id of ["abc", "12v", "999999c", "01c"]) {
      const res = await api(`/v4/containers/${id}.json`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "not found", vcode: 404, request_id: expect.any(String) });
    }
  });

  it("shows a pending container only to its managers and staff", async () => {
    expect((await api(`/v4/containers/${hidden.wireId}.json`)).status).toBe(404);
    const other = await signedInUser();
    expect((await api(`/v4/containers/${hidden.wireId}.json?token=${other.token}`)).status).toBe(404);
    expect((await api(`/v4/containers/${hidden.wireId}.json?token=${manager.token}`)).status).toBe(200);
    const admin = await createUser({ staff: true });
    const adminToken = await login(admin.user.username);
    expect((await api(`/v4/containers/${hidden.wireId}.json?token=${adminToken}`)).status).toBe(200);
  });
});

describe("GET /v4/videos/<id>.json", () => {
  it("answers the video with its container summary", async () => {
    const v = await createVideo(series.id, { number: 9, title: "Nine", duration: 394, hd: true });
    const res = await api(`/v4/videos/${v.wireId}.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: v.wireId,
      type: "episode",
      number: 9,
      duration: 394,
      titles: { en: "Nine" },
      descriptions: {},
      subtitle_completions: {},
      container: { id: series.wireId, type: "series", titles: { en: "Single Princesses" } },
      flags: { state: "normal", hd: true },
      blocked: false,
    });
    expect(rowsRead(res)).toBeLessThanOrEqual(2);
  });

  it("hides pending videos from the public", async () => {
    const v = await createVideo(series.id, { state: "blocked" });
    expect((await api(`/v4/videos/${v.wireId}.json`)).status).toBe(404);
    expect((await api(`/v4/videos/${v.wireId}.json?token=${manager.token}`)).status).toBe(200);
  });
});
