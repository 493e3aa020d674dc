import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { findJob } from "../../src/db/queries/jobs";
import { writeSrt } from "../../src/domain/subtitles/srt";
import { api, db, errorBody, signedInUser } from "../helpers";
import { createVideo, managedContainer } from "../helpers/catalogue";
import { waitForJob } from "../helpers/subtitles";

type JobBody = { job: { id: string } };
let official: string;
let manager: Awaited<ReturnType<typeof signedInUser>>;
let containerId: number;

beforeAll(async () => {
  ({ official, manager, containerId } = await managedContainer("Import options"));
});

const importPath = (video: string, query = "") =>
  `/v4/videos/${video}/subtitles/import_srt.json?app=${official}&token=${manager.token}${query}`;
const postRaw = (path: string, body: BodyInit, type = "text/plain") =>
  api(path, { method: "POST", body, headers: { "content-type": type } });
const newVideo = async () => (await createVideo(containerId)).wireId;
const jsonTrack = async (video: string, language: string) =>
  (
    (await (await api(`/v4/videos/${video}/subtitle_tracks/${language}.json?app=${official}`)).json()) as {
      cues: Array<{ start_ms: number; end_ms: number; text: string }>;
    }
  ).cues;
async function imported(res: Response) {
  expect(res.status, await res.clone().text()).toBe(202);
  const id = ((await res.json()) as JobBody).job.id;
  return { id, job: await waitForJob(id, manager.token) };
}

const CUES = [
  { startMs: 2000, endMs: 3000, text: "first" },
  { startMs: 4000, endMs: 6000, text: "second" },
];

