import { beforeAll, describe, expect, it } from "vitest";
import { hmacSha1Hex } from "../../src/lib/signature";
import { api, createApplication, createUser } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";
import { now, pyJson, YTDLP_STD_HEADERS, expectFieldError, type Json } from "./wire";

// yt-dlp's Viki extractor (yt_dlp/extractor/viki.py): docs/clients.md, "yt-dlp". Its application id
// 100005a is not registered here; its signed reads are replayed with a registered test application instead.
const YTDLP_APP = "100005a";
const APP_VERSION_HEADER = { "x-viki-app-ver": "6.11.3" };
let signer: { wireId: string; secret: string };
let channel: Awaited<ReturnType<typeof createContainer>>;
const episodes: string[] = []; // by number, 1..35
let user: Awaited<ReturnType<typeof createUser>>;

/** _perform_login: POST /v5/sessions.json?app=100005a, json.dumps body, urllib's default form content type. */
const login = (body: string) =>
  api(`/v5/sessions.json?app=${YTDLP_APP}`, {
    method: "POST",
    body,
    headers: { ...YTDLP_STD_HEADERS, ...APP_VERSION_HEADER, "content-type": "application/x-www-form-urlencoded" },
  });

/** _call_api with query=None: /v5/<path>?app=…[&token=…], signed over `<that>&t=<ts>`, sent in headers. */
async function signedV5(path: string, app: { wireId: string; secret: string }, token?: string, tamper?: { sig?: string; t?: number }) {
  const t = tamper?.t ?? now();
  const query = `/v5/${path}${path.includes("?") ? "&" : "?"}app=${app.wireId}${token ? `&token=${token}` : ""}`;
  const sig = tamper?.sig ?? (await hmacSha1Hex(app.secret, `${query}&t=${t}`));
  return api(query, {
    headers: {
      ...YTDLP_STD_HEADERS,
      "x-viki-manufacturer": "vivo",
      "x-viki-device-model": "vivo 1606",
      "x-viki-device-os-ver": "6.0.1",
      "x-viki-connection-type": "WIFI",
      "x-viki-carrier": "",
      "x-viki-as-id": "100005a-1625321982-3932",
      timestamp: String(t),
      signature: sig,
      ...APP_VERSION_HEADER,
    },
  });
}

/** VikiChannelIE._entries: the v4 URL, then update_url_query with its params (token=None when logged out). */
const channelPage = (kind: string, page: number, token = "None") =>
  api(
    `/v4/containers/${channel.wireId}/${kind}.json?app=${YTDLP_APP}&token=${token}&only_ids=true&direction=asc&sort=number&per_page=30&page=${page}`,
    { headers: YTDLP_STD_HEADERS },
  );

beforeAll(async () => {
  signer = { wireId: (await createApplication({ secret: "ytdlp-test-secret" })).wireId, secret: "ytdlp-test-secret" };
  user = await createUser();
  channel = await createContainer({ title: "Boys Over Flowers", descriptions: { en: "A rich boy meets a poor girl." } });
  // Created out of number order, so the listing must sort.
  const numbers = Array.from({ length: 35 }, (_, i) => ((i * 13) % 35) + 1);
  const made: Record<number, string> = {};
  for (const n of numbers)
    made[n] = (await createVideo(channel.id, { number: n, title: n === 1 ? "Episode One" : undefined, duration: 3600 })).wireId;
  for (let n = 1; n <= 35; n++) episodes.push(made[n]);
});

describe("login", () => {
  it("a JSON body sent as form data, with the unknown app=100005a: 201 with a token and no `error`", async () => {
    const res = await login(pyJson({ username: user.user.username, password: user.password }));
    expect(res.status).toBe(201);
    expect(res.headers.get("x-app-ignored")).toBe("unknown");
    const body = (await res.json()) as Json;
    expect(body.token).toEqual(expect.any(String));
    expect(body.error).toBeUndefined();
  });

  it("hostile: missing password, wrong type and unreadable JSON are 400 with `error` and the field named", async () => {
    const missing = await expectFieldError(await login(pyJson({ username: user.user.username })), 400, "password");
    expect(missing.error).toContain("password");
    await expectFieldError(await login(pyJson({ username: [user.user.username], password: "x" })), 400, "username");
    // Neither JSON nor a usable form: nothing names a username.
    await expectFieldError(await login(`{"username": "${user.user.username}", "password"`), 400, "username", "password", "body");
    const wrong = await login(pyJson({ username: user.user.username, password: "wrong" }));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as Json).vcode).toBe(7403);
  });
});

