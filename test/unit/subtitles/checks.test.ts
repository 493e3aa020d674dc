import { describe, expect, it } from "vitest";
import { CUE_RULES, cueFindings, ruleBit, rulesOf, trackMasks, type CheckedCue } from "../../../src/domain/subtitles/checks";
import { DEFAULT_PROFILE, LANGUAGE_PROFILES, lineWidth, profileFor } from "../../../src/domain/subtitles/profiles";
import { qualityReport } from "../../../src/domain/subtitles/quality";

/** The figures each profile must have (docs/api.md, "Quality checks"). */
const ROWS = [
  { language: "en", cps: 20, line: 42, half: false, letter: "a" },
  { language: "ko", cps: 12, line: 16, half: true, letter: "가" },
  { language: "zh", cps: 9, line: 16, half: true, letter: "中" },
  { language: "ja", cps: 4, line: 13, half: true, letter: "あ" },
  { language: "es", cps: 17, line: 42, half: false, letter: "ñ" },
  { language: "ar", cps: 17, line: 42, half: false, letter: "ب" },
] as const;

const cue = (startMs: number, endMs: number, text: string): CheckedCue => ({ startMs, endMs, text });
const findings = (language: string, c: CheckedCue, next: CheckedCue | null = null) => cueFindings(c, next, profileFor(language));

describe("language profiles", () => {
  it("has one row a language with the published figures, and every other language takes 17 and 42", () => {
    for (const row of ROWS) {
      expect(profileFor(row.language), row.language).toMatchObject({
        charsPerSecond: row.cps,
        lineChars: row.line,
        halfWidthLatin: row.half,
        lines: 2,
        maxDurationMs: 7000,
        gapFrames: 2,
      });
      expect(profileFor(row.language).minDurationMs * 6).toBeCloseTo(5000, 9);
    }
    expect(Object.keys(LANGUAGE_PROFILES).sort()).toEqual(["en", "ja", "ko", "zh"]);
    expect(profileFor("es")).toBe(DEFAULT_PROFILE);
  });

  it("falls back from a subtag to its primary language", () => {
    expect(profileFor("zh-tw")).toBe(LANGUAGE_PROFILES.zh);
    expect(profileFor("pt-br")).toBe(DEFAULT_PROFILE);
    expect(profileFor("en-gb")).toBe(LANGUAGE_PROFILES.en);
    expect(profileFor("KO")).toBe(LANGUAGE_PROFILES.ko);
    expect(profileFor("toString")).toBe(DEFAULT_PROFILE);
  });

  it("counts Latin letters, digits, spaces and punctuation half in Korean, Chinese and Japanese lines only", () => {
    expect(lineWidth("윤세리 is 1!", profileFor("ko"))).toBe(3 + 3);
    expect(lineWidth("윤세리 is 1!", profileFor("en"))).toBe(9);
    expect(lineWidth("こんにちは、世界", profileFor("ja"))).toBe(8);
  });
});

