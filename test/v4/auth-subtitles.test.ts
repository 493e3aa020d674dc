// Viewer subtitles (`GET /v4/videos/<id>/auth_subtitles/<lang>.srt|.vtt`, src/routes/v4/playback-grants.ts): what
// yt-dlp fetches with the grant of the playback streams answer, no signature. Each way a grant can be wrong is its own
// 403; the files are the ones the subtitle downloads write.
import { env } from "cloudflare:workers";
import { api, createApplication, errorBody, signedInUser } from "../helpers";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { createSubtitles } from "../helpers/localisation";
import { type StreamAnswer, addStream, from, playbackScene, streamsOf, trips } from "../helpers/playback";
import { issueGrant } from "../../src/lib/playback-grant";

const STREAM = { kind: "dash", manifest_url: "https://cdn.example.com/subtitled/main.mpd" };

let manager: Signed;
let viewer: Signed;
let app: string;
let video: { id: number; wireId: string };
let other: { id: number; wireId: string };
/** The viewer's grant (their token, no country) for `video`. */
let grant: string;

const grantOf = async (videoWireId: string, init: Parameters<typeof streamsOf>[1]) => {
  const res = await streamsOf(videoWireId, init);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as StreamAnswer).stream_id;
};

/** The URL yt-dlp builds: `?app=<app>&token=<token or None>&stream_id=<grant>`, values appended unencoded, unsigned. */
const fetchAs = (file: string, q: { app?: string; token?: string; grant?: string; videoWireId?: string }, init = {}) =>
  api(
    `/v4/videos/${q.videoWireId ?? video.wireId}/auth_subtitles/${file}?app=${q.app ?? app}&token=${q.token ?? viewer.token}` +
      (q.grant === undefined ? `&stream_id=${grant}` : q.grant ? `&stream_id=${q.grant}` : ""),
    { unsigned: true, ...init },
  );

const text = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());

test.beforeAll(async ({ user, otherUser, officialApp }) => {
  manager = user;
  viewer = otherUser;
  app = officialApp;
  const a = await playbackScene(manager.user.id);
  const b = await playbackScene(manager.user.id);
  video = a.video;
  other = b.video;
  await createSubtitles(video.id, 3, { en: 3, fr: ["Bonjour", null, "<i>Salut</i>\nà tous"] });
  for (const v of [video, other]) await addStream(v.wireId, app, manager.token, STREAM);
  grant = await grantOf(video.wireId, { app, token: viewer.token });
});

