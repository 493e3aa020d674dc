import { beforeAll, describe, expect, it } from "vitest";
import { api, errorBody, rowsRead, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { addTimedComment, shardOf } from "../helpers/shards";

type User = Awaited<ReturnType<typeof signedInUser>>;
type Comment = {
  id: string;
  user_id: string;
  time: number;
  comment: string;
  value: string;
  language: string;
  created_at: string;
  user: { id: string; username: string };
};

let author: User;
let other: User;
let manager: User;
let staff: User;
let video: { id: number; wireId: string };
let otherVideo: { id: number; wireId: string };
let hidden: { id: number; wireId: string };

const path = (v: { wireId: string }, x: string) => `/v4/videos/${v.wireId}/timed_comments/${x}.json`;
const comment = async (token: string, time: number, text: string, v = video, language = "fr") => {
  const res = await api(path(v, language), { method: "POST", token, json: { time, comment: text } });
  expect(res.status).toBe(201);
  return (await res.json()) as Comment;
};

beforeAll(async () => {
  [author, other, manager, staff] = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser({ staff: true })]);
  const c = await createContainer({ managers: [manager.user.id] });
  video = await createVideo(c.id, { duration: 120 });
  otherVideo = await createVideo(c.id);
  hidden = await createVideo(c.id, { state: "blocked" });
});

