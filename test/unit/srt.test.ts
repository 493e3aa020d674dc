import { describe, expect, it } from "vitest";
import { SrtError, buildSrt, decodeSubtitleBytes, parseSrt } from "../../src/services/srt";

const SAMPLE = "1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nTwo\r\nlines\r\n";

function srtError(fn: () => unknown): SrtError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SrtError) return err;
    throw err;
  }
  throw new Error("expected an SrtError");
}

describe("parseSrt", () => {
  it("reads cues with times and multi-line text", () => {
    expect(parseSrt(SAMPLE)).toEqual([
      { index: 1, startMs: 1000, endMs: 2500, text: "Hello" },
      { index: 2, startMs: 3000, endMs: 4000, text: "Two\nlines" },
    ]);
  });

  it("reads a two-digit fraction as SubRip means it (1,5 = 1.5 s)", () => {
    expect(parseSrt("1\n00:00:01,5 --> 00:00:02,25\nx\n")[0]).toMatchObject({ startMs: 1500, endMs: 2250 });
  });

  it("names the cue and line of a broken timing", () => {
    const err = srtError(() => parseSrt("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03,000 -> 00:00:04,000\nbad\n"));
    expect(err).toMatchObject({ cue: 2, line: 6 });
    expect(err.message).toBe('cue 2 (line 6): expected "hh:mm:ss,mmm --> hh:mm:ss,mmm"');
  });

  it("refuses cues that end before they start, are out of order or have no text", () => {
    expect(srtError(() => parseSrt("1\n00:00:02,000 --> 00:00:01,000\nx\n")).message).toContain("ends before it starts");
    expect(srtError(() => parseSrt("1\n00:00:05,000 --> 00:00:06,000\nx\n\n2\n00:00:01,000 --> 00:00:02,000\ny\n")).cue).toBe(2);
    expect(srtError(() => parseSrt("1\n00:00:01,000 --> 00:00:02,000\n\n")).message).toContain("no text");
    expect(srtError(() => parseSrt("x\n00:00:01,000 --> 00:00:02,000\nhi\n")).message).toContain("expected a cue number");
  });

  it("refuses an empty file", () => {
    expect(srtError(() => parseSrt("\n\n")).message).toBe("the file holds no cues");
  });
});

describe("decodeSubtitleBytes", () => {
  const utf8 = new TextEncoder().encode("1\n00:00:01,000 --> 00:00:02,000\nÉté\n");
  it("reads UTF-8 with and without a BOM", () => {
    expect(decodeSubtitleBytes(utf8)).toContain("Été");
    expect(decodeSubtitleBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toMatch(/^1\n/);
  });

  it("reads UTF-16 LE and BE by their BOM", () => {
    const text = "1\n00:00:01,000 --> 00:00:02,000\n한국어\n";
    const le = new Uint8Array(2 + text.length * 2);
    const be = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    be.set([0xfe, 0xff]);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      le[2 + i * 2] = code & 0xff;
      le[3 + i * 2] = code >> 8;
      be[2 + i * 2] = code >> 8;
      be[3 + i * 2] = code & 0xff;
    }
    expect(decodeSubtitleBytes(le)).toBe(text);
    expect(decodeSubtitleBytes(be)).toBe(text);
  });

  it("refuses bytes that are not UTF-8 (e.g. Latin-1)", () => {
    expect(() => decodeSubtitleBytes(new Uint8Array([0x31, 0x0a, 0xe9, 0x74, 0xe9]))).toThrow(/not valid UTF-8/);
  });
});

describe("buildSrt", () => {
  it("builds SubRip that parses back to the same cues", () => {
    const cues = [
      { startMs: 0, endMs: 1200, text: "First" },
      { startMs: 3_723_004, endMs: 3_724_000, text: "Line one\nLine two" },
    ];
    const srt = buildSrt(cues);
    expect(srt).toContain("01:02:03,004 --> 01:02:04,000");
    expect(parseSrt(srt).map(({ startMs, endMs, text }) => ({ startMs, endMs, text }))).toEqual(cues);
  });
});
