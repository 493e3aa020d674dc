import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { descriptions, titles, videos } from "../../src/db/schema";
import { api, db, errorBody, staffManagerOther, type User } from "../helpers";
import { segments, subtitleHistories, subtitles } from "../../src/db/shard-schema";
import { createContainer, createVideo } from "../helpers/catalogue";
import { createHistories, createSubtitles } from "../helpers/localisation";
import { shardOf } from "../helpers/shards";
import { fieldsOf } from "../helpers/container-writes";

let staff: User;
let manager: User;
let other: User;
let series: Awaited<ReturnType<typeof createContainer>>;

beforeAll(async () => {
  ({ staff, manager, other } = await staffManagerOther());
  series = await createContainer({ type: "series", title: "Video Writes", managers: [manager.user.id] });
});

const postVideo = (containerId: string, token: string | undefined, json: unknown) =>
  api(`/v4/containers/${containerId}/videos.json`, { method: "POST", token, json });
const readContainer = async (id: string) => (await api(`/v4/containers/${id}.json`)).json() as Promise<any>;

const episode = (over: Record<string, unknown> = {}) => ({ type: "episode", titles: { en: "An episode" }, ...over });

describe("POST /v4/containers/<id>/videos.json", () => {
  it("adds a video with every field and answers 201 with the video view", async () => {
    const before = (await readContainer(series.wireId)).episodes.count;
    const sent = {
      type: "episode",
      number: 7,
      duration: 2700,
      origin: { language: "ko" },
      titles: { en: "Seventh", ko: "일곱" },
      descriptions: { en: "The seventh." },
      flags: { hd: true },
      images: { poster: { url: "https://img.test/e7.jpg" } },
    };
    const res = await postVideo(series.wireId, manager.token, sent);
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    // The view gives back every field sent, with what the server adds.
    expect(body).toMatchObject({
      ...sent,
      subtitle_completions: {},
      flags: { hd: true, state: "normal" },
      container: { id: series.wireId, type: "series", titles: { en: "Video Writes" } },
    });
    expect(body.id).toMatch(/^\d+v$/);
    expect(await (await api(`/v4/videos/${body.id}.json`)).json()).toEqual(body);
    expect((await readContainer(series.wireId)).episodes.count).toBe(before + 1);
  });

  it("applies defaults, and a pending video is hidden from the public", async () => {
    const res = await postVideo(series.wireId, staff.token, episode({ type: "trailer", state: "pending" }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      number: null,
      duration: 0,
      origin: { language: "ko" },
      flags: { hd: false, state: "pending" },
      images: {},
    });
    expect((await api(`/v4/videos/${body.id}.json`)).status).toBe(404);
    expect((await api(`/v4/videos/${body.id}.json`, { token: manager.token })).status).toBe(200);
  });

  it("only takes video types that fit the container (400 naming type)", async () => {
    const fits: Record<string, { ok: string[]; bad: string[] }> = {
      series: { ok: ["episode", "clip", "trailer"], bad: ["movie", "music_video", "news_clip"] },
      film: { ok: ["movie", "clip", "trailer"], bad: ["episode", "music_video", "news_clip"] },
      news: { ok: ["news_clip", "clip"], bad: ["episode", "movie", "trailer", "music_video"] },
      artist: { ok: ["music_video", "clip"], bad: ["episode", "movie", "trailer", "news_clip"] },
    };
    for (const [type, { ok, bad }] of Object.entries(fits)) {
      const c = await createContainer({ type: type as "film" });
      for (const t of ok) expect((await postVideo(c.wireId, staff.token, episode({ type: t }))).status).toBe(201);
      for (const t of bad) expect(await fieldsOf(await postVideo(c.wireId, staff.token, episode({ type: t })))).toEqual(["type"]);
    }
  });

  it("names bad fields: wrong type, missing en title, bad state", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ number: "soon" }, "number"],
      [{ number: 1.5 }, "number"],
      [{ duration: -1 }, "duration"],
      [{ titles: { ko: "일" } }, "titles.en"],
      [{ titles: {} }, "titles.en"],
      [{ flags: { hd: "maybe" } }, "flags.hd"],
      [{ state: "deleted" }, "state"],
      [{ type: "short" }, "type"],
      [{ origin: { language: "korean" } }, "origin.language"],
    ];
    for (const [over, field] of cases) expect(await fieldsOf(await postVideo(series.wireId, staff.token, episode(over)))).toContain(field);
  });

  it("ignores unknown fields, naming them in x-ignored-fields, and reads unambiguous strings", async () => {
    const res = await postVideo(series.wireId, staff.token, episode({ season: 2, number: "41", flags: { hd: "true", "4k": true } }));
    expect(res.status).toBe(201);
    expect(res.headers.get("x-ignored-fields")).toBe("season, flags.4k");
    expect(await res.json()).toMatchObject({ number: 41, flags: { hd: true } });
  });

  it("is 401 without a token, 403 for another user, 404 for a missing container", async () => {
    const none = await postVideo(series.wireId, undefined, episode());
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    const res = await postVideo(series.wireId, other.token, episode());
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
    expect((await postVideo("999999999c", staff.token, episode())).status).toBe(404);
  });
});

