// The /v5 paths yt-dlp's Viki extractor calls (src/routes/v5/index.ts): the v4 route groups registered again, signed with
// the `timestamp` and `signature` headers over `/v5/<path>?<query>&t=<timestamp>`, then its whole playback walk:
// the streams, the kept manifest and the viewer subtitles.
import { hmacSha1Hex } from "../../src/lib/signature";
import { api, createApplication, errorBody } from "../helpers";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { createSubtitles } from "../helpers/localisation";
import { type StreamAnswer, addStream, mpd, playbackScene, streamsOf } from "../helpers/playback";

const SECRET = "ytdlp-alias-secret";
const DEVICE_ID = "112395910d";
let official: string;
let manager: Signed;
let scene: Awaited<ReturnType<typeof playbackScene>>;

/** VikiBaseIE._call_api with query=None: `_api_query(path, version=5)`, HMAC-SHA1 over it + `&t=<ts>`, in headers. */
async function ytdlpSigned(path: string, app: string, secret: string, token?: string) {
  const t = Math.floor(Date.now() / 1000);
  const query = `/v5/${path}${path.includes("?") ? "&" : "?"}app=${app}${token ? `&token=${token}` : ""}`;
  const signature = await hmacSha1Hex(secret, `${query}&t=${t}`);
  return api(query, {
    headers: { "x-viki-app-ver": "6.11.3", "x-viki-as-id": "100005a-1625321982-3932", timestamp: String(t), signature },
  });
}

test.beforeAll(async ({ user }) => {
  manager = user;
  official = (await createApplication({ official: true, secret: SECRET })).wireId;
  scene = await playbackScene(manager.user.id, { descriptions: { en: "A rich boy meets a poor girl." } });
  await createSubtitles(scene.video.id, 2, { en: 2, ko: 1 });
  await addStream(scene.video.wireId, official, manager.token, { kind: "dash", manifest: mpd("alias"), resolutions: [360, 720] });
});

describe("GET /v5/containers/<id>.json and /v5/videos/<id>.json", () => {
  test("answer exactly as their v4 paths, signed the way yt-dlp signs", async () => {
    const v5 = await ytdlpSigned(`containers/${scene.container.wireId}.json`, official, SECRET, manager.token);
    expect(v5.status).toBe(200);
    const v4 = await api(`/v4/containers/${scene.container.wireId}.json`, { app: official, token: manager.token });
    expect(await v5.json()).toEqual(await v4.json());
    const video = await ytdlpSigned(`videos/${scene.video.wireId}.json`, official, SECRET);
    expect(video.status).toBe(200);
    expect(await video.json()).toEqual(await (await api(`/v4/videos/${scene.video.wireId}.json`, { app: official })).json());
    // Unsigned, and with the query form of the signature, as before.
    expect((await api(`/v5/containers/${scene.container.wireId}.json`)).status).toBe(200);
    expect((await api(`/v5/containers/${scene.container.wireId}.json`, { app: official, unsigned: true })).status).toBe(200);
  });

  test("refused: a wrong signature (vcode 4), yt-dlp's own application naming app; only reads are aliased", async () => {
    const wrong = await ytdlpSigned(`containers/${scene.container.wireId}.json`, official, "not-the-secret");
    expect(wrong.status).toBe(401);
    expect((await errorBody(wrong)).vcode).toBe(4);
    const stock = await ytdlpSigned(`containers/${scene.container.wireId}.json`, "100005a", "d96704b180208dbb2efa30fe44c48bd8");
    expect(stock.status).toBe(401);
    expect((await errorBody(stock)).details?.map((d) => d.field)).toEqual(["app"]);
    const del = await api(`/v5/videos/${scene.video.wireId}.json`, { method: "DELETE", token: manager.token });
    expect(del.status).toBe(405);
  });
});

describe("GET /v5/playback_streams/<id>.json", () => {
  test("yt-dlp's walk: the streams, main[0]'s manifest, then auth_subtitles with its stream_id", async () => {
    const res = await ytdlpSigned(
      `playback_streams/${scene.video.wireId}.json?drms=dt3&device_id=${DEVICE_ID}`,
      official,
      SECRET,
      manager.token,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()) as StreamAnswer;
    const v4 = (await (await streamsOf(scene.video.wireId, { app: official, token: manager.token })).json()) as StreamAnswer;
    const withoutGrant = (a: StreamAnswer) => a.main.map((s) => ({ ...s, url: s.url.split("?")[0], properties: null }));
    expect(withoutGrant(answer)).toEqual(withoutGrant(v4));
    expect(answer.main[0].kind).toBe("dash");

    const main = answer.main[0];
    const manifest = await api(main.url);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get("content-type")).toBe("application/dash+xml");
    // What the extractor does to the URL before reading formats: nothing here ('mpdhd' is in no part of it).
    expect(main.url.replace("mpdhd", "mpdhd_high")).toBe(main.url);

    const streamId = main.properties.track.stream_id;
    for (const ext of ["srt", "vtt"]) {
      const url = `/v4/videos/${scene.video.wireId}/auth_subtitles/en.${ext}?app=${official}&token=${manager.token}&stream_id=${streamId}`;
      const sub = await api(url, { unsigned: true });
      expect(sub.status, ext).toBe(200);
    }
  });

  test("anonymous (no token); yt-dlp's own application is 401 naming app; unsigned is 401 naming sig", async () => {
    const anonymous = await ytdlpSigned(`playback_streams/${scene.video.wireId}.json?drms=dt3&device_id=${DEVICE_ID}`, official, SECRET);
    expect(anonymous.status).toBe(200);
    const stock = await ytdlpSigned(`playback_streams/${scene.video.wireId}.json?drms=dt3`, "100005a", "d96704b180208dbb2efa30fe44c48bd8");
    expect(stock.status).toBe(401);
    const body = await errorBody(stock);
    expect(body.error).toBe("unknown application '100005a'");
    expect(body.details?.map((d) => d.field)).toEqual(["app"]);
    const unsigned = await api(`/v5/playback_streams/${scene.video.wireId}.json?app=${official}`, { unsigned: true });
    expect(unsigned.status).toBe(401);
    expect((await errorBody(unsigned)).details?.map((d) => d.field)).toEqual(["sig"]);
  });

  test("are in the OpenAPI document as the published client's aliases", async () => {
    const { paths } = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, { tags: string[] }>> };
    expect(paths["/v5/playback_streams/{video_id}.json"].get.tags).toEqual(["playback_streams"]);
    expect(paths["/v4/videos/{video_id}/playback_streams.json"].get.tags).toEqual(["playback_streams"]);
    expect(paths["/v5/containers/{container_id}.json"].get.tags).toEqual(["containers"]);
    expect(paths["/v5/videos/{video_id}.json"]).toBeDefined();
    expect(paths["/v4/videos/{video_id}/auth_subtitles/{file}"].get).toBeDefined();
    expect(paths["/v4/videos/{video_id}/playback_manifests/{file}"].get).toBeDefined();
  });
});