describe("video JSON (VikiIE)", () => {
  const read = (id: string, token?: string) =>
    api(`/v4/videos/${id}.json?app=${YTDLP_APP}${token ? `&token=${token}` : ""}`, { headers: YTDLP_STD_HEADERS });

  it("answers the fields the extractor reads, logged out and with the login's token", async () => {
    const token = ((await (await login(pyJson({ username: user.user.username, password: user.password }))).json()) as Json).token;
    for (const res of [await read(episodes[0]), await read(episodes[0], token)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const video = (await res.json()) as Json;
      expect(video.error).toBeUndefined();
      expect(video).toMatchObject({ id: episodes[0], type: "episode", number: 1, duration: 3600, titles: { en: "Episode One" } });
      expect(video.container.titles).toEqual({ en: "Boys Over Flowers" });
      expect(typeof video.descriptions).toBe("object");
      expect(typeof video.subtitle_completions).toBe("object");
      expect(Date.parse(video.created_at)).not.toBeNaN();
      for (const image of Object.values((video.images ?? {}) as Record<string, Json>)) expect(typeof image).toBe("object");
      expect(video.blocking).toEqual({ geo: false, paywall: false, upcoming: false });
    }
  });

  it("an unknown video is a JSON 404 (a non-fatal download error to the extractor)", async () => {
    const res = await read("999999999v");
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).error).toEqual(expect.any(String));
  });
});

describe("channel (VikiChannelIE)", () => {
  it("the signed /v5/containers/<id>.json read answers as v4: titles, descriptions, blocking", async () => {
    const res = await signedV5(`containers/${channel.wireId}.json`, signer);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.error).toBeUndefined();
    expect(body).toMatchObject({
      id: channel.wireId,
      titles: { en: "Boys Over Flowers" },
      descriptions: { en: "A rich boy meets a poor girl." },
    });
    expect(body.blocking).toEqual({ geo: false, paywall: false, upcoming: false });
    const video = await signedV5(`videos/${episodes[1]}.json`, signer);
    expect(video.status).toBe(200);
    expect(((await video.json()) as Json).number).toBe(2);
  });

  it("signed with a session token too; refused: a wrong signature (4), a stale timestamp (5), yt-dlp's unknown app signed", async () => {
    const token = ((await (await login(pyJson({ username: user.user.username, password: user.password }))).json()) as Json).token;
    expect((await signedV5(`containers/${channel.wireId}.json`, signer, token)).status).toBe(200);
    const bad = await signedV5(`containers/${channel.wireId}.json`, signer, undefined, { sig: "0".repeat(40) });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as Json).vcode).toBe(4);
    const stale = await signedV5(`containers/${channel.wireId}.json`, signer, undefined, { t: now() - 3600 });
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as Json).vcode).toBe(5);
    const unknown = await signedV5(`containers/${channel.wireId}.json`, { wireId: YTDLP_APP, secret: "not-registered" });
    expect(unknown.status).toBe(401);
  });

  it("episodes with token=None: 30 ids in number order, then 5, `more` ending the loop", async () => {
    const first = await channelPage("episodes", 1);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-token-ignored")).toBe("invalid");
    expect(first.headers.get("x-app-ignored")).toBe("unknown");
    const p1 = (await first.json()) as Json;
    expect(p1).toEqual({ more: true, response: episodes.slice(0, 30) });
    const p2 = (await (await channelPage("episodes", 2)).json()) as Json;
    expect(p2).toEqual({ more: false, response: episodes.slice(30) });
  });

  it("the other kinds it walks (movies, clips, trailers) answer an empty page; a real token works the same", async () => {
    for (const kind of ["movies", "clips", "trailers"]) {
      const res = await channelPage(kind, 1);
      expect(res.status, kind).toBe(200);
      expect(await res.json()).toEqual({ more: false, response: [] });
    }
    const token = ((await (await login(pyJson({ username: user.user.username, password: user.password }))).json()) as Json).token;
    const mine = await channelPage("episodes", 2, token);
    expect(mine.headers.get("x-token-ignored")).toBeNull();
    expect(((await mine.json()) as Json).response).toEqual(episodes.slice(30));
  });

  it("token=None still fails where a user is needed (401), and a bad page number falls back to page 1", async () => {
    const res = await api(`/v4/users/${user.id}/threads.json?app=${YTDLP_APP}&token=None`);
    expect(res.status).toBe(401);
    const page = await api(
      `/v4/containers/${channel.wireId}/episodes.json?app=${YTDLP_APP}&token=None&only_ids=true&sort=number&direction=asc&per_page=30&page=abc`,
    );
    expect(page.status).toBe(200);
    expect(((await page.json()) as Json).response).toEqual(episodes.slice(0, 30));
  });
});

describe("playback streams and auth_subtitles (test/v4/playback-streams.test.ts, auth-subtitles.test.ts)", () => {
  it("yt-dlp's own application is refused naming app, and a made-up stream_id is a JSON 403 naming stream_id", async () => {
    const streams = await signedV5(`playback_streams/${episodes[0]}.json?drms=dt3&device_id=112395910d`, {
      wireId: YTDLP_APP,
      secret: "not-registered",
    });
    expect(streams.status).toBe(401);
    expect(((await streams.json()) as Json).details).toEqual([expect.objectContaining({ field: "app" })]);
    const subtitles = await api(`/v4/videos/${episodes[0]}/auth_subtitles/en.srt?app=${YTDLP_APP}&token=None&stream_id=None`);
    expect(subtitles.status).toBe(403);
    const body = (await subtitles.json()) as Json;
    expect(body.error).toEqual(expect.any(String));
    expect(body.details).toEqual([expect.objectContaining({ field: "stream_id" })]);
  });
});
