import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createHistories } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";

type User = Awaited<ReturnType<typeof signedInUser>>;
let official: string;
let partner: string;
let owner: User;
let other: User;
let staff: User;
let v1: { id: number; wireId: string; containerId: number };
let v2: { id: number; wireId: string; containerId: number };

const url = (userId: string, token?: string, app = official, extra = "") =>
  `/v4/users/${userId}/subtitle_histories.json?app=${app}${token ? `&token=${token}` : ""}${extra}`;
type Page = { more: boolean; response: Array<Record<string, unknown>>; count?: number };

beforeAll(async () => {
  official = (await createApplication({ official: true })).wireId;
  partner = (await createApplication()).wireId;
  [owner, other, staff] = await Promise.all([signedInUser(), signedInUser(), signedInUser({ staff: true })]);
  const c = await createContainer();
  v1 = await createVideo(c.id);
  v2 = await createVideo(c.id);
  // Interleaved, so every filter has to skip rows of the others: 40 per (video, language) for the owner.
  const rows = [];
  for (let i = 0; i < 40; i++) {
    for (const v of [v1, v2]) {
      for (const language of ["en", "fr"])
        rows.push({ userId: owner.user.id, videoId: v.id, containerId: c.id, language, text: `${language} ${i}` });
    }
  }
  // Another user's history on the same videos never shows up in the owner's.
  for (let i = 0; i < 20; i++) rows.push({ userId: other.user.id, videoId: v1.id, containerId: c.id, language: "en" });
  await createHistories(rows);
});