describe("timed comments: happy path", () => {
  it("creates a comment and answers it in the shape of docs/spec/wire.md", async () => {
    const res = await api(path(video, "FR"), { method: "POST", token: author.token, json: { time: 116000, comment: "  Bravo !  " } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Comment;
    expect(body).toEqual({
      id: expect.stringMatching(/^\d+tc$/),
      user_id: author.id,
      time: 116000,
      comment: "Bravo !",
      value: "Bravo !",
      language: "fr",
      created_at: expect.stringMatching(/Z$/),
      user: { id: author.id, username: author.user.username },
    });
  });

  it("lists all of a video's comments in a language, sorted by time, under /videos and /episodes", async () => {
    const v = await createVideo((await createContainer()).id);
    const late = await comment(author.token, 50_000, "late", v, "es");
    const early = await comment(other.token, 1_000, "early", v, "es");
    const tie = await comment(author.token, 50_000, "tie", v, "es");
    await comment(author.token, 10, "another language", v, "en");
    for (const prefix of ["videos", "episodes"]) {
      const res = await api(`/v4/${prefix}/${v.wireId}/timed_comments/es.json`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Comment[];
      expect(body.map((c) => c.id)).toEqual([early.id, late.id, tie.id]);
      expect(body[0].user).toEqual({ id: other.id, username: other.user.username });
      expect(res.headers.get("cache-control")).toContain("public");
      expect(rowsRead(res)).toBeLessThanOrEqual(2 + 3 * 2 + 1);
    }
    expect(await (await api(path(v, "de"))).json()).toEqual([]);
  });

  it("serves 304 for an unchanged list", async () => {
    const first = await api(path(video, "fr"));
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await api(path(video, "fr"), { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("returns every comment, not a page", async () => {
    const v = await createVideo((await createContainer()).id);
    const rows = Array.from({ length: 120 }, (_, i) => ({
      videoId: v.id,
      language: "ko",
      userId: author.user.id,
      timeMs: (120 - i) * 10,
      comment: `c${i}`,
    }));
    for (const row of rows) await addTimedComment(row);
    const body = (await (await api(path(v, "ko"))).json()) as Comment[];
    expect(body).toHaveLength(120);
    expect(body.map((c) => c.time)).toEqual(rows.map((r) => r.timeMs).sort((a, b) => a - b));
  });

  it("stops at the first 5,000 comments by time", async () => {
    const v = await createVideo((await createContainer()).id);
    const { binding } = await shardOf(v.containerId);
    await binding
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5001)
         INSERT INTO timed_comments (id, container_id, video_id, language, user_id, username, time_ms, comment)
         SELECT i, ?, ?, 'ko', ?, 'author', 10 * (5002 - i), 'c' FROM n`,
      )
      .bind(v.containerId, v.id, author.user.id)
      .run();
    const body = (await (await api(path(v, "ko"))).json()) as Comment[];
    expect(body).toHaveLength(5000);
    expect(body[0].time).toBe(10);
    expect(body[4999].time).toBe(50_000);
  });

  it("takes any time when the duration is unknown", async () => {
    expect(
      (await api(path(otherVideo, "en"), { method: "POST", token: author.token, json: { time: 99_000_000, comment: "x" } })).status,
    ).toBe(201);
  });
});

describe("timed comments: bad input", () => {
  it("names the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ comment: "x" }, "time"],
      [{ time: -1, comment: "x" }, "time"],
      [{ time: 1.5, comment: "x" }, "time"],
      [{ time: "soon", comment: "x" }, "time"],
      [{ time: 120_001, comment: "x" }, "time"],
      [{ time: 100 }, "comment"],
      [{ time: 100, comment: "   " }, "comment"],
      [{ time: 100, comment: "x".repeat(501) }, "comment"],
      [{ comment: "x", user_id: "1u" }, "time"],
    ];
    for (const [json, field] of cases) {
      const res = await api(path(video, "fr"), { method: "POST", token: author.token, json });
      expect(res.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      const err = await errorBody(res);
      expect(err.vcode).toBe(5002);
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
    expect(
      (await api(path(video, "fr"), { method: "POST", token: author.token, json: { time: 120_000, comment: "x".repeat(500) } })).status,
    ).toBe(201);
    // A numeric string is read as the number; an unknown field is ignored and named in x-ignored-fields.
    const extra = await api(path(video, "fr"), { method: "POST", token: author.token, json: { time: "100", comment: "x", user_id: "1u" } });
    expect(extra.status).toBe(201);
    expect(extra.headers.get("x-ignored-fields")).toBe("user_id");
    expect(await extra.json()).toMatchObject({ time: 100, user: { id: author.id } });
    const lang = await api(path(video, "french"), { method: "POST", token: author.token, json: { time: 1, comment: "x" } });
    expect(lang.status).toBe(400);
    expect((await errorBody(lang)).details?.[0].field).toBe("language_code");
  });

  it("is 404 for an unknown or hidden video and a malformed language code", async () => {
    expect((await api(path({ wireId: "999999999v" }, "fr"))).status).toBe(404);
    expect((await api(path({ wireId: "12c" }, "fr"))).status).toBe(404);
    expect((await api(path(video, "french"))).status).toBe(404);
    expect((await api(path(hidden, "fr"))).status).toBe(404);
    expect((await api(path(hidden, "fr"), { token: manager.token })).status).toBe(200);
    expect((await api(path(hidden, "fr"), { method: "POST", token: author.token, json: { time: 1, comment: "x" } })).status).toBe(404);
  });
});

describe("timed comments: security", () => {
  it("needs a token to comment (401/4500)", async () => {
    const res = await api(path(video, "fr"), { method: "POST", json: { time: 1, comment: "x" } });
    expect(res.status).toBe(401);
    expect((await errorBody(res)).vcode).toBe(4500);
  });

  it("lets the author, the container's managers and staff delete; nobody else", async () => {
    for (const deleter of [author, manager, staff]) {
      const c = await comment(author.token, 5_000, `to delete by ${deleter.user.username}`);
      const none = await api(path(video, c.id), { method: "DELETE" });
      expect(none.status).toBe(401);
      expect((await errorBody(none)).vcode).toBe(4500);
      const foreign = await api(path(video, c.id), { method: "DELETE", token: other.token });
      expect(foreign.status).toBe(403);
      expect((await errorBody(foreign)).vcode).toBe(5403);
      expect((await api(path(video, c.id), { method: "DELETE", token: deleter.token })).status).toBe(204);
      const left = (await (await api(path(video, "fr"))).json()) as Comment[];
      expect(left.map((x) => x.id)).not.toContain(c.id);
      expect((await api(path(video, c.id), { method: "DELETE", token: deleter.token })).status).toBe(404);
    }
  });

  it("is 404 for a comment of another video, a missing comment or a malformed id", async () => {
    const c = await comment(author.token, 1, "mine");
    expect((await api(path(otherVideo, c.id), { method: "DELETE", token: author.token })).status).toBe(404);
    expect((await api(path(video, "999999999tc"), { method: "DELETE", token: author.token })).status).toBe(404);
    expect((await api(path(video, "fr"), { method: "DELETE", token: author.token })).status).toBe(404);
    expect((await api(path(video, c.id.replace("tc", "t")), { method: "DELETE", token: author.token })).status).toBe(404);
    expect((await api(path(video, c.id), { method: "DELETE", token: author.token })).status).toBe(204);
  });
});
