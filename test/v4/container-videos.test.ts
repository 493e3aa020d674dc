import { beforeAll, describe, expect, it } from "vitest";
import { api, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

type ListBody = { more: boolean; response: any[]; count?: number; pagination?: { previous: string | null; next: string | null } };
type Made = Awaited<ReturnType<typeof createVideo>>;

let series: Awaited<ReturnType<typeof createContainer>>;
let film: Awaited<ReturnType<typeof createContainer>>;
let hidden: Awaited<ReturnType<typeof createContainer>>;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let staff: Awaited<ReturnType<typeof signedInUser>>;
let other: Awaited<ReturnType<typeof signedInUser>>;
const episodes: Made[] = [];
let trailer: Made;
let clip: Made;
let pending: Made[];
let blocked: Made;
let movie: Made;

const ids = (body: ListBody) => body.response.map((v: { id: string }) => v.id);

async function list(path: string) {
  const res = await api(path);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return { res, body: (await res.json()) as ListBody };
}

async function expect400(path: string, field: string) {
  const res = await api(path);
  expect(res.status, path).toBe(400);
  const body = await errorBody(res);
  expect(body.vcode).toBe(5002);
  expect(
    body.details?.map((d) => d.field),
    path,
  ).toEqual([field]);
  return body;
}

beforeAll(async () => {
  [manager, staff, other] = await Promise.all([signedInUser(), signedInUser({ staff: true }), signedInUser()]);
  series = await createContainer({ type: "series", title: "Numbered", managers: [manager.user.id] });
  // Inserted out of number order, so id order and number order differ.
  for (const n of [5, 1, 30, 2, ...Array.from({ length: 26 }, (_, i) => i + 3).filter((n) => n !== 5), 29]) {
    episodes.push(await createVideo(series.id, { number: n, title: `Episode ${n}` }));
  }
  episodes.sort((a, b) => a.number! - b.number!);
  trailer = await createVideo(series.id, { type: "trailer", number: 0 });
  clip = await createVideo(series.id, { type: "clip", number: 100 });
  pending = [
    await createVideo(series.id, { number: 31, state: "pending" }),
    await createVideo(series.id, { number: 32, state: "pending" }),
  ];
  blocked = await createVideo(series.id, { number: 33, state: "blocked" });
  film = await createContainer({ type: "film", title: "A Film" });
  movie = await createVideo(film.id, { type: "movie", number: 1 });
  hidden = await createContainer({ type: "series", state: "pending", managers: [manager.user.id] });
  await createVideo(hidden.id, { number: 1 });
});

describe("GET /v4/containers/<id>/videos.json", () => {
  it("lists normal-state videos of every type by number, paged", async () => {
    const all = [trailer, ...episodes, clip].map((v) => v.wireId);
    const { res, body } = await list(`/v4/containers/${series.wireId}/videos.json`);
    expect(body.more).toBe(true);
    expect(ids(body)).toEqual(all.slice(0, 25));
    expect(body.response[1]).toMatchObject({
      id: episodes[0].wireId,
      type: "episode",
      number: 1,
      titles: { en: "Episode 1" },
      container: { id: series.wireId, type: "series", titles: { en: "Numbered" } },
      flags: { state: "normal" },
    });
    expect(rowsRead(res)).toBeLessThanOrEqual(60);
    const page2 = await list(`/v4/containers/${series.wireId}/videos.json?page=2`);
    expect(page2.body).toMatchObject({ more: false });
    expect(ids(page2.body)).toEqual(all.slice(25));
  });

  it("filters by type and number and orders by direction", async () => {
    expect(ids((await list(`/v4/containers/${series.wireId}/videos.json?type=trailer`)).body)).toEqual([trailer.wireId]);
    expect(ids((await list(`/v4/containers/${series.wireId}/videos.json?number=7`)).body)).toEqual([episodes[6].wireId]);
    const desc = await list(`/v4/containers/${series.wireId}/videos.json?sort=number&direction=desc&per_page=3`);
    expect(ids(desc.body)).toEqual([clip.wireId, episodes[29].wireId, episodes[28].wireId]);
  });

  it("lists pending or blocked videos only for managers and staff", async () => {
    const path = `/v4/containers/${series.wireId}/videos.json`;
    const anon = await api(`${path}?state=pending`);
    expect(anon.status).toBe(401);
    expect((await errorBody(anon)).vcode).toBe(4500);
    const forbidden = await api(`${path}?state=pending&token=${other.token}`);
    expect(forbidden.status).toBe(403);
    expect((await errorBody(forbidden)).vcode).toBe(5403);
    const mine = await list(`${path}?state=pending&token=${manager.token}`);
    expect(ids(mine.body)).toEqual(pending.map((v) => v.wireId));
    expect(mine.body.response[0].flags.state).toBe("pending");
    expect(mine.res.headers.get("cache-control")).toBe("private, no-store");
    const asStaff = await list(`${path}?state=blocked&token=${staff.token}`);
    expect(ids(asStaff.body)).toEqual([blocked.wireId]);
  });

  it("refuses state combined with any other filter, saying so", async () => {
    const path = `/v4/containers/${series.wireId}`;
    for (const q of ["type=episode", "sort=number", "direction=desc", "number=3"]) {
      const body = await expect400(`${path}/videos.json?state=pending&${q}&token=${manager.token}`, "state");
      expect(body.error).toMatch(/cannot be combined with other filters/);
    }
    await expect400(`${path}/episodes.json?state=blocked&token=${manager.token}`, "state");
    await expect400(`${path}/videos.json?state=deleted`, "state");
  });

  it("refuses sorts other than number and unknown video types", async () => {
    await expect400(`/v4/containers/${series.wireId}/videos.json?sort=views`, "sort");
    await expect400(`/v4/containers/${series.wireId}/videos.json?type=episodes`, "type");
    await expect400(`/v4/containers/${series.wireId}/episodes.json?direction=up`, "direction");
  });

  it("404s missing, malformed and (for the public) hidden containers", async () => {
    for (const id of ["999999c", "abc", "12v"]) expect((await api(`/v4/containers/${id}/videos.json`)).status).toBe(404);
    expect((await api(`/v4/containers/${hidden.wireId}/episodes.json`)).status).toBe(404);
    expect((await api(`/v4/containers/${hidden.wireId}/episodes.json?token=${other.token}`)).status).toBe(404);
    expect((await api(`/v4/containers/${hidden.wireId}/videos.json?state=pending`)).status).toBe(404);
    const mine = await list(`/v4/containers/${hidden.wireId}/episodes.json?token=${manager.token}`);
    expect(mine.body.response).toHaveLength(1);
    expect((await list(`/v4/containers/${hidden.wireId}/episodes.json?token=${staff.token}`)).body.response).toHaveLength(1);
  });
});

describe("typed child listings", () => {
  it("lists episodes by number ascending by default, descending on request, with paging", async () => {
    const all = episodes.map((v) => v.wireId);
    const { res, body } = await list(`/v4/containers/${series.wireId}/episodes.json`);
    expect(ids(body)).toEqual(all.slice(0, 25));
    expect(body.more).toBe(true);
    expect(rowsRead(res)).toBeLessThanOrEqual(60);
    const desc = await list(`/v4/containers/${series.wireId}/episodes.json?sort=number&direction=desc`);
    expect(ids(desc.body)).toEqual([...all].reverse().slice(0, 25));
    const paged = await list(`/v4/containers/${series.wireId}/episodes.json?per_page=10&page=2&with_paging=true`);
    expect(ids(paged.body)).toEqual(all.slice(10, 20));
    expect(paged.body.count).toBe(30);
    expect(paged.body.pagination).toEqual({
      previous: `https://api.test/v4/containers/${series.wireId}/episodes.json?per_page=10&page=1&with_paging=true`,
      next: `https://api.test/v4/containers/${series.wireId}/episodes.json?per_page=10&page=3&with_paging=true`,
    });
    expect((await list(`/v4/containers/${series.wireId}/episodes.json?only_ids=true&per_page=500`)).body).toEqual({
      more: false,
      response: all,
    });
  });

  it("serves every child kind", async () => {
    expect(ids((await list(`/v4/containers/${series.wireId}/trailers.json`)).body)).toEqual([trailer.wireId]);
    expect(ids((await list(`/v4/containers/${series.wireId}/clips.json`)).body)).toEqual([clip.wireId]);
    expect(ids((await list(`/v4/containers/${film.wireId}/movies.json`)).body)).toEqual([movie.wireId]);
    for (const key of ["news_clips", "music_videos", "movies"]) {
      expect((await list(`/v4/containers/${series.wireId}/${key}.json`)).body).toEqual({ more: false, response: [] });
    }
  });

  it("answers the same under the pseudo-type paths, for containers of that type only", async () => {
    const direct = await list(`/v4/containers/${series.wireId}/episodes.json?direction=desc`);
    const alias = await list(`/v4/series/${series.wireId}/episodes.json?direction=desc`);
    expect(alias.body).toEqual(direct.body);
    expect(ids((await list(`/v4/films/${film.wireId}/movies.json`)).body)).toEqual([movie.wireId]);
    expect(ids((await list(`/v4/series/${series.wireId}/videos.json?type=trailer`)).body)).toEqual([trailer.wireId]);
    expect((await api(`/v4/films/${series.wireId}/movies.json`)).status).toBe(404);
    expect((await api(`/v4/artists/${film.wireId}/videos.json`)).status).toBe(404);
  });

  it("is publicly cacheable with an ETag and 304", async () => {
    const res = await api(`/v4/containers/${series.wireId}/episodes.json`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = res.headers.get("etag")!;
    const again = await api(`/v4/containers/${series.wireId}/episodes.json`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });
});
