// Every writer is linear and its file a bounded multiple of the stored text (docs/api.md, "Limits and retention"): at
// most SUBTITLE_LIMITS.outputPerChar characters per character of text, outputPerCue per cue and a 1 KiB header. The
// 2 MiB pathological table is test/robustness/pathological-subtitles.test.ts (npm run test:slow).
import { describe, expect, it } from "vitest";
import { SUBTITLE_LIMITS, type CueInput } from "../../../src/domain/subtitles/cue";
import { TRACK_EXTENSIONS, writeTrack } from "../../../src/domain/subtitles/write-file";
import { fastest } from "../../helpers/timing";

const bound = (cues: CueInput[]) =>
  SUBTITLE_LIMITS.outputPerChar * cues.reduce((n, c) => n + c.text.length, 0) + SUBTITLE_LIMITS.outputPerCue * cues.length + 1024;
const write = (cues: CueInput[], ext: (typeof TRACK_EXTENSIONS)[number]) => writeTrack(cues, ext, { language: "en" }).body;

/** Each tag of this closes the bottom one of five open: every close re-opens four. */
const ROTATING = "<i><b><u><s><font color=red>" + "</i>a<i>b</b>c<b>d</u>e<u>f</s>g<s>h</font>i<font color=red>j".repeat(30);

const TEXTS = [
  "<s>a</s>",
  "<i><b><u><s><font color=red>a</font></s></u></b></i>",
  '&&&&""""<<<<>>>>',
  "\u0001\u0002\u0003",
  "{\\an8}{}\\N\\h",
  "a\nb\nc",
  "</i></b></u></s></font>a",
  '<font color="#ff0000">'.repeat(40) + "deep",
  ROTATING,
];

describe("writers: bounded output", () => {
  it.each(TRACK_EXTENSIONS)("%s: every text within the stated multiple, one cue or many", (ext) => {
    for (const text of TEXTS) {
      const one = [{ startMs: 359_999_999, endMs: 360_000_000, text }];
      expect(write(one, ext).length, text).toBeLessThanOrEqual(bound(one));
    }
    const many = TEXTS.map((text, k) => ({ startMs: k * 1000, endMs: k * 1000 + 900, text }));
    expect(write(many, ext).length).toBeLessThanOrEqual(bound(many));
  });

  it("a cue whose styling would pass the multiple is written without its styling, its text kept; others keep theirs", () => {
    const cues = [
      { startMs: 0, endMs: 1000, text: ROTATING },
      { startMs: 1000, endMs: 2000, text: "<s>kept</s>" },
    ];
    const ttml = write(cues, "ttml");
    const [rotating, kept] = ttml.split("\n").filter((l) => l.includes("<p "));
    expect(rotating).not.toContain("<span");
    expect(rotating).toContain("abcdefghij");
    expect(kept).toContain('<span tts:textDecoration="lineThrough">kept</span>');
    // WebVTT carries only <i> <b> <u>: the same text stays within the multiple styled.
    expect(write(cues, "vtt")).toContain("<i>");
  });

  it.each(TRACK_EXTENSIONS)("%s: a cue of 93,000 characters of unclosed and misnested tags in well under a second", (ext) => {
    // Joined cues of one start made such texts: every close below the unclosed tags closed and re-opened them all, so
    // a download took time quadratic in them (15 s for 94,000 characters, 197 s for 374,049, as WebVTT).
    const cues = [{ startMs: 0, endMs: 1000, text: `<b>${"<i>".repeat(15_000)}${"</b>x<b>".repeat(6_000)}` }];
    const { ms, out: body } = fastest(() => write(cues, ext), { limitMs: 1000 });
    expect(ms).toBeLessThan(1000);
    expect(body.length).toBeLessThanOrEqual(bound(cues));
  });
});