describe.each(ROWS)("the $language profile, a cue just inside and just outside each limit", (row) => {
  const { language, letter } = row;
  const limits = profileFor(language);

  it("characters a second", () => {
    expect(findings(language, cue(0, 1000, letter.repeat(row.cps)))).toEqual([]);
    expect(findings(language, cue(0, 1000, letter.repeat(row.cps + 1)))).toEqual([
      { rule: "fast_reading", value: row.cps + 1, limit: row.cps },
    ]);
    // Line breaks and styling are not read.
    expect(findings(language, cue(0, 2000, `<i>${letter.repeat(row.cps)}</i>\n${letter.repeat(row.cps)}`))).toEqual([]);
  });

  it("characters a line, Latin counting half where the profile says", () => {
    // Seven seconds, so the reading speed stays inside whatever the line holds.
    const full = letter.repeat(row.line);
    expect(findings(language, cue(0, 7000, full))).toEqual([]);
    expect(findings(language, cue(0, 7000, full + letter))).toEqual([{ rule: "long_lines", value: row.line + 1, limit: row.line }]);
    if (row.half) {
      // Ten Latin characters take five places.
      const mixed = letter.repeat(row.line - 5) + "abcde 1234";
      expect(findings(language, cue(0, 7000, mixed))).toEqual([]);
      expect(findings(language, cue(0, 7000, `${mixed}!`))).toEqual([{ rule: "long_lines", value: row.line + 0.5, limit: row.line }]);
    } else {
      expect(lineWidth("abcde 1234", limits)).toBe(10);
    }
  });

  it("lines", () => {
    expect(findings(language, cue(0, 3000, `${letter}\n${letter}`))).toEqual([]);
    expect(findings(language, cue(0, 3000, `${letter}\n${letter}\n${letter}`))).toEqual([{ rule: "many_lines", value: 3, limit: 2 }]);
  });

  it("duration between 5/6 s and 7 s", () => {
    expect(findings(language, cue(0, 834, letter))).toEqual([]);
    expect(findings(language, cue(0, 833, letter))).toEqual([{ rule: "short_duration", value: 833, limit: 833.33 }]);
    expect(findings(language, cue(0, 7000, letter))).toEqual([]);
    expect(findings(language, cue(0, 7001, letter))).toEqual([{ rule: "long_duration", value: 7001, limit: 7000 }]);
  });

  it("a gap of 2 frames at 24 fps (83.33 ms) before the next cue", () => {
    expect(findings(language, cue(0, 1000, letter), cue(1084, 2000, letter))).toEqual([]);
    expect(findings(language, cue(0, 1000, letter), cue(1083, 2000, letter))).toEqual([{ rule: "small_gap", value: 83, limit: 83.33 }]);
    // Another frame rate moves the limit: 2 frames at 25 fps are 80 ms.
    expect(cueFindings(cue(0, 1000, letter), cue(1080, 2000, letter), limits, 25)).toEqual([]);
    expect(cueFindings(cue(0, 1000, letter), cue(1079, 2000, letter), limits, 25)).toEqual([{ rule: "small_gap", value: 79, limit: 80 }]);
  });
});

describe("masks", () => {
  it("gives each rule its bit in rule order, appended only", () => {
    expect(CUE_RULES).toEqual(["fast_reading", "long_lines", "many_lines", "short_duration", "long_duration", "small_gap"]);
    expect(CUE_RULES.map(ruleBit)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(rulesOf(1 | 8 | 32)).toEqual(["fast_reading", "short_duration", "small_gap"]);
  });

  it("checks a track in time order, each cue against the next with text; blank texts are no cue", () => {
    const track = [cue(0, 1000, "one"), cue(1050, 2000, "  "), cue(1060, 9000, "two"), cue(9100, 9500, "three")];
    expect(trackMasks(track, "en")).toEqual([ruleBit("small_gap"), null, ruleBit("long_duration"), ruleBit("short_duration")]);
  });
});

describe("the import's quality report", () => {
  it("applies the track's language: the same cues read as English and as Korean", () => {
    const cues = [
      { index: 1, line: 1, startMs: 0, endMs: 1000, text: "가".repeat(15) },
      { index: 2, line: 5, startMs: 2000, endMs: 4000, text: "가".repeat(17) },
    ];
    const en = qualityReport(cues, cues, "en");
    const ko = qualityReport(cues, cues, "ko");
    expect(en.fast_reading).toEqual({ count: 0, cues: [] });
    expect(en.long_lines).toEqual({ count: 0, cues: [] });
    expect(ko.fast_reading).toEqual({ count: 1, cues: [1] });
    expect(ko.long_lines).toEqual({ count: 1, cues: [2] });
    expect(Object.keys(ko)).toEqual(["reordered", "zero_length", "overlaps", ...CUE_RULES]);
  });
});