describe("PUT /v4/videos/<id>.json", () => {
  it("edits the declared fields, visible on the next read", async () => {
    const v = await createVideo(series.id, {
      number: 3,
      duration: 100,
      title: "Three",
      state: "pending",
      posterUrl: "https://img.test/a.jpg",
    });
    const res = await api(`/v4/videos/${v.wireId}.json`, {
      method: "PUT",
      token: manager.token,
      json: {
        number: null,
        duration: 1800,
        origin: { language: "en" },
        flags: { hd: true },
        images: { poster: null },
        state: "normal",
      },
    });
    expect(res.status).toBe(200);
    const expected = { number: null, duration: 1800, origin: { language: "en" }, flags: { hd: true, state: "normal" }, images: {} };
    expect(await res.json()).toMatchObject(expected);
    expect(await (await api(`/v4/videos/${v.wireId}.json`)).json()).toMatchObject(expected);
  });

  it("moves the container's counts with the state", async () => {
    const v = await createVideo(series.id, { type: "clip" });
    const count = async () => (await readContainer(series.wireId)).clips?.count ?? 0;
    const before = await count();
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { state: "blocked" } })).status).toBe(200);
    expect(await count()).toBe(before - 1);
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { state: "normal" } })).status).toBe(200);
    expect(await count()).toBe(before);
  });

  it("leaves blocking to staff: a manager may hide and show a video, not block or unblock one (403)", async () => {
    const v = await createVideo(series.id, { type: "clip" });
    const stateOf = async () => (await db().select().from(videos).where(eq(videos.id, v.id)))[0].state;
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: manager.token, json: { state: "pending" } })).status).toBe(
      200,
    );
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: manager.token, json: { state: "normal" } })).status).toBe(200);
    const block = await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: manager.token, json: { state: "blocked" } });
    expect(block.status).toBe(403);
    expect((await errorBody(block)).error).toMatch(/only staff may block a video or unblock one/);
    expect(await stateOf()).toBe("normal");

    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { state: "blocked" } })).status).toBe(200);
    // The attack: a manager undoing staff's block, to normal or to pending.
    for (const state of ["normal", "pending"])
      expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: manager.token, json: { state } })).status, state).toBe(403);
    expect(await stateOf()).toBe("blocked");
    // Other fields stay the manager's, and writing back the state it has changes nothing.
    const edit = await api(`/v4/videos/${v.wireId}.json`, {
      method: "PUT",
      token: manager.token,
      json: { duration: 61, state: "blocked" },
    });
    expect(edit.status).toBe(200);
    expect(await stateOf()).toBe("blocked");
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { state: "normal" } })).status).toBe(200);

    expect((await postVideo(series.wireId, manager.token, episode({ state: "blocked" }))).status).toBe(403);
    expect((await postVideo(series.wireId, staff.token, episode({ state: "blocked" }))).status).toBe(201);
  });

  it("refuses type, titles and wrong types; ignores unknown fields", async () => {
    const v = await createVideo(series.id, { duration: 5 });
    expect(await fieldsOf(await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { type: "clip" } }))).toEqual(
      ["type"],
    );
    expect(
      await fieldsOf(await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { titles: { en: "X" } } })),
    ).toEqual(["titles"]);
    expect(
      await fieldsOf(await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { descriptions: { en: "X" } } })),
    ).toEqual(["descriptions"]);
    expect(
      await fieldsOf(await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { duration: "long" } })),
    ).toEqual(["duration"]);
    expect(
      await fieldsOf(await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { state: "gone" } })),
    ).toEqual(["state"]);
    const [unchanged] = await db().select().from(videos).where(eq(videos.id, v.id));
    expect(unchanged.duration).toBe(5);
    const moved = await api(`/v4/videos/${v.wireId}.json`, {
      method: "PUT",
      token: staff.token,
      json: { container_id: "999999999c", duration: "60" },
    });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("x-ignored-fields")).toBe("container_id");
    expect(await moved.json()).toMatchObject({ duration: 60, container: { id: series.wireId } });
  });

  it("is 401 without a token, 403 for another user, 404 to them for a hidden video", async () => {
    const v = await createVideo(series.id, { duration: 5 });
    const none = await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", json: { duration: 6 } });
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    const res = await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: other.token, json: { duration: 6 } });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
    const hidden = await createVideo(series.id, { state: "blocked" });
    expect((await api(`/v4/videos/${hidden.wireId}.json`, { method: "PUT", token: other.token, json: { duration: 6 } })).status).toBe(404);
    expect((await api(`/v4/videos/${"999999999v"}.json`, { method: "PUT", token: staff.token, json: {} })).status).toBe(404);
    const [row] = await db().select().from(videos).where(eq(videos.id, v.id));
    expect(row.duration).toBe(5);
  });
});

