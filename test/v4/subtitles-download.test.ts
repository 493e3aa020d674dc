import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { subtitles } from "../../src/db/shard-schema";
import { invalidateSubtitleTrack, trackCacheKey } from "../../src/services/subtitle-tracks";
import { api, errorBody, type User } from "../helpers";
import { createContainer, createVideo, visibleAndHidden } from "../helpers/catalogue";
import { videoShard } from "../helpers/localisation";
import { insertTexts, insertTrack } from "../helpers/subtitles";

type Cast = Awaited<ReturnType<typeof visibleAndHidden>>;
let official: string;
let partner: string;
let manager: User;
let video: Cast["video"];
let hidden: Cast["hidden"];

beforeAll(async () => {
  ({ official, partner, manager, video, hidden } = await visibleAndHidden("Downloads"));
  // Inserted out of time order; the file must come out sorted.
  const segs = await insertTrack(video.id, "en", [
    [61_000, 62_500, "Second"],
    [1_000, 2_000, "First"],
    [3_723_004, 3_724_000, "Third\nin two lines"],
    [5_000, 6_000, "   "],
  ]);
  // On the container's shard (docs/decisions.md, "Subtitles on the shards").
  await insertTexts(video.id, [{ segmentId: segs[1].id, language: "de", text: " " }]);
  await insertTrack(hidden.id, "en", [[0, 1000, "Hidden"]]);
});

const srtPath = (v: string, file: string, query = "") => `/v4/videos/${v}/subtitles/${file}?app=${official}${query}`;

describe("GET /v4/videos/<id>/subtitles/<language>.srt", () => {
  it("is for official applications only", async () => {
    expect((await api(`/v4/videos/${video.wireId}/subtitles/en.srt`)).status).toBe(400);
    const res = await api(`/v4/videos/${video.wireId}/subtitles/en.srt?app=${partner}`);
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
  });

  it("builds valid SubRip from the segments in time order, leaving out blank texts", async () => {
    const res = await api(srtPath(video.wireId, "en.srt"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(await res.text()).toBe(
      "1\r\n00:00:01,000 --> 00:00:02,000\r\nFirst\r\n\r\n" +
        "2\r\n00:01:01,000 --> 00:01:02,500\r\nSecond\r\n\r\n" +
        "3\r\n01:02:03,004 --> 01:02:04,000\r\nThird\r\nin two lines\r\n\r\n",
    );
  });

  it("refuses every other format with a 400 that says only srt is supported", async () => {
    for (const file of ["en.vtt", "en.json", "en", "en.srt.txt", "import_srt.json"]) {
      const res = await api(srtPath(video.wireId, file));
      expect(res.status, file).toBe(400);
      const body = await errorBody(res);
      expect(body.details?.[0].field).toBe("file");
      expect(body.error).toContain("only the srt format is supported");
    }
    const badLanguage = await api(srtPath(video.wireId, "EN.srt"));
    expect(badLanguage.status).toBe(400);
    expect((await errorBody(badLanguage)).details?.[0].field).toBe("language");
  });

  it("404s a language without text, a missing video and a hidden one (unless the caller manages it)", async () => {
    for (const path of [
      srtPath(video.wireId, "fr.srt"),
      srtPath(video.wireId, "de.srt"),
      srtPath("999999999v", "en.srt"),
      srtPath(hidden.wireId, "en.srt"),
    ]) {
      expect((await api(path)).status, path).toBe(404);
    }
    const managed = await api(srtPath(hidden.wireId, "en.srt", `&token=${manager.token}`));
    expect(managed.status).toBe(200);
    expect(await managed.text()).toContain("Hidden");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await api(srtPath(video.wireId, "en.srt"));
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}\.srt"$/);
    const again = await api(srtPath(video.wireId, "en.srt"), { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await api(srtPath(video.wireId, "en.srt"), { headers: { "if-none-match": '"other"' } })).status).toBe(200);
  });

  it("is served from KV until the subtitles change and the key is dropped", async () => {
    const c = await createContainer({ title: "Download cache" });
    const v = await createVideo(c.id);
    const [seg] = await insertTrack(v.id, "en", [[0, 1000, "Before"]]);
    const first = await api(srtPath(v.wireId, "en.srt"));
    expect(await first.text()).toContain("Before");
    expect(await env.CACHE.get(trackCacheKey(v.id, "en"))).not.toBeNull();

    await (await videoShard(v.id)).db.update(subtitles).set({ text: "After" }).where(eq(subtitles.segmentId, seg.id));
    const cached = await api(srtPath(v.wireId, "en.srt"));
    expect(await cached.text()).toContain("Before");
    expect(cached.headers.get("etag")).toBe(first.headers.get("etag"));

    await invalidateSubtitleTrack(env.CACHE, v.id, "en");
    const fresh = await api(srtPath(v.wireId, "en.srt"));
    expect(await fresh.text()).toContain("After");
    expect(fresh.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });

  it("is documented in the OpenAPI document under its own file name", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    expect(doc.paths["/v4/videos/{video_id}/subtitles/{file}"]?.get).toBeTruthy();
    expect(doc.paths["/v4/videos/{video_id}/subtitles/import_srt.json"]?.post?.requestBody).toBeTruthy();
    expect(doc.paths["/v4/subtitle_completions.json"]?.post).toBeTruthy();
    expect(doc.paths["/v4/videos/{video_id}/subtitle_tracks/{file}"]?.get).toBeTruthy();
    expect(doc.paths["/v4/videos/{video_id}/subtitle_tracks.json"]?.get).toBeTruthy();
  });
});
