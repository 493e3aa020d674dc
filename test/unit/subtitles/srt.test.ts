import { describe, expect, it } from "vitest";
import { looksLikeSrt, readSrt, writeSrt } from "../../../src/domain/subtitles/srt";
import { refused } from "./refused";
import { fastest } from "../../helpers/timing";

const refusal = (text: string) => refused(() => readSrt(text));

/** The cues without their positions, for comparing times and text. */
const timed = (text: string) => readSrt(text).cues.map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));

describe("readSrt", () => {
  it("reads cues with their positions, times and text", () => {
    const { cues, notes } = readSrt(
      "1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n2\r\n01:02:03,004 --> 01:02:04,000\r\nTwo\r\nlines\r\n",
    );
    expect(cues).toEqual([
      { index: 1, line: 2, startMs: 1000, endMs: 2500, text: "Hello" },
      { index: 2, line: 6, startMs: 3_723_004, endMs: 3_724_000, text: "Two\nlines" },
    ]);
    expect(notes).toEqual([]);
  });

  it("reads CR-only and LF line ends, a missing final newline, and a stray BOM", () => {
    expect(timed("\uFEFF1\r00:00:01.000 --> 00:00:02.000\rA\r\r2\r00:00:03.000 --> 00:00:04.000\rB")).toEqual([
      { startMs: 1000, endMs: 2000, text: "A" },
      { startMs: 3000, endMs: 4000, text: "B" },
    ]);
  });

  it("drops text after the end time and says on how many timing lines", () => {
    const { cues, notes } = readSrt(
      "1\n00:00:01,000 --> 00:00:02,000 X1:40 X2:600 Y1:20 Y2:50\nA\n\n2\n00:00:03,000 --> 00:00:04,000 hack the planet\nB\n\n3\n00:00:05,000 --> 00:00:06,000   \nC\n",
    );
    expect(cues.map((c) => [c.startMs, c.endMs, c.text])).toEqual([
      [1000, 2000, "A"],
      [3000, 4000, "B"],
      [5000, 6000, "C"],
    ]);
    expect(notes).toEqual(["text after the end time dropped on 2 timing lines"]);
  });

  it("reads 1-3 digits of milliseconds as whole milliseconds, as FFmpeg, VLC and mpv do, with a comma or a dot", () => {
    expect(
      timed("1\n00:00:01,5 --> 00:00:02.04\nx\n\n2\n00:00:07,000 --> 00:00:11.890\ny\n\n3\n00:11:01,97 --> 00:11:01,831\nz\n"),
    ).toEqual([
      { startMs: 1005, endMs: 2004, text: "x" },
      { startMs: 7000, endMs: 11_890, text: "y" },
      // A real film writes its milliseconds unpadded: 97 ms, so the cue ends after it starts.
      { startMs: 661_097, endMs: 661_831, text: "z" },
    ]);
    // Past three digits only the first three count (FFmpeg reads at most three).
    expect(timed("00:00:01,1234 --> 00:00:02,0009\nx\n")).toEqual([{ startMs: 1123, endMs: 2000, text: "x" }]);
  });

  it("reads timestamps without milliseconds, one-digit fields and hours of three or more digits", () => {
    expect(timed("1\n00:01:39 --> 00:01:41,04\na\n\n2\n0:0:1,000 --> 00:00:0,500\nb\n\n3\n100:00:00,500 --> 1234:05:06,700\nc\n")).toEqual([
      { startMs: 99_000, endMs: 101_004, text: "a" },
      { startMs: 1000, endMs: 500, text: "b" },
      { startMs: 360_000_500, endMs: 4_442_706_700, text: "c" },
    ]);
  });

  it("reads the arrows '- >' and '->' as '-->', with or without spaces, and says so", () => {
    const { cues, notes } = readSrt(
      "1\n00:00:01,000 - > 00:00:02,000\na\n\n2\n00:00:03,000->00:00:04,000\nb\n\n3\n00:00:05,000-->00:00:06,000\nc\n",
    );
    expect(cues.map((c) => [c.startMs, c.endMs, c.text])).toEqual([
      [1000, 2000, "a"],
      [3000, 4000, "b"],
      [5000, 6000, "c"],
    ]);
    expect(notes).toEqual(['2 timing lines with "- >" or "->" read as "-->"']);
  });

  it("takes any cue numbers, white space around them, or none at all", () => {
    const text =
      "  7 \n00:00:01,000 --> 00:00:02,000\na\n\n7\n00:00:03,000 --> 00:00:04,000\nb\n\n00:00:05,000 --> 00:00:06,000\nc\n\n2\n00:00:07,000 --> 00:00:08,000\nd\n";
    expect(readSrt(text).cues.map((c) => [c.index, c.line, c.text])).toEqual([
      [1, 2, "a"],
      [2, 6, "b"],
      [3, 9, "c"],
      [4, 13, "d"],
    ]);
  });

  it("takes any number of blank lines before, between and after cues, white-space-only ones too", () => {
    expect(timed("\n\n \t\n1\n00:00:01,000 --> 00:00:02,000\na\n\n\n\n2\n\n00:00:03,000 --> 00:00:04,000\nb\n\n\n\u00a0\n")).toEqual([
      { startMs: 1000, endMs: 2000, text: "a" },
      { startMs: 3000, endMs: 4000, text: "b" },
    ]);
  });

  it("keeps zero-length cues and empty cues (empty text), and notes the empty ones", () => {
    const { cues, notes } = readSrt(
      "1\n00:00:01,000 --> 00:00:01,000\nzero\n\n2\n00:00:02,000 --> 00:00:03,000\n\n\n3\n00:00:04,000 --> 00:00:05,000\nc\n\n4\n00:00:06,000 --> 00:00:07,000\n",
    );
    expect(cues.map((c) => [c.startMs, c.endMs, c.text])).toEqual([
      [1000, 1000, "zero"],
      [2000, 3000, ""],
      [4000, 5000, "c"],
      [6000, 7000, ""],
    ]);
    expect(notes).toEqual(["2 cues with no text"]);
  });

  it("keeps the text after a blank line inside a cue, and after blank lines following the timing", () => {
    const { cues, notes } = readSrt(
      "421\n00:31:37,894 --> 00:31:39,928\nfirst\n\nsecond\n\n422\n00:31:39,931 --> 00:31:41,931\n\n\nlate\n\n1984 was a year\n",
    );
    expect(cues.map((c) => c.text)).toEqual(["first\nsecond", "late\n1984 was a year"]);
    expect(notes).toEqual(["blank lines inside 2 cues dropped, the text after them kept in the cue"]);
  });

  it("keeps a number line right after text as text", () => {
    expect(timed("1\n00:00:01,000 --> 00:00:02,000\nHow many?\n42\n")).toEqual([{ startMs: 1000, endMs: 2000, text: "How many?\n42" }]);
  });

  it("starts a cue at its timing line even with no blank line after the previous cue", () => {
    const { cues, notes } = readSrt(
      "1\n00:00:01,000 --> 00:00:02,000\na\n2\n00:00:03,000 --> 00:00:04,000\nb\n00:00:05,000 --> 00:00:06,000\nc\n",
    );
    expect(cues.map((c) => [c.index, c.line, c.text])).toEqual([
      [1, 2, "a"],
      [2, 5, "b"],
      [3, 7, "c"],
    ]);
    expect(notes).toEqual(["2 cues starting with no blank line after the previous cue's text"]);
  });

  it("trims line ends, keeps markup and entities as they are", () => {
    expect(
      timed('1\n00:00:01,000 --> 00:00:02,000\n<i>Tom &amp; Jerry</i>   \n{\\an8}<font color="#ff0000">3 > 2</font>\t\n')[0].text,
    ).toBe('<i>Tom &amp; Jerry</i>\n{\\an8}<font color="#ff0000">3 > 2</font>');
  });

  it("returns a cue that ends before it starts as it is (the pipeline refuses it)", () => {
    expect(readSrt("1\n00:00:05,000 --> 00:00:01,000\nx\n").cues).toEqual([{ index: 1, line: 2, startMs: 5000, endMs: 1000, text: "x" }]);
  });
});

