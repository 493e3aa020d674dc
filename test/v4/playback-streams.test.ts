// Playback streams (src/routes/v4/playback-streams.ts, src/routes/v4/playback-grants.ts): registration and who may do
// it, hostile bodies, the streams answer, the kept manifests and their R2 objects, and the answer's D1 round trips.
import { env } from "cloudflare:workers";
import { api, createApplication, errorBody, rowsRead } from "../helpers";
import { describe, expect, test, type Signed } from "../helpers/fixtures";
import { type StreamAnswer, addStream, m3u8, mpd, playbackScene, streamsOf, trips } from "../helpers/playback";
import { expectRefused, expectStatus } from "../helpers/write-authz";

const REGISTER = { op: "POST /v4/videos/{video_id}/playback_streams.json" };
const REPLACE = { op: "PUT /v4/videos/{video_id}/playback_streams/{playback_stream_id}.json" };
const REMOVE = { op: "DELETE /v4/videos/{video_id}/playback_streams/{playback_stream_id}.json" };

const EXTERNAL = { kind: "hls", manifest_url: "https://cdn.example.com/1/master.m3u8", resolutions: [360, 720], audio_languages: ["ko"] };
const keptKey = (sha: string, ext: "mpd" | "m3u8") => `playback-manifests/${sha}.${ext}`;
const answerOf = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as StreamAnswer;
};

describe(`${REGISTER.op}, ${REPLACE.op}, ${REMOVE.op}: staff and the container's managers`, () => {
  test("registers, replaces and removes, and refuses everyone else", async ({
    user: manager,
    otherUser,
    staff,
    officialApp,
    partnerApp,
  }) => {
    const { video } = await playbackScene(manager.user.id);
    const path = `/v4/videos/${video.wireId}/playback_streams.json`;
    const post = (init: Parameters<typeof api>[1]) => api(path, { method: "POST", json: { kind: "dash", manifest: mpd() }, ...init });
    await expectRefused(await post({ token: manager.token }), "no app=", 400, 5002, "app");
    await expectRefused(await post({ token: manager.token, app: partnerApp }), "a partner application", 403, 5403);
    await expectRefused(await post({ token: manager.token, app: officialApp, unsigned: true }), "unsigned", 401, 4, "sig");
    await expectRefused(await post({ app: officialApp }), "no token", 401, 4500);
    await expectRefused(await post({ app: officialApp, token: otherUser.token }), "a second user", 403, 5403);

    const made = await post({ app: officialApp, token: manager.token });
    await expectStatus(made, "the manager", 201);
    const stream = (await made.json()) as { id: string; kind: string; manifest_sha256: string; created_by: string };
    expect(stream).toMatchObject({ kind: "dash", manifest_url: null, created_by: manager.id, resolutions: [], drm: null });
    expect(stream.id).toMatch(/^\d+ps$/);
    expect(stream.manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await env.SUBTITLES.head(keptKey(stream.manifest_sha256, "mpd"))).not.toBeNull();

    const one = `/v4/videos/${video.wireId}/playback_streams/${stream.id}.json`;
    const put = (init: Parameters<typeof api>[1]) => api(one, { method: "PUT", json: EXTERNAL, ...init });
    await expectRefused(await put({ app: officialApp, token: otherUser.token }), "a second user", 403, 5403);
    await expectRefused(await put({ token: manager.token, app: partnerApp }), "a partner application", 403, 5403);
    const replaced = await put({ app: officialApp, token: staff.token });
    await expectStatus(replaced, "staff", 200);
    expect(await replaced.json()).toMatchObject({
      id: stream.id,
      kind: "hls",
      manifest_url: EXTERNAL.manifest_url,
      manifest_sha256: null,
      created_by: manager.id,
    });
    // No stream uses the first manifest any more: its object went.
    expect(await env.SUBTITLES.head(keptKey(stream.manifest_sha256, "mpd"))).toBeNull();

    await expectRefused(await api(one, { method: "DELETE", app: officialApp, token: otherUser.token }), "a second user", 403, 5403);
    await expectRefused(await api(one, { method: "DELETE", app: officialApp }), "no token", 401, 4500);
    await expectStatus(await api(one, { method: "DELETE", app: officialApp, token: manager.token }), "the manager", 204);
    await expectRefused(await api(one, { method: "DELETE", app: officialApp, token: manager.token }), "gone", 404, 404);
  });

  test("hides a hidden video's streams from who cannot see it; another video's stream is not found", async ({
    user: manager,
    otherUser,
    officialApp,
  }) => {
    const hidden = await playbackScene(manager.user.id, { state: "pending" });
    const json = { kind: "dash", manifest: mpd("hidden") };
    const path = `/v4/videos/${hidden.video.wireId}/playback_streams.json`;
    await expectRefused(await api(path, { method: "POST", app: officialApp, token: otherUser.token, json }), "hidden", 404, 404);
    const stream = await addStream(hidden.video.wireId, officialApp, manager.token, json);
    const other = await playbackScene(manager.user.id);
    const elsewhere = `/v4/videos/${other.video.wireId}/playback_streams/${stream.id}.json`;
    await expectRefused(await api(elsewhere, { method: "PUT", app: officialApp, token: manager.token, json }), "another video's", 404, 404);
    await expectRefused(await api(elsewhere, { method: "DELETE", app: officialApp, token: manager.token }), "another video's", 404, 404);
    const malformed = `/v4/videos/${other.video.wireId}/playback_streams/${stream.id.replace("ps", "s")}.json`;
    await expectRefused(await api(malformed, { method: "DELETE", app: officialApp, token: manager.token }), "malformed id", 404, 404);
  });
});

