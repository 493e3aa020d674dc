import { describe, expect, it } from "vitest";
import { looksLikeSbv, readSbv, writeSbv } from "../../../src/domain/subtitles/sbv";
import { refused } from "./refused";
import { fastest } from "../../helpers/timing";

const refusal = (text: string) => refused(() => readSbv(text));

const timed = (text: string) => readSbv(text).cues.map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));

describe("readSbv", () => {
  it("reads YouTube SBV cues with their positions, times and text", () => {
    const { cues, notes } = readSbv("0:00:00.599,0:00:04.160\n>> ALICE: Hi\nand this is Bob\n\n0:00:04.160,0:00:06.770\n[music]\n\n");
    expect(cues).toEqual([
      { index: 1, line: 1, startMs: 599, endMs: 4160, text: ">> ALICE: Hi\nand this is Bob" },
      { index: 2, line: 5, startMs: 4160, endMs: 6770, text: "[music]" },
    ]);
    expect(notes).toEqual([]);
  });

  it("reads two-digit hours, fractions of 1-3 digits, no fraction, spaces around the comma, CRLF and a stray BOM", () => {
    expect(timed("\uFEFF\r\n12:01:02.5, 12:01:03.04\r\na\r\n\r\n0:00:05,0:00:06.123  \r\nb")).toEqual([
      { startMs: 43_262_500, endMs: 43_263_040, text: "a" },
      { startMs: 5000, endMs: 6123, text: "b" },
    ]);
  });

  it("reads SubViewer 2: its header skipped, [br] as a line break", () => {
    const text = [
      "[INFORMATION]",
      "[TITLE]A film",
      "[AUTHOR]",
      "[COMMENT]0:00:01.00,0:00:02.00 is not a cue here",
      "[END INFORMATION]",
      "[SUBTITLE]",
      "[COLF]&HFFFFFF,[STYLE]bd,[SIZE]18,[FONT]Arial",
      "00:00:41.00,00:00:44.40",
      "The Age of Gods was closing.[br]Eternity had come to an end.",
      "",
      "00:00:55.00,00:00:58.40",
      "Line one[BR] ",
      "",
    ].join("\r\n");
    const { cues, notes } = readSbv(text);
    expect(cues).toEqual([
      { index: 1, line: 8, startMs: 41_000, endMs: 44_400, text: "The Age of Gods was closing.\nEternity had come to an end." },
      { index: 2, line: 11, startMs: 55_000, endMs: 58_400, text: "Line one" },
    ]);
    expect(notes).toEqual(["SubViewer header skipped", 'SubViewer "[br]" read as a line break in 2 cues']);
  });

  it("keeps text after a blank line in the cue, keeps empty cues, drops text after the end time", () => {
    const { cues, notes } = readSbv(
      "0:00:01.000,0:00:02.000 extra\na\n\nb\n\n0:00:03.000,0:00:04.000\n\n0:00:05.000,0:00:06.000\n1:00:00, said he\n",
    );
    expect(cues.map((c) => [c.index, c.line, c.text])).toEqual([
      [1, 1, "a\nb"],
      [2, 6, ""],
      [3, 8, "1:00:00, said he"],
    ]);
    expect(notes).toEqual([
      "text after the end time dropped on 1 timing line",
      "blank lines inside 1 cue dropped, the text after them kept in the cue",
      "1 cue with no text",
    ]);
  });

  it("returns a cue that ends before it starts with its index and line (the pipeline refuses it)", () => {
    const { cues } = readSbv("0:00:01.000,0:00:02.000\na\n\n0:00:17.484,0:00:16.543\nb\n");
    expect(cues[1]).toEqual({ index: 2, line: 4, startMs: 17_484, endMs: 16_543, text: "b" });
  });

  it.each([
    ["text before the first cue", "hello\n0:00:01.000,0:00:02.000\nx\n", 1, 1],
    ["a SubRip file", "1\n00:00:01,000 --> 00:00:02,000\nx\n", 1, 1],
    ["minutes of 60", "0:00:01.000,0:00:02.000\na\n\n0:60:01.000,1:00:02.000\nb\n", 2, 4],
    ["a broken end time", "0:00:01.000,0:00:02.000\na\n\n0:00:03.000,0:00\nb\n", 2, 4],
    ["a header never closed", "[INFORMATION]\n[TITLE]x\n0:00:01.000,0:00:02.000\n", 1, 1],
    ["an empty file", "\n\n", 1, 1],
  ])("refuses %s naming cue and line", (_, text, cue, line) => {
    expect(refusal(text)).toMatchObject({ cue, line });
  });

  it("reads or refuses a 2 MiB pathological line in under a second", () => {
    for (const text of [
      " ".repeat(2 * 1024 * 1024) + "a\u2028a",
      "0:".repeat(1024 * 1024),
      "0:00:01.000,0:00:02.000\n" + "[br".repeat(700_000),
    ]) {
      expect(fastest(() => readSbv(text), { limitMs: 1000, refusals: true }).ms).toBeLessThan(1000);
    }
  });

  it("reads a 2 MiB file of 100,000 cues in under a second", () => {
    const at = (n: number) =>
      `${Math.floor(n / 3600)}:${String(Math.floor(n / 60) % 60).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}`;
    const parts: string[] = [];
    for (let n = 0; n < 100_000; n++) parts.push(`${at(n)}.5,${at(n + 1)}\nL\n\n`);
    const text = parts.join("");
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const { ms, out } = fastest(() => readSbv(text), { limitMs: 1000 });
    expect(ms).toBeLessThan(1000);
    const { cues } = out;
    expect(cues).toHaveLength(100_000);
    expect(cues[99_999]).toEqual({ index: 100_000, line: 299_998, startMs: 99_999_500, endMs: 100_000_000, text: "L" });
  });
});

describe("writeSbv", () => {
  it("writes H:MM:SS.mmm times, LF, plain text, a blank line after each cue and none inside one", () => {
    expect(
      writeSbv([
        { startMs: 599, endMs: 4160, text: '{\\an8}<i>Hi</i> <font color="#ff0000">there</font>\n<b></b>\nnext' },
        { startMs: 36_000_000, endMs: 36_001_005, text: "a &amp; b" },
        { startMs: 5000, endMs: 5000, text: "" },
      ]),
    ).toBe("0:00:00.599,0:00:04.160\nHi there\nnext\n\n10:00:00.000,10:00:01.005\na &amp; b\n\n0:00:05.000,0:00:05.000\n\n");
  });

  it("writes nothing for no cues, and what it writes reads back the same", () => {
    expect(writeSbv([])).toBe("");
    const cues = [
      { startMs: 0, endMs: 1, text: "one\ntwo" },
      { startMs: 360_000_000, endMs: 360_000_500, text: "long hours" },
    ];
    expect(timed(writeSbv(cues))).toEqual(cues);
  });
});

describe("looksLikeSbv", () => {
  it.each([
    ["0:00:01.000,0:00:02.000\nx", true],
    ["\n\n[INFORMATION]\n[TITLE]x\n[END INFORMATION]\n[SUBTITLE]\n00:00:41.00,00:00:44.40\nx", true],
    ["1\n00:00:01,000 --> 00:00:02,000\nx", false],
    ["WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nx", false],
    ["some text\n0:00:01.000,0:00:02.000", false],
    ["", false],
  ])("%j -> %s", (text, expected) => {
    expect(looksLikeSbv(text)).toBe(expected);
  });
});