describe("GET /v4/videos/{video_id}/auth_subtitles/{file}", () => {
  test("SubRip and WebVTT, as the subtitle downloads write them; ETag and 304", async () => {
    for (const [language, ext] of [
      ["en", "srt"],
      ["fr", "srt"],
      ["fr", "vtt"],
    ]) {
      const res = await fetchAs(`${language}.${ext}`, {});
      expect(res.status, `${language}.${ext}`).toBe(200);
      const official = await api(`/v4/videos/${video.wireId}/subtitle_tracks/${language}.${ext}`, { app });
      expect(await text(res)).toBe(await text(official));
      expect(res.headers.get("content-type")).toBe(official.headers.get("content-type"));
      expect(res.headers.get("etag")).toBe(official.headers.get("etag"));
      expect(res.headers.get("cache-control")).toBe("private, no-cache");
      const again = await fetchAs(`${language}.${ext}`, {}, { headers: { "if-none-match": res.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    const fr = await text(await fetchAs("fr.srt", {}));
    expect(fr).toBe(
      "1\r\n00:00:00,000 --> 00:00:00,900\r\nBonjour\r\n\r\n2\r\n00:00:02,000 --> 00:00:02,900\r\n<i>Salut</i>\r\nà tous\r\n\r\n",
    );
    const vtt = await text(await fetchAs("fr.vtt", {}));
    expect(vtt.startsWith("WEBVTT")).toBe(true);
    expect(vtt).toContain("00:00:02.000 --> 00:00:02.900\n<i>Salut</i>\nà tous");
  });

  test("reads no D1 for the grant, the application or the session; the track cache spares the cues", async () => {
    const first = await fetchAs("en.vtt", {}, { headers: { "x-test": "1" } });
    expect(first.status).toBe(200);
    // The KV track cache holds the cues (the first test read them): nothing is read from D1 at all.
    expect(trips(first)).toBe(0);
    await env.CACHE.delete(`subtitles:track:${video.id}:en:v2`);
    const miss = await fetchAs("en.srt", {});
    expect(miss.status).toBe(200);
    // A miss: the video's placement from the catalogue, then the cues from its shard (docs/decisions.md, "Subtitles on
    // the shards").
    expect(trips(miss)).toBe(2);
    expect(miss.headers.get("x-token-ignored")).toBeNull();
  });

  test("an anonymous grant goes with token=None (or no token)", async () => {
    const anonymous = await grantOf(video.wireId, { app });
    expect((await fetchAs("en.srt", { token: "None", grant: anonymous })).status).toBe(200);
    const bare = await api(`/v4/videos/${video.wireId}/auth_subtitles/en.srt?app=${app}&stream_id=${anonymous}`, { unsigned: true });
    expect(bare.status).toBe(200);
    // The viewer's grant is not an anonymous one.
    expect(((await errorBody(await fetchAs("en.srt", { token: "None" }))) as { reason?: string }).reason).toBe("viewer");
  });

  test("refuses each wrong grant with its reason: expired, another video's, application's, viewer's, region's, tampered", async () => {
    const secondApp = (await createApplication({ official: true })).wireId;
    const stranger = await signedInUser();
    const expired = (
      await issueGrant(
        env.V3_TOKEN_SECRET,
        { videoId: video.id, applicationId: Number(app.slice(0, -1)), viewerToken: viewer.token },
        Math.floor(Date.now() / 1000) - 7 * 3600,
      )
    ).grant;
    const otherVideos = await grantOf(other.wireId, { app, token: viewer.token });
    const cases: Array<[string, Promise<Response>]> = [
      ["expired", fetchAs("en.srt", { grant: expired })],
      ["video", fetchAs("en.srt", { grant: otherVideos })],
      ["application", fetchAs("en.srt", { app: secondApp })],
      ["application", fetchAs("en.srt", { app: "100005a" })],
      ["viewer", fetchAs("en.srt", { token: stranger.token })],
      ["region", fetchAs("en.vtt", {}, from("KR"))],
      ["bad", fetchAs("en.srt", { grant: grant.replace(/\.(\d+)\./, (_, v) => `.${Number(v) + 1}.`) })],
      ["bad", fetchAs("en.srt", { grant: "None" })],
    ];
    for (const [reason, pending] of cases) {
      const res = await pending;
      expect(res.status, reason).toBe(403);
      const body = (await errorBody(res)) as { vcode: number; reason?: string; details?: { field: string }[] };
      expect({ vcode: body.vcode, reason: body.reason, field: body.details?.[0].field }, reason).toEqual({
        vcode: 5403,
        reason,
        field: "stream_id",
      });
    }
    // A grant issued in a country is good there only.
    const inKorea = await grantOf(video.wireId, { app, token: viewer.token, ...from("KR") });
    expect((await fetchAs("en.srt", { grant: inKorea }, from("KR"))).status).toBe(200);
    expect((await fetchAs("en.srt", { grant: inKorea }, from("JP"))).status).toBe(403);
  });

  test("bad input: no grant 400 naming stream_id, another extension 400 naming file, no text in a language 404", async () => {
    const none = await fetchAs("en.srt", { grant: "" });
    expect(none.status).toBe(400);
    expect((await errorBody(none)).details?.map((d) => d.field)).toEqual(["stream_id"]);
    for (const file of ["en.ass", "en.json", "en", "en.srt.vtt"]) {
      const res = await fetchAs(file, {});
      expect(res.status, file).toBe(400);
      expect(
        (await errorBody(res)).details?.map((d) => d.field),
        file,
      ).toEqual([file === "en.srt.vtt" ? "language" : "file"]);
    }
    const missing = await fetchAs("de.srt", {});
    expect(missing.status).toBe(404);
    expect((await errorBody(missing)).error).toBe("no subtitles in de");
    expect((await fetchAs("en.srt", { videoWireId: "nope" })).status).toBe(404);
  });
});