describe("hostile bodies", () => {
  let manager: Signed;
  let app: string;
  let path: string;
  test.beforeAll(async ({ user, officialApp }) => {
    manager = user;
    app = officialApp;
    path = `/v4/videos/${(await playbackScene(user.user.id)).video.wireId}/playback_streams.json`;
  });
  const post = (json: unknown) => api(path, { method: "POST", app, token: manager.token, json });
  const named = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(400);
    return (await errorBody(res)).details?.map((d) => d.field);
  };

  test("a manifest_url that is not https is 400 naming it", async () => {
    for (const url of [
      "javascript:alert(1)",
      "http://cdn.example.com/a.mpd",
      "ftp://cdn.example.com/a.mpd",
      "data:application/dash+xml,<MPD/>",
      "//cdn.example.com/a.mpd",
      "https://user:pw@cdn.example.com/a.mpd",
      `https://cdn.example.com/${"a".repeat(2100)}`,
    ]) {
      expect(await named(await post({ kind: "dash", manifest_url: url })), url.slice(0, 40)).toEqual(["manifest_url"]);
    }
  });

  test("manifest: exactly one source, its kind's shape, at most 256 KiB; the other fields by name", async () => {
    const both = await named(await post({ kind: "dash", manifest: mpd(), manifest_url: "https://cdn.example.com/a.mpd" }));
    expect(both).toEqual(["manifest_url", "manifest"]);
    expect(await named(await post({ kind: "dash" }))).toEqual(["manifest_url", "manifest"]);
    expect(await named(await post({ kind: "dash", manifest: m3u8() }))).toEqual(["manifest"]);
    expect(await named(await post({ kind: "hls", manifest: mpd() }))).toEqual(["manifest"]);
    expect(await named(await post({ kind: "dash", manifest: "<html><MPD/></html>" }))).toEqual(["manifest"]);
    expect(await named(await post({ kind: "hls", manifest: "\n#EXTM3U\n" }))).toEqual(["manifest"]);
    const huge = `#EXTM3U\n${"#".repeat(300 * 1024)}\n`;
    expect(await named(await post({ kind: "hls", manifest: huge }))).toEqual(["manifest"]);
    const tooLarge = await post({ kind: "hls", manifest: `#EXTM3U\n${"#".repeat(600 * 1024)}` });
    expect(tooLarge.status).toBe(413);
    expect(await named(await post({ kind: "mp4", manifest_url: EXTERNAL.manifest_url }))).toEqual(["kind"]);
    expect(await named(await post({ ...EXTERNAL, drm: "clearkey" }))).toEqual(["drm"]);
    expect(await named(await post({ ...EXTERNAL, resolutions: ["720p"] }))).toEqual(["resolutions.0"]);
    expect(await named(await post({ ...EXTERNAL, audio_languages: ["Korean"] }))).toEqual(["audio_languages.0"]);
    // A byte-order mark, a declaration and comments before the root are what MPD files look like.
    await expectStatus(await post({ kind: "dash", manifest: `\uFEFF<?xml version="1.0"?>\n<!-- x -->\n<MPD type="static"/>` }), "bom", 201);
  });
});