describe("import options", () => {
  it("reads WebVTT, SBV, SSA and TTML sent raw under their own content types, detected from the content", async () => {
    const files = [
      ["text/vtt", "WEBVTT\n\n00:02.000 --> 00:03.000 line:0\n<i>first</i>\n\n00:04.000 --> 00:06.000\nsecond\n", "vtt"],
      ["text/plain", "0:00:02.000,0:00:03.000\n<i>first</i>\n\n0:00:04.000,0:00:06.000\nsecond\n", "sbv"],
      [
        "text/x-ssa",
        "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n" +
          "Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,{\\i1}first{\\i0}\nDialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,,{\\pos(1,2)}second\n",
        "ass",
      ],
      [
        "application/ttml+xml",
        '<?xml version="1.0"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>\n' +
          '<p begin="2s" end="3s"><span tts:fontStyle="italic">first</span></p>\n<p begin="00:00:04.000" end="00:00:06.000">second</p>\n</div></body></tt>',
        "ttml",
      ],
    ] as const;
    for (const [type, content, format] of files) {
      const video = await newVideo();
      const { job } = await imported(await postRaw(importPath(video, "&language=en"), content, type));
      expect(job.result, format).toMatchObject({ format, format_source: "content", cues: 2, created: 2 });
      const expected = format === "sbv" ? ["<i>first</i>", "second"] : ["<i>first</i>", "second"];
      expect(
        (await jsonTrack(video, "en")).map((c) => c.text),
        format,
      ).toEqual(expected);
    }
  });

  it("format= reads the file as named, and a file that is not that format fails naming cue and line", async () => {
    const video = await newVideo();
    const { job } = await imported(await postRaw(importPath(video, "&language=en&format=vtt"), writeSrt(CUES)));
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^invalid WebVTT file: line 1: /);
  });

  it("takes format and the timing change in the JSON body too", async () => {
    const video = await newVideo();
    const { job } = await imported(
      await api(importPath(video), { method: "POST", json: { language: "en", content: writeSrt(CUES), format: "srt", offset_ms: -3000 } }),
    );
    expect(job.result).toMatchObject({
      format: "srt",
      format_source: "parameter",
      quality: { shifted_before_zero: { count: 1, cues: [1] } },
    });
    expect(await jsonTrack(video, "en")).toEqual([{ start_ms: 1000, end_ms: 3000, text: "second" }]);
  });

  it("applies offset_ms and a frame-rate conversion from the query", async () => {
    const video = await newVideo();
    await imported(await postRaw(importPath(video, "&language=en&fps_from=25&fps_to=50&offset_ms=100"), writeSrt(CUES)));
    expect((await jsonTrack(video, "en")).map((c) => [c.start_ms, c.end_ms])).toEqual([
      [1100, 1600],
      [2100, 3100],
    ]);
  });

  it("encoding= decodes legacy bytes the language would not suggest", async () => {
    const video = await newVideo();
    // "Привет" in windows-1251, imported as English: only encoding= can say what it is.
    const cyrillic = new Uint8Array([
      ...new TextEncoder().encode("1\r\n00:00:01,000 --> 00:00:02,000\r\n"),
      0xcf,
      0xf0,
      0xe8,
      0xe2,
      0xe5,
      0xf2,
      0x0d,
      0x0a,
    ]);
    const { job } = await imported(await postRaw(importPath(video, "&language=en&encoding=cp1251"), cyrillic, "application/octet-stream"));
    expect(job.result).toMatchObject({ encoding: { name: "windows-1251", source: "parameter" } });
    expect((await jsonTrack(video, "en"))[0].text).toBe("Привет");
  });

  it("refuses bad options with a 400 naming the field, before anything is stored", async () => {
    const video = await newVideo();
    for (const [query, field] of [
      ["&format=mp4", "format"],
      ["&encoding=ebcdic", "encoding"],
      ["&offset_ms=later", "offset_ms"],
      ["&offset_ms=86400001", "offset_ms"],
      ["&fps_from=25", "fps_to"],
      ["&fps_from=25&fps_to=0", "fps_to"],
    ] as const) {
      const res = await postRaw(importPath(video, `&language=en${query}`), writeSrt(CUES));
      expect(res.status, query).toBe(400);
      expect((await errorBody(res)).details?.[0].field, query).toBe(field);
    }
  });

  it("reports what it noticed: reordered, zero-length, overlapping, fast, long and crowded cues, and empty ones", async () => {
    const video = await newVideo();
    const file =
      "1\n00:00:05,000 --> 00:00:06,000\nlate\n\n2\n00:00:01,000 --> 00:00:01,000\nflash\n\n3\n00:00:01,500 --> 00:00:09,000\n" +
      "a line of this cue that runs past forty-two characters\n\n4\n00:00:08,000 --> 00:00:08,200\nfar too fast to read here\n\n" +
      "5\n00:00:10,000 --> 00:00:12,000\none\ntwo\nthree\n\n6\n00:00:13,000 --> 00:00:14,000\n\n";
    const { job } = await imported(await postRaw(importPath(video, "&language=en"), file));
    expect(job.result).toMatchObject({
      cues: 5,
      quality: {
        cues_read: 6,
        cues_stored: 5,
        reordered: { count: 1, cues: [2] },
        zero_length: { count: 1, cues: [2] },
        overlaps: { count: 2, cues: [1, 4] },
        fast_reading: { count: 1, cues: [4] },
        long_lines: { count: 1, cues: [3] },
        many_lines: { count: 1, cues: [5] },
        // The English profile's duration and gap rules: 2 is zero-length and 4 lasts 0.2 s; 3 lasts 7.5 s and runs past
        // the start of 1 (the next cue in time order).
        short_duration: { count: 2, cues: [2, 4] },
        long_duration: { count: 1, cues: [3] },
        small_gap: { count: 1, cues: [3] },
        empty: { count: 1, cues: [6] },
      },
    });
  });

  it("deletes the upload from R2 when the job ends, succeeded or failed", async () => {
    const video = await newVideo();
    const ok = await imported(await postRaw(importPath(video, "&language=en"), writeSrt(CUES)));
    const bad = await imported(await postRaw(importPath(video, "&language=fr"), "not subtitles at all"));
    expect(bad.job.status).toBe("failed");
    for (const { id } of [ok, bad]) {
      const row = (await findJob(db(), Number.parseInt(id, 10)))!;
      expect(row.payloadKey).toBe(`imports/${row.id}/upload`);
      expect(await env.SUBTITLES.head(row.payloadKey!)).toBeNull();
    }
  });
});