describe("DELETE /v4/videos/<id>.json", () => {
  it("deletes the video with its titles and descriptions", async () => {
    const v = await createVideo(series.id, { title: "Doomed" });
    await db().insert(descriptions).values({ resourceKind: "v", resourceId: v.id, language: "en", text: "Doomed." });
    const res = await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: manager.token });
    expect(res.status).toBe(204);
    expect((await api(`/v4/videos/${v.wireId}.json`, { token: staff.token })).status).toBe(404);
    for (const t of [titles, descriptions]) {
      expect(
        await db()
          .select()
          .from(t)
          .where(and(eq(t.resourceKind, "v"), eq(t.resourceId, v.id))),
      ).toEqual([]);
    }
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(404);
  });

  it("takes the video's shard rows with it (the subtitle family, through the cleanup outbox), and only its own", async () => {
    const v = await createVideo(series.id, {});
    const kept = await createVideo(series.id, {});
    for (const video of [v, kept]) {
      await createSubtitles(video.id, 3, { en: 3, fr: 1 });
      await createHistories([{ userId: other.user.id, videoId: video.id, containerId: series.id }]);
    }
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: manager.token })).status).toBe(204);
    const { db: shard } = await shardOf(series.id);
    const left = async (videoId: number) =>
      Promise.all(
        [segments, subtitles, subtitleHistories].map(async (t) => (await shard.select().from(t).where(eq(t.videoId, videoId))).length),
      );
    expect(await left(v.id)).toEqual([0, 0, 0]);
    expect(await left(kept.id)).toEqual([3, 4, 1]);
  });

  it("is 401 without a token, 403 for another user; staff may", async () => {
    const v = await createVideo(series.id, {});
    const none = await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE" });
    expect(none.status).toBe(401);
    expect((await errorBody(none)).vcode).toBe(4500);
    const res = await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: other.token });
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
  });

  it("leaves a video staff blocked to staff: its managers may not delete it (403), staff may", async () => {
    const v = await createVideo(series.id, {});
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "PUT", token: staff.token, json: { state: "blocked" } })).status).toBe(200);
    const refused = await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: manager.token });
    expect(refused.status).toBe(403);
    expect((await errorBody(refused)).error).toMatch(/only staff may delete a video staff blocked/);
    expect((await db().select().from(videos).where(eq(videos.id, v.id))).map((r) => r.state)).toEqual(["blocked"]);
    expect((await api(`/v4/videos/${v.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
  });
});