describe("subtitle histories: happy path", () => {
  it("lists the user's own history newest first in the v4 envelope", async () => {
    const res = await api(url(owner.id, owner.token), { method: "POST" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Page;
    expect(body.more).toBe(true);
    expect(body.response).toHaveLength(25);
    const ids = body.response.map((h) => h.id as number);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(body.response[0]).toMatchObject({
      kind: "subtitle",
      video_id: v2.wireId,
      container_id: `${v2.containerId}c`,
      language: "fr",
      text: "fr 39",
      version: 1,
      subtitle_id: null,
    });
    expect(body.response[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("filters by video, by language and by both, paging from the body", async () => {
    const cases: Array<[Record<string, unknown>, (h: Record<string, unknown>) => boolean]> = [
      [{ video_id: v1.wireId }, (h) => h.video_id === v1.wireId],
      [{ language: "fr" }, (h) => h.language === "fr"],
      [{ video_id: v2.wireId, language: "en" }, (h) => h.video_id === v2.wireId && h.language === "en"],
    ];
    for (const [filter, matches] of cases) {
      const res = await api(url(owner.id, owner.token), { method: "POST", json: { ...filter, per_page: 10, page: 2 } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Page;
      expect(body.response).toHaveLength(10);
      expect(body.response.every(matches)).toBe(true);
      // Served by an index in id order: the page, the extra row and the app and session lookups.
      expect(rowsRead(res)).toBeLessThanOrEqual(10 * 2 + 1 + 5);
    }
  });

  it("reads about a page of rows whatever the filter", async () => {
    for (const filter of [{}, { video_id: v1.wireId }, { language: "en" }, { video_id: v1.wireId, language: "fr" }]) {
      const res = await api(url(owner.id, owner.token), { method: "POST", json: { ...filter, per_page: 5 } });
      expect(res.status).toBe(200);
      expect(rowsRead(res)).toBeLessThanOrEqual(5 + 1 + 5);
    }
  });

  it("counts with with_paging=true and ends with more: false", async () => {
    const res = await api(url(owner.id, owner.token, official, "&with_paging=true"), {
      method: "POST",
      json: {
        video_id: v1.wireId,
        language: "en",
        per_page: 30,
        page: 2,
      },
    });
    const body = (await res.json()) as Page;
    expect(body.count).toBe(40);
    expect(body.more).toBe(false);
    expect(body.response).toHaveLength(10);
  });

  it("answers an empty list for a user without history, and takes no body (or an empty JSON one)", async () => {
    const fresh = await signedInUser();
    for (const init of [
      {},
      { headers: { "content-type": "application/json" } },
      { headers: { "content-type": "application/json" }, body: "null" },
    ]) {
      const res = await api(url(fresh.id, fresh.token), { method: "POST", ...init });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ more: false, response: [] });
    }
  });

  it("lets staff read anyone's history", async () => {
    const res = await api(url(owner.id, staff.token), { method: "POST", json: { video_id: v1.wireId, per_page: 3 } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Page).response).toHaveLength(3);
  });
});

describe("subtitle histories: across shards", () => {
  it("merges the user's rows from every shard, newest first by creation time (not by the shards' id ranges), and sums the count", async () => {
    const author = await signedInUser();
    // Containers are placed on the shard holding the fewest: made until one is on each test shard.
    const first = await createContainer();
    let second = await createContainer();
    while ((await shardOf(second.id)).shard === (await shardOf(first.id)).shard) second = await createContainer();
    const [a, b] = [await createVideo(first.id), await createVideo(second.id)];
    const rows = [];
    for (let i = 0; i < 6; i++) {
      for (const v of [a, b]) rows.push({ userId: author.user.id, videoId: v.id, containerId: v.containerId, text: `${i}` });
    }
    const written = await createHistories(rows);
    // Row i of a at t + 10i, of b at t + 10i - 5: the two shards' rows alternate in time, whatever their id ranges.
    const at = new Map(written.map((h, k) => [h.id, 1_700_000_000 + 10 * Math.floor(k / 2) - (k % 2) * 5]));
    for (const [container, video] of [
      [first.id, a.id],
      [second.id, b.id],
    ] as const) {
      const { binding } = await shardOf(container);
      await binding.batch(
        written
          .filter((h) => h.videoId === video)
          .map((h) => binding.prepare("UPDATE subtitle_histories SET created_at = ? WHERE id = ?").bind(at.get(h.id)!, h.id)),
      );
    }
    const newest = written.map((h) => h.id).sort((x, y) => at.get(y)! - at.get(x)!);
    const res = await api(url(author.id, author.token, official, "&with_paging=true"), { method: "POST", json: { per_page: 5, page: 2 } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Page;
    expect(body.response.map((h) => h.id)).toEqual(newest.slice(5, 10));
    expect(body.count).toBe(12);
    // A video's history is read on its container's shard only.
    const one = (await (
      await api(url(author.id, author.token), { method: "POST", json: { video_id: b.wireId, per_page: 100 } })
    ).json()) as Page;
    expect(one.response.map((h) => h.video_id)).toEqual(Array(6).fill(b.wireId));
  });
});

describe("subtitle histories: bad input", () => {
  it("names the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ video_id: "12c" }, "video_id"],
      [{ language: "english" }, "language"],
      [{ language: 12 }, "language"],
    ];
    for (const [json, field] of cases) {
      const res = await api(url(owner.id, owner.token), { method: "POST", json });
      expect(res.status).toBe(400);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5002);
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
  });

  it("ignores unknown fields, naming them in x-ignored-fields, and reads page 0 as page 1", async () => {
    const res = await api(url(owner.id, owner.token), {
      method: "POST",
      json: { video_id: v1.wireId, language: "en", per_page: 5, extra: true },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ignored-fields")).toBe("extra");
    const first = ((await res.json()) as Page).response;
    expect(first).toHaveLength(5);
    const zero = await api(url(owner.id, owner.token), {
      method: "POST",
      json: { video_id: v1.wireId, language: "en", per_page: 5, page: 0 },
    });
    expect(zero.status).toBe(200);
    expect(((await zero.json()) as Page).response).toEqual(first);
  });

  it("clamps per_page instead of refusing it", async () => {
    const res = await api(url(owner.id, owner.token), { method: "POST", json: { per_page: 500 } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Page).response).toHaveLength(100);
  });
});

describe("subtitle histories: security", () => {
  it("needs an official application", async () => {
    const missing = await api(`/v4/users/${owner.id}/subtitle_histories.json?token=${owner.token}`, { method: "POST" });
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).details?.[0].field).toBe("app");
    const res = await api(url(owner.id, owner.token, partner), { method: "POST" });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
  });

  it("no token 401, another user's token 403, a missing user 404 (staff)", async () => {
    const none = await api(url(owner.id), { method: "POST" });
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    const foreign = await api(url(owner.id, other.token), { method: "POST" });
    expect(foreign.status).toBe(403);
    expect((await errorBody(foreign)).vcode).toBe(5403);
    expect((await api(url("999999999u", staff.token), { method: "POST" })).status).toBe(404);
    expect((await api(url("12x", staff.token), { method: "POST" })).status).toBe(404);
    // Another user's missing id is still just forbidden: nothing is revealed.
    expect((await api(url("999999999u", other.token), { method: "POST" })).status).toBe(403);
  });

  it("never shows another user's rows", async () => {
    const res = await api(url(other.id, other.token), { method: "POST", json: { per_page: 100 } });
    const body = (await res.json()) as Page;
    expect(body.response).toHaveLength(20);
  });
});
