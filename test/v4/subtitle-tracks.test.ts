import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- webvtt-parser (the W3C validator's parser) ships no type declarations
import { WebVTTParser } from "webvtt-parser";
import { readAss } from "../../src/domain/subtitles/ass";
import type { Cue } from "../../src/domain/subtitles/cue";
import { SUBTITLE_FORMATS } from "../../src/domain/subtitles/formats";
import { readSbv } from "../../src/domain/subtitles/sbv";
import { readSrt } from "../../src/domain/subtitles/srt";
import { readTtml } from "../../src/domain/subtitles/ttml/ttml";
import { readVtt } from "../../src/domain/subtitles/vtt";
import { plainText } from "../../src/domain/subtitles/markup";
import { api, errorBody, signedInUser, type User } from "../helpers";
import { createContainer, createVideo, visibleAndHidden } from "../helpers/catalogue";
import { importSrt, waitForJob } from "../helpers/subtitles";

type Cast = Awaited<ReturnType<typeof visibleAndHidden>>;
let official: string;
let partner: string;
let manager: User;
let other: User;
let video: Cast["video"];
let hidden: Cast["hidden"];

const CUES = [
  { startMs: 1000, endMs: 2500, text: "<i>Hello</i> & welcome" },
  { startMs: 3000, endMs: 4000, text: "안녕하세요\n<b>두 줄</b>" },
  { startMs: 5000, endMs: 7250, text: "مرحبا بالعالم 👋" },
];

beforeAll(async () => {
  ({ official, partner, manager, video, hidden } = await visibleAndHidden("Tracks"));
  other = await signedInUser();
  await importSrt({ app: official, token: manager.token }, video, CUES, "ko");
});

const trackPath = (v: string, file: string, query = "") => `/v4/videos/${v}/subtitle_tracks/${file}?app=${official}${query}`;
const times = (cues: Cue[]) => cues.map((c) => [c.startMs, c.endMs]);

describe("GET /v4/videos/<id>/subtitle_tracks/<language>.<ext>", () => {
  const READERS = { srt: readSrt, vtt: readVtt, sbv: readSbv, ass: readAss, ttml: readTtml } as const;
  const TYPES = {
    srt: "application/x-subrip",
    vtt: "text/vtt",
    sbv: "text/plain",
    ass: "text/x-ssa",
    ttml: "application/ttml+xml",
  } as const;

  for (const ext of Object.keys(READERS) as Array<keyof typeof READERS>) {
    it(`writes the track as ${ext}, which reads back cue for cue`, async () => {
      const res = await api(trackPath(video.wireId, `ko.${ext}`));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(`${TYPES[ext]}; charset=utf-8`);
      expect(res.headers.get("content-disposition")).toBe(`inline; filename="${video.wireId}.ko.${ext}"`);
      const { cues } = READERS[ext](await res.text());
      // ASS keeps centiseconds: the test times are whole centiseconds.
      expect(times(cues)).toEqual(times(CUES as Cue[]));
      const expected = CUES.map((c) => (ext === "sbv" ? plainText(c.text) : c.text));
      expect(cues.map((c) => c.text)).toEqual(expected);
    });
  }

  it("writes JSON: the cues with start and end in milliseconds and their text", async () => {
    const res = await api(trackPath(video.wireId, "ko.json"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({
      language: "ko",
      cues: CUES.map((c) => ({ start_ms: c.startMs, end_ms: c.endMs, text: c.text })),
    });
  });

  it("has an ETag per format and timing, and answers 304 to it without a body", async () => {
    const tags = new Set<string>();
    for (const file of ["ko.srt", "ko.vtt", "ko.json"]) {
      const res = await api(trackPath(video.wireId, file));
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{32}\.\w+"$/);
      tags.add(etag);
      const again = await api(trackPath(video.wireId, file), { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    }
    const shifted = await api(trackPath(video.wireId, "ko.srt", "&offset_ms=500"));
    tags.add(shifted.headers.get("etag")!);
    expect(tags.size).toBe(4);
  });

  it("shifts and converts timing on download; cues that end before zero are left out", async () => {
    const shifted = readSrt(await (await api(trackPath(video.wireId, "ko.srt", "&offset_ms=-3500"))).text()).cues;
    expect(times(shifted)).toEqual([
      [0, 500],
      [1500, 3750],
    ]);
    const converted = readVtt(await (await api(trackPath(video.wireId, "ko.vtt", "&fps_from=25&fps_to=50"))).text()).cues;
    expect(times(converted)).toEqual([
      [500, 1250],
      [1500, 2000],
      [2500, 3625],
    ]);
  });

  it("refuses unknown extensions, bad languages and bad timing with a 400 naming the field", async () => {
    for (const [file, query, field] of [
      ["ko.txt", "", "file"],
      ["ko", "", "file"],
      ["ko.srt.zip", "", "file"],
      ["KO.vtt", "", "language"],
      ["%E0%A4%A.vtt", "", "language"],
      ["ko.vtt", "&offset_ms=soon", "offset_ms"],
      ["ko.vtt", "&offset_ms=1.5", "offset_ms"],
      ["ko.vtt", "&offset_ms=999999999999", "offset_ms"],
      ["ko.vtt", "&fps_from=25", "fps_to"],
      ["ko.vtt", "&fps_to=25", "fps_from"],
      ["ko.vtt", "&fps_from=0&fps_to=25", "fps_from"],
    ] as const) {
      const res = await api(trackPath(video.wireId, file, query));
      expect(res.status, `${file}${query}`).toBe(400);
      expect((await errorBody(res)).details?.[0].field, `${file}${query}`).toBe(field);
    }
  });

  it("404s a language without text and a hidden video (unless the caller manages it)", async () => {
    expect((await api(trackPath(video.wireId, "fr.vtt"))).status).toBe(404);
    expect((await api(trackPath(hidden.wireId, "ko.vtt"))).status).toBe(404);
    expect((await api(trackPath(hidden.wireId, "ko.vtt", `&token=${other.token}`))).status).toBe(404);
    expect((await api(trackPath("999999999v", "ko.vtt"))).status).toBe(404);
  });

  it("is for official applications only", async () => {
    expect((await api(`/v4/videos/${video.wireId}/subtitle_tracks/ko.vtt`)).status).toBe(400);
    const res = await api(`/v4/videos/${video.wireId}/subtitle_tracks/ko.vtt?app=${partner}`);
    expect(res.status).toBe(403);
    expect((await errorBody(res)).vcode).toBe(5403);
    const unsigned = await api(trackPath(video.wireId, "ko.vtt"), { unsigned: true });
    expect(unsigned.status).toBe(401);
  });

  it("writes a zero-length cue to WebVTT 1 ms long, so the W3C parser reads the file with no error", async () => {
    const c = await createContainer({ title: "Zero length", managers: [manager.user.id] });
    const flash = await createVideo(c.id);
    const file =
      "1\n00:00:01,000 --> 00:00:02,000\nBefore\n\n2\n00:00:03,000 --> 00:00:03,000\n(flash)\n\n3\n00:00:04,000 --> 00:00:05,000\nAfter\n";
    const res = await api(`/v4/videos/${flash.wireId}/subtitles/import_srt.json?app=${official}&language=en&token=${manager.token}`, {
      method: "POST",
      body: file,
      headers: { "content-type": "text/plain" },
    });
    const job = await waitForJob(((await res.json()) as { job: { id: string } }).job.id, manager.token);
    expect(job.status).toBe("succeeded");
    // Stored as read, and noted in the import's quality report.
    expect((job.result as { quality: { zero_length: unknown } }).quality.zero_length).toEqual({ count: 1, cues: [2] });
    await waitForJob((job.result as { completion_job: string }).completion_job, manager.token);
    const json = (await (await api(trackPath(flash.wireId, "en.json"))).json()) as { cues: Array<{ start_ms: number; end_ms: number }> };
    expect(json.cues.map((q) => [q.start_ms, q.end_ms])).toEqual([
      [1000, 2000],
      [3000, 3000],
      [4000, 5000],
    ]);
    const vtt = await (await api(trackPath(flash.wireId, "en.vtt"))).text();
    const oracle = new WebVTTParser().parse(vtt) as { cues: Array<{ startTime: number; endTime: number }>; errors: unknown[] };
    expect(oracle.errors).toEqual([]);
    expect(oracle.cues.map((q) => [Math.round(q.startTime * 1000), Math.round(q.endTime * 1000)])).toEqual([
      [1000, 2000],
      [3000, 3001],
      [4000, 5000],
    ]);
  });

  it("keeps the .srt route of the interface as it was, with the same ETag rules and timing", async () => {
    const srt = await api(`/v4/videos/${video.wireId}/subtitles/ko.srt?app=${official}`);
    expect(srt.status).toBe(200);
    expect(await srt.text()).toBe(await (await api(trackPath(video.wireId, "ko.srt"))).text());
    expect((await api(`/v4/videos/${video.wireId}/subtitles/ko.vtt?app=${official}`)).status).toBe(400);
  });
});

describe("GET /v4/videos/<id>/subtitle_tracks.json", () => {
  it("lists the languages with cue counts, completion and the URL of each format", async () => {
    const res = await api(`/v4/videos/${video.wireId}/subtitle_tracks.json?app=${official}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      video_id: string;
      tracks: Array<{ language: string; cues: number; completion: number; formats: Record<string, string> }>;
    };
    expect(body.video_id).toBe(video.wireId);
    expect(body.tracks).toHaveLength(1);
    expect(body.tracks[0]).toMatchObject({ language: "ko", cues: 3, completion: 100 });
    expect(Object.keys(body.tracks[0].formats)).toEqual([...SUBTITLE_FORMATS, "json"]);
    expect(body.tracks[0].formats.vtt).toMatch(new RegExp(`/v4/videos/${video.wireId}/subtitle_tracks/ko\\.vtt$`));
  });

  it("404s a hidden video for others, and needs an official application", async () => {
    expect((await api(`/v4/videos/${hidden.wireId}/subtitle_tracks.json?app=${official}`)).status).toBe(404);
    expect((await api(`/v4/videos/${hidden.wireId}/subtitle_tracks.json?app=${official}&token=${manager.token}`)).status).toBe(200);
    expect((await api(`/v4/videos/${video.wireId}/subtitle_tracks.json?app=${partner}`)).status).toBe(403);
  });
});
