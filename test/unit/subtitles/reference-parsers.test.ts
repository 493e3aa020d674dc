// The readers and writers against kept reference parsers (reference-parsers.ts): the W3C's WebVTT parser, an SSA/ASS
// parser and the IMSC/TTML reference implementation, on the project's own corpus files and on generated ones. What a
// reference reads, the reader reads the same; what a writer writes, the reference reads with no error and the same.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CueInput } from "../../../src/domain/subtitles/cue";
import { plainText } from "../../../src/domain/subtitles/markup";
import { readAss, writeAss } from "../../../src/domain/subtitles/ass";
import { readTtml, writeTtml } from "../../../src/domain/subtitles/ttml/ttml";
import { readVtt, writeVtt } from "../../../src/domain/subtitles/vtt";
import { CORPUS } from "../../fixtures/subtitles/corpus/manifest";
import { readBackTimes } from "./format-expectations";
import { assDialogues, imscScreens, lines, w3c, w3cCues } from "./reference-parsers";
import { cueList } from "./round-trip-arbitraries";

const SEED = 20_261_207;
const files = (format: string) => CORPUS.filter((e) => e.format === format && !e.bytes && "cues" in e.expect);
const key = (c: { startMs: number; endMs: number; text: string }) => `${c.startMs} ${c.endMs} ${c.text}`;

/** A timing line in the form the W3C algorithm reads (`[hh:]mm:ss.ttt --> [hh:]mm:ss.ttt`); others are read as SubRip. */
const W3C_TIMING = /^\s*(\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}[ \t]*-->[ \t]*(\d{2,}:)?[0-5]\d:[0-5]\d\.\d{3}(\s|$)/;

describe("WebVTT against the W3C parser (webvtt-parser)", () => {
  it("reads the project's WebVTT files as it does, besides the timings read as SubRip reads them", () => {
    expect(files("vtt").length).toBeGreaterThanOrEqual(4);
    for (const entry of files("vtt")) {
      const text = entry.text.replace(/^\uFEFF/, "");
      const ours = readVtt(text).cues;
      const lineOf = text.split(/\r\n|\r|\n/);
      const spec = ours.filter((c) => W3C_TIMING.test(lineOf[c.line - 1]));
      expect(spec.map(key).sort(), entry.file).toEqual(w3cCues(text));
    }
  });

  it("skips the blocks it skips and shows the rest, whatever blocks a file mixes", () => {
    const good = [
      "00:01.000 --> 00:02.000\nOne",
      "1\n00:00:03.000 --> 00:00:04.500 align:start\n<i>Two</i> &amp; more",
      "00:05.000 --> 00:06.000\n<v Ann>Three</v>\nlines",
    ];
    const bad = [
      "00:07.000 --> later\nlost",
      "2\n00:60.000 --> 00:61.000\nlost",
      "00:08.000 --> \nlost",
      "--> 00:09.000\nlost",
      "00:10.000 --> 00:11.000\nkept\nthen --> an arrow",
      "3\n00:12.000 --> 00:13.000\n00:14.000 --> 00:15.000\nfollows at once",
    ];
    const other = ["NOTE a comment --> with an arrow", "NOTE\nover two lines", "STYLE\n::cue { color: red }", "stray text\nwith no timing"];
    const block = fc.oneof(fc.constantFrom(...good), fc.constantFrom(...bad), fc.constantFrom(...other));
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), (blocks) => {
        const file = `WEBVTT\n\n${blocks.join("\n\n")}\n`;
        const oracle = w3cCues(file);
        let ours: string[];
        try {
          ours = readVtt(file).cues.map(key).sort();
        } catch {
          // Refused: only when no block holds a cue the W3C parser reads either.
          expect(oracle).toEqual([]);
          return;
        }
        expect(ours).toEqual(oracle);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("writes files the W3C parser reads with no error and the same cues, whatever was stored", () => {
    fc.assert(
      fc.property(cueList, (cues) => {
        const file = writeVtt(cues);
        expect(w3c(file).errors).toEqual([]);
        const expected = cues.map((c) => {
          const [startMs, endMs] = readBackTimes("vtt", c.startMs, c.endMs);
          return { startMs, endMs };
        });
        expect(w3cCues(file).map((k) => k.split(" ").slice(0, 2).join(" "))).toEqual(expected.map((c) => `${c.startMs} ${c.endMs}`).sort());
        expect(w3cCues(file)).toEqual(readVtt(file).cues.map(key).sort());
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

/** Our cues as ass-compiler's: with text, plain, line ends trimmed. */
const plainCues = (cues: CueInput[]) =>
  cues.map((c): [number, number, string] => [c.startMs, c.endMs, lines(plainText(c.text))]).filter(([, , t]) => t !== "");

describe("SSA/ASS against ass-compiler", () => {
  it("reads the project's SSA and ASS files as it does: times and shown text", () => {
    expect(files("ass").length).toBeGreaterThanOrEqual(2);
    for (const entry of files("ass")) {
      const text = entry.text.replace(/^\uFEFF/, "");
      expect(plainCues(readAss(text).cues), entry.file).toEqual(assDialogues(text).map(([s, e, t]) => [s, e, lines(t)]));
    }
  });

  it("writes scripts it parses into the same cues", () => {
    fc.assert(
      fc.property(cueList, (cues) => {
        const file = writeAss(cues);
        const expected = plainCues(cues.map((c) => ({ ...c, text: c.text })));
        const theirs = assDialogues(file).map(([s, e, t]): [number, number, string] => [s, e, lines(t)]);
        expect(theirs).toEqual(expected.map(([s, e, t]) => [...readBackTimes("ass", s, e), t]));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

/** What our cues show at `seconds`: the plain text of each cue then on screen, sorted. */
const shownAt = (cues: CueInput[], seconds: number) =>
  cues
    .filter((c) => c.startMs <= Math.round(seconds * 1000) && Math.round(seconds * 1000) < c.endMs)
    .map((c) => lines(plainText(c.text)))
    .filter((t) => t !== "")
    .sort();

describe("TTML against imsc (the IMSC reference implementation)", () => {
  it("shows what it shows at every change, on the project's TTML files that are IMSC (not the smpte time base)", () => {
    let compared = 0;
    for (const entry of files("ttml")) {
      // IMSC allows only the media time base: imsc refuses smpte (the TTML1 reader reads it: ttml.test.ts).
      if (/timeBase="smpte"/.test(entry.text)) continue;
      const { errors, screens } = imscScreens(entry.text);
      expect(errors, entry.file).toEqual([]);
      const ours = readTtml(entry.text).cues;
      for (const [t, shown] of screens) expect(shownAt(ours, t), `${entry.file} at ${t} s`).toEqual(shown);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(2);
  });

  it("writes documents it reads with no error, showing the cues' text at every change", () => {
    fc.assert(
      fc.property(cueList, (cues) => {
        const { errors, screens } = imscScreens(writeTtml(cues, { language: "en" }));
        expect(errors).toEqual([]);
        for (const [t, shown] of screens) expect(shownAt(cues, t), `at ${t} s`).toEqual(shown);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});
