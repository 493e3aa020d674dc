import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { toXml } from "../src/lib/xml";
import { api, createApplication, errorBody, signedInUser } from "./helpers";
import { createSubtitles } from "./helpers/localisation";
import { type StreamAnswer, addStream, mpd, playbackScene, streamsOf } from "./helpers/playback";

describe("cross-cutting behaviour", () => {
  it("answers unknown routes with the 404 body of docs/spec/wire.md", async () => {
    const res = await api("/v4/nothing-here.json");
    expect(res.status).toBe(404);
    expect(await errorBody(res)).toEqual({ error: "not found", vcode: 404 });
  });

  it("sets request id, private no-store and Server-Timing with D1 cost on every response", async () => {
    const res = await api("/v5/sessions/unknown.json");
    expect(res.headers.get("x-request-id")).toMatch(/\S+/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const timing = res.headers.get("server-timing")!;
    expect(timing).toMatch(/d1;dur=[\d.]+/);
    expect(timing).toMatch(/d1-queries;desc="1"/);
    expect(timing).toMatch(/d1-rows-read;desc="\d+"/);
  });

  it("serves the OpenAPI document generated from the route contracts, with .json paths", async () => {
    const res = await api("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths["/v5/sessions.json"])).toEqual(["post"]);
    expect(Object.keys(doc.paths["/v5/sessions/{token}.json"]).sort()).toEqual(["delete", "get", "put"]);
  });

  it("serves an interactive reference at /docs", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("/openapi.json");
  });
});

describe("D1 read replication bookmarks", () => {
  it("returns the session bookmark and accepts it back", async () => {
    const first = await api("/v4/containers/genres.json");
    const bookmark = first.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/\S+/);
    const next = await api("/v4/containers/genres.json", { headers: { "x-d1-bookmark": bookmark! } });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-d1-bookmark")).toMatch(/\S+/);
  });
});

describe("safe output", () => {
  it("sends nosniff, a referrer policy and HSTS on every response, a CSP on /docs", async () => {
    for (const path of ["/", "/v4/containers.json", "/v4/nothing.json", "/openapi.json"]) {
      const res = await api(path);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(res.headers.get("strict-transport-security"), path).toContain("max-age=");
    }
    const docs = await api("/docs");
    expect(docs.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(docs.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // Plain HTTP (local development) gets no HSTS: it would pin a browser to a scheme the server does not serve.
    const plain = await SELF.fetch("http://api.test/");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends a policy that sandboxes and loads nothing, with nosniff, on every answer but /docs", async () => {
    // A manifest or subtitle file is text a manager or a contributor wrote, served inline from this origin: opened in
    // a browser it must neither run nor load anything, nor be sniffed into HTML.
    const manager = await signedInUser();
    const app = (await createApplication({ official: true })).wireId;
    const { video } = await playbackScene(manager.user.id);
    await createSubtitles(video.id, 2, { en: 2 });
    await addStream(video.wireId, app, manager.token, { kind: "dash", manifest: mpd("<script>alert(1)</script>") });
    const streams = (await (await streamsOf(video.wireId, { app })).json()) as StreamAnswer;
    const answers: Record<string, Response> = {
      "a JSON read": await api("/v4/containers.json"),
      "a 404": await api("/v4/nothing.json"),
      "a 400 naming a field": await api("/v4/containers.json?per_page=many"),
      "a v3 error": await api("/api/v3/movies/0"),
      "an OAuth error": await api("/oauth/token", { method: "POST", json: { grant_type: "nope" } }),
      "a kept manifest": await api(streams.main[0].url),
      "a subtitle file": await api(`/v4/videos/${video.wireId}/subtitle_tracks/en.srt`, { app }),
      "a viewer subtitle file": await api(
        `/v4/videos/${video.wireId}/auth_subtitles/en.vtt?app=${app}&token=None&stream_id=${streams.stream_id}`,
        { unsigned: true },
      ),
      "the OpenAPI document": await api("/openapi.json"),
      "the index": await api("/"),
    };
    expect(answers["a kept manifest"].status).toBe(200);
    expect(answers["a subtitle file"].status).toBe(200);
    expect(answers["a viewer subtitle file"].status).toBe(200);
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers.get("content-security-policy"), what).toBe("default-src 'none'; sandbox");
      expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
    }
    // /docs keeps its own policy (Swagger UI runs there), and its script no sandbox.
    for (const path of ["/docs", "/docs/init.js"]) {
      expect((await api(path)).headers.get("content-security-policy") ?? "", path).not.toContain("sandbox");
    }
  });

  it("v3 XML never carries characters XML 1.0 forbids", () => {
    const xml = toXml({ title: "a\u0000b\u0007c\u000bd\u001fe\ttab\nline\uFFFEf\uD800g 😀" });
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?><response><title>abcde\ttab\nlinefg 😀</title></response>');
  });
});
