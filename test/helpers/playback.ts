import { expect } from "vitest";
import { api, type ApiInit } from ".";
import { createContainer, createVideo } from "./catalogue";

/** A minimal DASH manifest; `tag` makes its bytes (and so its kept object) distinct. */
export const mpd = (tag = "a") =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${tag} -->\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" ` +
  `mediaPresentationDuration="PT1M"><Period id="1"><BaseURL>https://cdn.example.com/${tag}/</BaseURL></Period></MPD>\n`;

/** A minimal HLS master playlist. */
export const m3u8 = (tag = "a") =>
  `#EXTM3U\n#EXT-X-VERSION:3\n## ${tag}\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nhttps://cdn.example.com/${tag}/360.m3u8\n`;

/** A container managed by `managerId` (anything else given) with one video. */
export async function playbackScene(managerId: number, container: Parameters<typeof createContainer>[0] = {}) {
  const c = await createContainer({ title: `Playback ${crypto.randomUUID()}`, managers: [managerId], ...container });
  const video = await createVideo(c.id, { number: 1, title: "Episode 1" });
  return { container: c, video };
}

export interface StreamAnswer {
  main: Array<{
    id: string;
    kind: "dash" | "hls";
    url: string;
    resolutions: number[];
    audio_languages: string[];
    drm: string | null;
    properties: { track: { stream_id: string } };
  }>;
  stream_id: string;
  expires_at: string;
}

/** Registers a stream as `token` with the official application `app`; returns the stream (201 expected). */
export async function addStream(videoWireId: string, app: string, token: string, json: Record<string, unknown>) {
  const res = await api(`/v4/videos/${videoWireId}/playback_streams.json`, { method: "POST", app, token, json });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; manifest_sha256: string | null; manifest_url: string | null };
}

/** The streams answer at the documented v4 path (`init` names the caller). */
export const streamsOf = (videoWireId: string, init: ApiInit = {}) => api(`/v4/videos/${videoWireId}/playback_streams.json`, init);

/** A request from a country (Cloudflare's `cf.country`), as `api()` passes `cf` through. */
export const from = (country: string): ApiInit => ({ cf: { country } }) as ApiInit;

/** `d1-trips` of Server-Timing: D1 round trips of the request. */
export const trips = (res: Response) => Number(/d1-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