describe("readSrt refusals", () => {
  it.each([
    ["an HTML page", "HTTP/1.1 403 Forbidden\nContent-Type: text/html\n\n<html></html>\n", 1, 1, "HTTP/1.1 403 Forbidden"],
    ["MPL2 lines", "[0][6]Hello\n[7][12]World\n", 1, 1, "[0][6]Hello"],
    ["just some text", "some text", 1, 1, "some text"],
    ["a number alone", "1", 1, 1, "end of the file"],
    ["a number then text", "1\nsome text", 1, 2, "some text"],
    ["text before the first timing", "some text\n00:00:00,500 --> 00:00:07,000", 1, 1, "some text"],
    ["a WebVTT file", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n", 1, 1, "WEBVTT"],
  ])("refuses %s naming cue and line", (_, text, cue, line, quoted) => {
    const err = refusal(text);
    expect(err).toMatchObject({ cue, line });
    expect(err.message).toContain(quoted);
  });

  it("refuses a cue whose timing line is missing in an otherwise good file", () => {
    const err = refusal("1\n00:00:00,500 --> 00:00:07,000\nCaption 1\n\n2\nCaption 2\n\n3\n00:00:11,890 --> 00:00:16,320\nCaption 3\n");
    expect(err).toMatchObject({ cue: 2, line: 6 });
    expect(err.message).toBe(
      'cue 2 (line 6): a cue number with no timing line after it: expected "hh:mm:ss,mmm --> hh:mm:ss,mmm", found "Caption 2"',
    );
  });

  it("refuses a lone cue number after the last cue", () => {
    expect(refusal("1\n00:00:01,000 --> 00:00:02,000\na\n\n2\n\n")).toMatchObject({ cue: 2, line: 5 });
  });

  it("refuses a file whose only timing lines it cannot read, naming the first", () => {
    const err = refusal("1\n00:00:01,000 --> 00:00:75,000\na\n\n2\n00:00:03,000 --> 0:0\nb\n");
    expect(err).toMatchObject({ cue: 1, line: 2 });
    expect(err.message).toBe('cue 1 (line 2): minutes and seconds must be below 60, found "00:00:01,000 --> 00:00:75,000"');
  });
});

describe("readSrt skips what players skip", () => {
  it("skips a cue whose timing line it cannot read, with its text, and reports cue, line and reason", () => {
    const { cues, skipped } = readSrt(
      "1\n00:00:01,000 --> 00:00:02,000\na\n\n2\n00:00:03,000 --> 0:0\nb\nmore b\n\n3\n00:00:05,000 --> 00:00:06,000\nc\n",
    );
    expect(cues.map((c) => [c.index, c.line, c.text])).toEqual([
      [1, 2, "a"],
      [3, 11, "c"],
    ]);
    expect(skipped).toEqual({
      count: 1,
      blocks: [
        {
          cue: 2,
          line: 6,
          reason: 'the end time is not a timestamp: expected "hh:mm:ss,mmm --> hh:mm:ss,mmm", found "00:00:03,000 --> 0:0"',
        },
      ],
    });
  });

  it("skips timings with minutes or seconds of 60 or more, or a space inside a time, and a broken first cue", () => {
    const { cues, skipped } = readSrt(
      "1\n00:60:00,000 --> 01:00:01,000\nx\n\n2\n00:00:01,000 --> 00:00:02,000\na\n\n3\n00:00:03 ,000 --> 00:00:04,000\nb\n\n4\n00:00:05,000 --> 00:00:06,000\nc\n",
    );
    expect(cues.map((c) => [c.index, c.text])).toEqual([
      [2, "a"],
      [4, "c"],
    ]);
    expect(skipped?.blocks.map((b) => [b.cue, b.line])).toEqual([
      [1, 2],
      [3, 10],
    ]);
    expect(skipped?.blocks[0].reason).toBe('minutes and seconds must be below 60, found "00:60:00,000 --> 01:00:01,000"');
  });

  it("reports nothing when nothing was skipped", () => {
    expect(readSrt("1\n00:00:01,000 --> 00:00:02,000\na\n").skipped).toBeUndefined();
  });
});

describe("readSrt refusals, continued", () => {
  it("refuses an empty file", () => {
    expect(refusal("\n \n").message).toContain("no cue");
  });
});

describe("readSrt in linear time", () => {
  const pathological = [
    " ".repeat(2 * 1024 * 1024) + "a\u2028a",
    "0:".repeat(1024 * 1024),
    "00:00:01,000 " + "-".repeat(2 * 1024 * 1024),
    "00:00:01,000 --> " + "0".repeat(2 * 1024 * 1024),
    "1\n00:00:01,000 --> 00:00:02,000\n" + "<".repeat(2 * 1024 * 1024),
    "1\n00:00:01,000 --> 00:00:02,000\n" + "1\n\n".repeat(700_000),
    "1\n00:00:01,000 --> 00:00:02,000 " + "-->".repeat(700_000),
    "9".repeat(2 * 1024 * 1024) + "\n00:00:01,000 --> 00:00:02,000\nx",
  ];
  it.each(pathological.map((text, n) => [n, text]))("reads or refuses pathological input %i in under a second", (_, text) => {
    expect(fastest(() => readSrt(text), { limitMs: 1000, refusals: true }).ms).toBeLessThan(1000);
  });

  it("reads a 2 MiB file of 100,000 cues in under a second", () => {
    const parts: string[] = [];
    const at = (n: number) => `${Math.floor(n / 3600)}:${Math.floor(n / 60) % 60}:${n % 60}`;
    // No cue numbers and short times, so 100,000 cues fit in the 2 MiB an upload may have.
    for (let n = 0; n < 100_000; n++) parts.push(`${at(n)},5 --> ${at(n + 1)}\nL\n\n`);
    const text = parts.join("");
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const { ms, out } = fastest(() => readSrt(text), { limitMs: 1000 });
    expect(ms).toBeLessThan(1000);
    const { cues } = out;
    expect(cues).toHaveLength(100_000);
    expect(cues[99_999]).toEqual({ index: 100_000, line: 299_998, startMs: 99_999_005, endMs: 100_000_000, text: "L" });
  });
});

describe("writeSrt", () => {
  it("numbers from 1 with CRLF, a blank line after each cue and never inside one", () => {
    expect(
      writeSrt([
        { startMs: 1000, endMs: 2500, text: "<i>Hello</i>\nworld" },
        { startMs: 3_723_004, endMs: 3_724_000, text: "a\n\n  \nb  " },
        { startMs: 5000, endMs: 5000, text: "" },
      ]),
    ).toBe(
      "1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i>\r\nworld\r\n\r\n2\r\n01:02:03,004 --> 01:02:04,000\r\na\r\nb\r\n\r\n3\r\n00:00:05,000 --> 00:00:05,000\r\n\r\n",
    );
  });

  it("writes nothing for no cues, and what it writes reads back the same", () => {
    expect(writeSrt([])).toBe("");
    const cues = [
      { startMs: 0, endMs: 1, text: "a &amp; b\n{\\an8}<b>c</b>" },
      { startMs: 360_000_000, endMs: 360_000_500, text: "long hours" },
      { startMs: 2000, endMs: 3000, text: "" },
    ];
    expect(timed(writeSrt(cues))).toEqual(cues);
  });
});

describe("looksLikeSrt", () => {
  it.each([
    ["1\n00:00:01,000 --> 00:00:02,000\nx", true],
    ["\n\n 12 \r\n00:00:01.5 --> 00:00:02 X1:1\nx", true],
    ["00:00:01,000 --> 00:00:02,000\nx", true],
    ["WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nx", false],
    ["0:00:01.000,0:00:02.000\nx", false],
    ["1\nsome text\n00:00:01,000 --> 00:00:02,000", false],
    ["[Script Info]\nTitle: x", false],
    ["", false],
    [" ".repeat(10_000) + "\n1\n00:00:01,000 --> 00:00:02,000", false],
  ])("%j -> %s", (text, expected) => {
    expect(looksLikeSrt(text)).toBe(expected);
  });
});
