// What /v4/search/subtitles.json finds after each kind of write (docs/api.md, "Subtitle search (v4)"): gone or found when
// the write (or its job) ends, never on a schedule; a shard that fails makes the answer incomplete, never a 5xx; a
// moving container's lines are answered once.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication, okJson, signedInUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { importSrt, type TestCue } from "../helpers/subtitles";
import { markMoving, otherShard, shardDb, shardOf } from "../helpers/shards";
import { containerRowsAfter, insertRows } from "../../src/db/queries/shard-rows";
import { SHARD_TABLES } from "../../src/db/shard-schema";

type Signed = Awaited<ReturnType<typeof signedInUser>>;
interface Page {
  response: Array<{ text: string; language: string; start_ms: number; video: { id: string } }>;
  incomplete: boolean;
}

let staff: Signed;
let official: string;
let series: { id: number; wireId: string };
let video: { id: number; wireId: string };
const who = () => ({ token: staff.token, app: official });

/** A word of its own per test, so no answer is one the edge cache kept from an earlier test. */
let n = 0;
const word = () => `zebra${++n}x`;

/** A search no cached copy answers: each call sends a parameter of its own (the edge cache keys on every parameter). */
let calls = 0;
const search = async (q: string, extra: Record<string, string> = {}) =>
  (await okJson({ path: "/v4/search/subtitles.json", query: { q, call: String(++calls), ...extra } })) as Page;
const texts = async (q: string) => (await search(q)).response.map((h) => `${h.language}:${h.text}`);

const cues = (texts: string[]): TestCue[] => texts.map((text, i) => ({ startMs: 1000 + i * 3000, endMs: 2500 + i * 3000, text }));

beforeAll(async () => {
  staff = await signedInUser({ staff: true });
  official = (await createApplication({ official: true })).wireId;
  series = await createContainer({ title: "Writes series" });
  video = await createVideo(series.id, { number: 1 });
});

describe("a line is found, or gone, when the write that changed it ends", () => {
  it("import, edit, restore, deleted language", async () => {
    const [a, b] = [word(), word()];
    await importSrt(who(), video, cues([`first ${a} 사랑해요`, "second line"]), "ko");
    expect(await texts(a)).toEqual([`ko:first ${a} 사랑해요`]);
    // An edit replaces the line's words at once.
    const edited = await api(`/v4/videos/${video.wireId}/subtitle_tracks/ko/cues/1000.json`, {
      method: "PUT",
      ...who(),
      json: { text: `edited ${b} 東京` },
    });
    expect(edited.status).toBe(200);
    expect(await texts(a)).toEqual([]);
    expect(await texts(b)).toEqual([`ko:edited ${b} 東京`]);
    expect((await search("東京", { video_id: video.wireId })).response.map((h) => h.start_ms)).toEqual([1000]);
    // Restoring version 1 brings the first words back and takes the edit's away.
    const restored = await api(`/v4/videos/${video.wireId}/subtitle_tracks/ko/versions/1/restore.json`, { method: "POST", ...who() });
    expect([200, 201]).toContain(restored.status);
    expect(await texts(a)).toEqual([`ko:first ${a} 사랑해요`]);
    expect(await texts(b)).toEqual([]);
    // A deleted language leaves with its lines.
    expect((await api(`/v4/videos/${video.wireId}/subtitle_tracks/ko.json`, { method: "DELETE", ...who() })).status).toBe(200);
    expect(await texts(a)).toEqual([]);
  });

  it("a video hidden, a container blocked, a video deleted", async () => {
    const w = word();
    const other = await createVideo(series.id, { number: 2 });
    await importSrt(who(), other, cues([`hidden ${w}`]), "en");
    expect(await texts(w)).toEqual([`en:hidden ${w}`]);
    const put = (path: string, json: unknown) => api(path, { method: "PUT", token: staff.token, json });
    expect((await put(`/v4/videos/${other.wireId}.json`, { state: "pending" })).status).toBe(200);
    expect(await texts(w)).toEqual([]);
    expect((await put(`/v4/videos/${other.wireId}.json`, { state: "normal" })).status).toBe(200);
    expect(await texts(w)).toEqual([`en:hidden ${w}`]);
    expect((await put(`/v4/containers/${series.wireId}.json`, { state: "blocked" })).status).toBe(200);
    expect(await texts(w)).toEqual([]);
    expect((await put(`/v4/containers/${series.wireId}.json`, { state: "normal" })).status).toBe(200);
    expect(await texts(w)).toEqual([`en:hidden ${w}`]);
    expect((await api(`/v4/videos/${other.wireId}.json`, { method: "DELETE", token: staff.token })).status).toBe(204);
    expect(await texts(w)).toEqual([]);
  });
});

describe("across the shards", () => {
  it("a shard that cannot answer makes the answer incomplete (and not cached), never a 5xx", async () => {
    const w = word();
    await importSrt(who(), video, cues([`present ${w}`]), "fr");
    await env.DB.prepare("INSERT INTO shards (id) VALUES (9)").run();
    try {
      const res = await api({ path: "/v4/search/subtitles.json", query: { q: w } });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as Page;
      expect(body.incomplete).toBe(true);
      expect(body.response.map((h) => h.text)).toEqual([`present ${w}`]);
    } finally {
      await env.DB.prepare("DELETE FROM shards WHERE id = 9").run();
    }
    expect((await search(w)).incomplete).toBe(false);
  });

  it("a container copied to its next shard but not yet switched is answered once, from the shard it is on", async () => {
    const w = word();
    const moving = await createContainer({ title: "Moving series" });
    const v = await createVideo(moving.id, { number: 1 });
    await importSrt(who(), v, cues([`moving ${w}`, `again ${w}`]), "en");
    const { shard } = await shardOf(moving.id);
    const [source, target] = [shardDb(shard), shardDb(otherShard(shard))];
    for (const table of SHARD_TABLES) await insertRows(target, table, await containerRowsAfter(source, table, moving.id, 0, 1000));
    await markMoving(moving.id, otherShard(shard));
    expect((await search(w)).response.map((h) => h.text).sort()).toEqual([`again ${w}`, `moving ${w}`]);
    expect((await search(w, { container_id: moving.wireId })).response).toHaveLength(2);
  });
});
