import { describe, expect, it } from "vitest";
import { SUBTITLE_LIMITS } from "../../../src/domain/subtitles/cue";
import { SUBTITLE_FORMATS, detectFormat } from "../../../src/domain/subtitles/formats";
import { readSubtitleFile } from "../../../src/domain/subtitles/read-file";
import { writeSrt } from "../../../src/domain/subtitles/srt";
import { retime } from "../../../src/domain/subtitles/timing";
import { writeTrack } from "../../../src/domain/subtitles/write-file";
import { refused } from "./refused";
import { fastest } from "../../helpers/timing";

const bytes = (text: string) => new TextEncoder().encode(text);
const read = (text: string, options: Partial<Parameters<typeof readSubtitleFile>[1]> = {}) =>
  readSubtitleFile(bytes(text), { language: "en", ...options });

const refusal = refused;

describe("detectFormat", () => {
  it("tells the formats apart by their content", () => {
    expect(detectFormat("WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n")).toBe("vtt");
    expect(detectFormat('<?xml version="1.0"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body/></tt>')).toBe("ttml");
    expect(detectFormat("[Script Info]\nScriptType: v4.00+\n")).toBe("ass");
    expect(detectFormat("0:00:01.000,0:00:02.000\nhi\n")).toBe("sbv");
    expect(detectFormat("1\n00:00:01,000 --> 00:00:02,000\nhi\n")).toBe("srt");
    expect(detectFormat("something else")).toBe("srt");
  });
});