describe("the streams answer", () => {
  test("DASH before HLS, then by id; kept manifests served to the grant's holder, external URLs unchanged", async ({
    user: manager,
    officialApp,
  }) => {
    const { video } = await playbackScene(manager.user.id);
    const hls = await addStream(video.wireId, officialApp, manager.token, { kind: "hls", manifest: m3u8("order") });
    const external = await addStream(video.wireId, officialApp, manager.token, { ...EXTERNAL, kind: "dash", drm: "widevine" });
    const dash = await addStream(video.wireId, officialApp, manager.token, { kind: "dash", manifest: mpd("order"), resolutions: [720] });
    const answer = await answerOf(await streamsOf(video.wireId, { app: officialApp }));
    expect(answer.main.map((s) => s.id)).toEqual([external.id, dash.id, hls.id]);
    expect(answer.main[0]).toMatchObject({ kind: "dash", url: EXTERNAL.manifest_url, drm: "widevine", resolutions: [360, 720] });
    expect(answer.stream_id).toMatch(/^[a-z0-9.-]+$/);
    for (const s of answer.main) expect(s.properties.track.stream_id).toBe(answer.stream_id);
    const expires = Date.parse(answer.expires_at) - Date.now();
    expect(expires).toBeGreaterThan(5.9 * 3600_000);
    expect(expires).toBeLessThanOrEqual(6 * 3600_000);

    const dashUrl = answer.main[1].url;
    expect(dashUrl).toBe(
      `https://api.test/v4/videos/${video.wireId}/playback_manifests/${dash.manifest_sha256}.mpd?stream_id=${answer.stream_id}`,
    );
    const served = await api(dashUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/dash+xml");
    expect(new TextDecoder().decode(await served.arrayBuffer())).toBe(mpd("order"));
    // The grant is checked without D1; that a stream of this video uses the hash is one indexed read.
    expect(trips(served)).toBe(1);
    expect(rowsRead(served)).toBeLessThanOrEqual(3);
    const etag = served.headers.get("etag")!;
    expect(etag).toBe(`"${dash.manifest_sha256}"`);
    expect((await api(dashUrl, { headers: { "if-none-match": etag } })).status).toBe(304);
    const playlist = await api(answer.main[2].url);
    expect(playlist.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(new TextDecoder().decode(await playlist.arrayBuffer())).toBe(m3u8("order"));
  });

  test("the manifest route checks the grant: missing, altered, another video's, another region's; unknown files 404", async ({
    user: manager,
    officialApp,
  }) => {
    const a = await playbackScene(manager.user.id);
    const b = await playbackScene(manager.user.id);
    const kept = await addStream(a.video.wireId, officialApp, manager.token, { kind: "dash", manifest: mpd("grant") });
    await addStream(b.video.wireId, officialApp, manager.token, EXTERNAL);
    const grantA = (await answerOf(await streamsOf(a.video.wireId, { app: officialApp }))).stream_id;
    const grantB = (await answerOf(await streamsOf(b.video.wireId, { app: officialApp }))).stream_id;
    const file = `/v4/videos/${a.video.wireId}/playback_manifests/${kept.manifest_sha256}.mpd`;
    const refused = async (res: Response, reason: string) => {
      expect(res.status).toBe(403);
      const body = (await errorBody(res)) as { reason?: string; details?: { field: string }[] };
      expect(body.reason).toBe(reason);
      expect(body.details?.[0].field).toBe("stream_id");
    };
    await expectRefused(await api(file), "no grant", 400, 5002, "stream_id");
    // One character changed (never to itself: a grant ending in 0 altered to ...0 would be the grant).
    await refused(await api(`${file}?stream_id=${grantA.slice(0, -1)}${grantA.endsWith("0") ? "1" : "0"}`), "bad");
    await refused(await api(`${file}?stream_id=${grantB}`), "video");
    await refused(await api(`${file}?stream_id=${grantA}`, { cf: { country: "FR" } } as RequestInit), "region");
    expect((await api(`${file}?stream_id=${grantA}`)).status).toBe(200);
    const unknown = `/v4/videos/${a.video.wireId}/playback_manifests/${"0".repeat(64)}.mpd?stream_id=${grantA}`;
    await expectRefused(await api(unknown), "never kept", 404, 404);
    await expectRefused(await api(`/v4/videos/${a.video.wireId}/playback_manifests/x.mpd?stream_id=${grantA}`), "malformed", 404, 404);
  });

  test("a grant opens only its own video's kept manifests: not another video's hash, nothing of a deleted video", async ({
    user: manager,
    staff,
    officialApp,
  }) => {
    // A: a video the viewer must not reach (here simply another video); B: one that plays for them.
    const a = await playbackScene(manager.user.id);
    const b = await playbackScene(manager.user.id);
    const secret = await addStream(a.video.wireId, officialApp, manager.token, { kind: "dash", manifest: mpd("only-a") });
    await addStream(b.video.wireId, officialApp, manager.token, { kind: "dash", manifest: mpd("only-b") });
    const grantB = (await answerOf(await streamsOf(b.video.wireId, { app: officialApp }))).stream_id;
    const onB = (init?: Parameters<typeof api>[1]) =>
      api(`/v4/videos/${b.video.wireId}/playback_manifests/${secret.manifest_sha256}.mpd?stream_id=${grantB}`, init);
    // B's grant on B's path, naming A's hash (every streams answer of A shows it): the object exists, but not for B.
    await expectStatus(await onB(), "B's grant for A's hash", 404);
    await expectStatus(await onB({ headers: { "if-none-match": `"${secret.manifest_sha256}"` } }), "not even a 304", 404);

    // The same bytes registered for B too: then B's grant opens them under B, and A's under A.
    const shared = await addStream(b.video.wireId, officialApp, manager.token, { kind: "dash", manifest: mpd("only-a") });
    expect(shared.manifest_sha256).toBe(secret.manifest_sha256);
    const underB = await onB();
    expect(underB.status).toBe(200);
    expect(new TextDecoder().decode(await underB.arrayBuffer())).toBe(mpd("only-a"));

    // A deleted video's manifests go with it, even for a grant issued before the deletion.
    const grantA = (await answerOf(await streamsOf(a.video.wireId, { app: officialApp }))).stream_id;
    const ofA = `/v4/videos/${a.video.wireId}/playback_manifests/${secret.manifest_sha256}.mpd?stream_id=${grantA}`;
    expect((await api(ofA)).status).toBe(200);
    const gone = await api(`/v4/videos/${a.video.wireId}.json`, { method: "DELETE", app: officialApp, token: staff.token });
    expect(gone.status, await gone.clone().text()).toBe(204);
    await expectStatus(await api(ofA), "a deleted video's manifest", 404);
    // B still uses the bytes: they stay B's.
    await expectStatus(await onB(), "B's own stream of the shared bytes", 200);
  });

  test("streams sharing bytes share one object, kept until the last stream using it goes", async ({ user: manager, officialApp }) => {
    const { video } = await playbackScene(manager.user.id);
    const other = await playbackScene(manager.user.id);
    const first = await addStream(video.wireId, officialApp, manager.token, { kind: "hls", manifest: m3u8("shared") });
    const second = await addStream(other.video.wireId, officialApp, manager.token, { kind: "hls", manifest: m3u8("shared") });
    expect(second.manifest_sha256).toBe(first.manifest_sha256);
    const key = keptKey(first.manifest_sha256!, "m3u8");
    const del = (v: string, s: string) =>
      api(`/v4/videos/${v}/playback_streams/${s}.json`, { method: "DELETE", app: officialApp, token: manager.token });
    await expectStatus(await del(video.wireId, first.id), "first", 204);
    expect(await env.SUBTITLES.head(key)).not.toBeNull();
    await expectStatus(await del(other.video.wireId, second.id), "last", 204);
    expect(await env.SUBTITLES.head(key)).toBeNull();
  });

  test("no streams is 404; one D1 round trip besides the application's check, with or without a token; rows read", async ({
    user: manager,
    otherUser,
    officialApp,
  }) => {
    const { video } = await playbackScene(manager.user.id);
    const none = await streamsOf(video.wireId, { app: officialApp });
    expect(none.status).toBe(404);
    expect((await errorBody(none)).error).toBe("this video has no playback streams");
    await addStream(video.wireId, officialApp, manager.token, EXTERNAL);
    for (const token of [undefined, otherUser.token, "A".repeat(43), "None"]) {
      const res = await streamsOf(video.wireId, { app: officialApp, token });
      expect(res.status, String(token)).toBe(200);
      // The application's lookup (every signed request makes it), then one batch: the session check rides with the data.
      expect(trips(res), String(token)).toBe(2);
      // Rows: the application, the video and its container, one per stream, and a live session with its user.
      expect(rowsRead(res), String(token)).toBeLessThanOrEqual(token === otherUser.token ? 6 : 4);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  test("only a signed official application is answered", async ({ user: manager, officialApp, partnerApp }) => {
    const { video } = await playbackScene(manager.user.id);
    await addStream(video.wireId, officialApp, manager.token, EXTERNAL);
    await expectRefused(await streamsOf(video.wireId), "no app=", 400, 5002, "app");
    await expectRefused(await streamsOf(video.wireId, { app: partnerApp }), "a partner application", 403, 5403);
    await expectRefused(await streamsOf(video.wireId, { app: officialApp, unsigned: true }), "unsigned", 401, 4, "sig");
    const unknown = await streamsOf(video.wireId, { app: "999999a", headers: { signature: "0".repeat(40), timestamp: "1" } });
    await expectRefused(unknown, "an unknown application, signed", 401, 4, "app");
    const family = await createApplication({ official: true });
    expect((await streamsOf(video.wireId, { app: family.wireId })).status).toBe(200);
  });
});