describe("readSubtitleFile", () => {
  it("orders cues by start and reports the ones that were out of order, with their file positions", () => {
    const { cues, report } = read(
      "1\n00:00:05,000 --> 00:00:06,000\nthird\n\n2\n00:00:01,000 --> 00:00:02,000\nfirst\n\n3\n00:00:03,000 --> 00:00:04,000\nsecond\n",
    );
    expect(cues.map((c) => [c.text, c.index])).toEqual([
      ["first", 2],
      ["second", 3],
      ["third", 1],
    ]);
    expect(report.reordered).toEqual({ count: 1, cues: [2] });
    expect(report).toMatchObject({ format: "srt", format_source: "content", cues_read: 3, encoding: { name: "utf-8", source: "utf-8" } });
  });

  it("refuses a cue that ends before it starts, naming cue and line", () => {
    const err = refusal(() => read("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:04,000 --> 00:00:03,000\nbad\n"));
    expect(err).toMatchObject({ cue: 2, line: 6, format: "srt" });
    expect(err.message).toBe("cue 2 (line 6): the cue ends before it starts (00:00:04,000 --> 00:00:03,000)");
  });

  it("keeps zero-length cues, drops empty ones and counts both", () => {
    const { cues, report } = read(
      "1\n00:00:01,000 --> 00:00:01,000\nflash\n\n2\n00:00:02,000 --> 00:00:03,000\n\n3\n00:00:04,000 --> 00:00:05,000\nend\n",
    );
    expect(cues.map((c) => c.text)).toEqual(["flash", "end"]);
    expect(report.zero_length).toEqual({ count: 1, cues: [1] });
    expect(report.empty).toEqual({ count: 1, cues: [2] });
  });

  it("reports the blocks a reader skipped, as players skip them, and refuses a file with none readable", () => {
    const vtt = read("WEBVTT\n\n00:01.000 --> 00:02.000\none\n\n00:03.000 --> later\nlost\n\n00:04.000 --> 00:05.000\nthree\n");
    expect(vtt.cues.map((c) => [c.index, c.text])).toEqual([
      [1, "one"],
      [3, "three"],
    ]);
    expect(vtt.report).toMatchObject({ cues_read: 2, skipped: { count: 1, blocks: [{ cue: 2, line: 6 }] } });
    expect(read("1\n00:00:01,000 --> 00:00:02,000\nok\n").report.skipped).toEqual({ count: 0, blocks: [] });
    const none = refusal(() => read("WEBVTT\n\n00:03.000 --> later\nlost\n"));
    expect(none).toMatchObject({ cue: 1, line: 3, format: "vtt" });
  });

  it("refuses a file with no cue, and one whose cues are all empty", () => {
    expect(refusal(() => read("\n\n")).message).toMatch(/no cue/);
    expect(refusal(() => read("1\n00:00:01,000 --> 00:00:02,000\n\n")).message).toMatch(/empty/);
  });

  it("refuses past each limit, naming the limit, the cue and the line", () => {
    const tooMany = Array.from({ length: SUBTITLE_LIMITS.cues + 1 }, (_, i) => ({ startMs: i * 10, endMs: i * 10 + 5, text: "x" }));
    const many = refusal(() => read(writeSrt(tooMany)));
    expect(many).toMatchObject({ limit: "cues", cue: SUBTITLE_LIMITS.cues + 1 });
    expect(many.message).toContain(`at most ${SUBTITLE_LIMITS.cues} cues`);

    const longLine = refusal(() => read(`1\n00:00:01,000 --> 00:00:02,000\n${"a".repeat(SUBTITLE_LIMITS.lineChars + 1)}\n`));
    expect(longLine).toMatchObject({ limit: "lineChars", cue: 1, line: 2 });
    const longCue = refusal(() => read(`1\n00:00:01,000 --> 00:00:02,000\n${`${"b".repeat(400)}\n`.repeat(6)}`));
    expect(longCue).toMatchObject({ limit: "cueChars", cue: 1, line: 2 });
  });

  it("applies a frame-rate conversion then a shift, dropping and counting cues that end before zero", () => {
    const text = writeSrt([
      { startMs: 1000, endMs: 2000, text: "gone" },
      { startMs: 2500, endMs: 5000, text: "clipped" },
      { startMs: 10_000, endMs: 12_500, text: "kept" },
    ]);
    const { cues, report } = read(text, { timing: { offsetMs: -3000, fpsFrom: 25, fpsTo: 25 } });
    expect(cues.map((c) => [c.startMs, c.endMs, c.text])).toEqual([
      [0, 2000, "clipped"],
      [7000, 9500, "kept"],
    ]);
    expect(report.shifted_before_zero).toEqual({ count: 1, cues: [1] });
    const converted = read(text, { timing: { fpsFrom: 25, fpsTo: 23.976 } }).cues;
    expect(converted[2].startMs).toBe(Math.round((10_000 * 25) / 23.976));
  });

  it("reports overlaps and the checks of the language's profile: fast reading, long lines, crowded, short and close cues", () => {
    const { report } = read(
      writeSrt([
        { startMs: 0, endMs: 3000, text: "fine" },
        { startMs: 2000, endMs: 2500, text: "this cue is far too fast to read" },
        { startMs: 4000, endMs: 9000, text: "a line that is longer than forty-two characters" },
        { startMs: 10_000, endMs: 15_000, text: "one\ntwo\nthree" },
      ]),
    );
    expect(report).toMatchObject({
      overlaps: { count: 1, cues: [2] },
      fast_reading: { count: 1, cues: [2] },
      long_lines: { count: 1, cues: [3] },
      many_lines: { count: 1, cues: [4] },
      // English: 20 characters a second, 42 a line, 2 lines, 5/6 s to 7 s, 2 frames at 24 fps between cues.
      short_duration: { count: 1, cues: [2] },
      long_duration: { count: 0, cues: [] },
      small_gap: { count: 1, cues: [1] },
    });
  });

  it("reads each format through the same pipeline, by content or by format=", () => {
    const vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000 align:start\n<i>hi</i> &amp; bye\n";
    expect(read(vtt).cues[0]).toMatchObject({ startMs: 1000, endMs: 2000, text: "<i>hi</i> & bye" });
    expect(read(vtt).report.format).toBe("vtt");
    const err = refusal(() => read(vtt, { format: "srt" }));
    expect(err.format).toBe("srt");
  });

  it("reads a 2 MiB pathological file in each format in under a second", () => {
    const line = " ".repeat(2 * 1024 * 1024 - 3) + "a\u2028a";
    for (const format of SUBTITLE_FORMATS) {
      expect(fastest(() => read(line, { format }), { limitMs: 1000, refusals: true }).ms, format).toBeLessThan(1000);
    }
  });
});

describe("writeTrack", () => {
  it("tidies stored texts (CR, blank lines) and writes JSON with milliseconds", () => {
    const { body } = writeTrack([{ startMs: 0, endMs: 1000, text: "a\r\n\r\nb  " }], "json", { language: "fr" });
    expect(JSON.parse(body)).toEqual({ language: "fr", cues: [{ start_ms: 0, end_ms: 1000, text: "a\nb" }] });
  });

  it("shares the timing change with the import", () => {
    expect(retime([{ startMs: 100, endMs: 200, text: "x" }], { offsetMs: -150 }).cues).toEqual([{ startMs: 0, endMs: 50, text: "x" }]);
  });
});
