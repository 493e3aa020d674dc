// Pathological input for every subtitle reader and writer (docs/decisions.md, "Subtitle formats"): 2 MiB each, read
// or written in under a second, and what comes out bounded (docs/api.md, "Limits and retention"). Eighty cases of
// 2 MiB take a while, so it runs in `npm run test:slow`; each reader's own quirks stay beside it in test/unit/subtitles.
import { describe, expect, it } from "vitest";
import { SUBTITLE_LIMITS, SubtitleError, type CueInput } from "../../src/domain/subtitles/cue";
import { FORMATS, SUBTITLE_FORMATS, type SubtitleFormat } from "../../src/domain/subtitles/formats";
import { readSubtitleFile } from "../../src/domain/subtitles/read-file";
import { TRACK_EXTENSIONS, writeTrack } from "../../src/domain/subtitles/write-file";
import { planImport } from "../../src/services/subtitles";
import { fastest } from "../helpers/timing";

const MiB2 = 2 * 1024 * 1024;
const LIMIT_MS = 1000;
const figures: string[] = [];

/** Each case's time: the fastest of at most three runs, refusals (SubtitleError) allowed (test/helpers/timing.ts). */
const TIMING = { limitMs: LIMIT_MS, refusals: true } as const;

/** `unit` repeated until `size` characters. */
const fill = (unit: string, size = MiB2) => unit.repeat(Math.floor(size / unit.length));

// ---- readers: a 2 MiB file of each kind, in each format where it means something ----

const srtCue = (n: number, text: string, start = "00:00:00,000") => `${n}\n${start} --> 00:00:01,000\n${text}\n\n`;
const vttCue = (text: string) => `00:00.000 --> 00:01.000\n${text}\n\n`;
const sbvCue = (text: string) => `0:00:00.000,0:00:01.000\n${text}\n\n`;
const ttml = (body: string) =>
  `<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>${body}</div></body></tt>`;
const p = (inner: string) => `<p begin="0s" end="1s">${inner}</p>`;
const EVENTS = "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n";
const dialogue = (text: string, style = "Default") => `Dialogue: 0,0:00:00.00,0:00:01.00,${style},,0,0,0,,${text}\n`;
/** A file of as many copies of `cue(k)` as fit in 2 MiB after `head` (at most `most` of them). */
function file(head: string, cue: (k: number) => string, tail = "", most = Infinity): string {
  const parts = [head];
  let size = head.length + tail.length;
  for (let k = 1; k <= most; k++) {
    const c = cue(k);
    if (size + c.length > MiB2) break;
    parts.push(c);
    size += c.length;
  }
  parts.push(tail);
  return parts.join("");
}
/** Text for the same-start cues: as many as a file may hold, each long enough that they fill 2 MiB together. */
const SAME = `same start ${"x".repeat(80)}`;
const sameStart = (head: string, cue: (k: number) => string, tail = "") => file(head, cue, tail, SUBTITLE_LIMITS.cues);

const READS: Array<[SubtitleFormat, string, string]> = [
  ["srt", "deep nesting", srtCue(1, fill("<i><b><font color=red>", MiB2 - 40))],
  ["srt", "unbalanced closes", srtCue(1, fill("</i></b></font>", MiB2 - 40))],
  ["srt", "one long line", srtCue(1, fill("a", MiB2 - 40))],
  ["srt", "many same-start cues", sameStart("", (k) => srtCue(k, `<i>${SAME}`))],
  ["vtt", "deep nesting", `WEBVTT\n\n${vttCue(fill("<b><i><u><c.x><v a>", MiB2 - 40))}`],
  ["vtt", "unbalanced closes", `WEBVTT\n\n${vttCue(fill("</b></i>a", MiB2 - 40))}`],
  ["vtt", "one long line", `WEBVTT\n\n${vttCue(fill("&amp;", MiB2 - 40))}`],
  ["vtt", "many same-start cues", sameStart("WEBVTT\n\n", () => vttCue(`<b>${SAME}`))],
  ["sbv", "one long line", sbvCue(fill("a[br]", MiB2 - 40))],
  ["sbv", "many same-start cues", sameStart("", () => sbvCue(SAME))],
  ["ass", "deep nesting", EVENTS + dialogue(fill("{\\i1}{\\b1}{\\u1}{\\s1}{\\c&HFF&}a", MiB2 - 200))],
  ["ass", "unbalanced closes", EVENTS + dialogue(fill("{\\i0}{\\b0}{\\r}a", MiB2 - 200))],
  ["ass", "one long line", EVENTS + dialogue(fill("a\\N", MiB2 - 200))],
  ["ass", "a long Format line", file(`[V4+ Styles]\nFormat: Name, ${fill("Italic, ", MiB2 / 2)}\n`, (k) => `Style: S${k},1\n`)],
  [
    "ass",
    "many styles after a long Format line",
    file(
      `[V4+ Styles]\nFormat: ${Array.from({ length: SUBTITLE_LIMITS.assFields }, (_, k) => `F${k}`).join(", ")}\n`,
      (k) => `Style: S${k},1,1,1\n`,
      EVENTS + dialogue("x", "S1"),
    ),
  ],
  ["ass", "many styles", file("[V4+ Styles]\n", (k) => `Style: S${k},Arial,20,&H0,&H0,&H0,&H0,0,${k % 2}\n`, EVENTS + dialogue("x", "S1"))],
  ["ass", "many same-start cues", sameStart(EVENTS, () => dialogue(`{\\i1}${SAME}`))],
  [
    "ttml",
    "deep nesting",
    ttml(p(`${'<span tts:fontStyle="italic"><span tts:fontStyle="normal">'.repeat(120)}${fill("a<br/>", MiB2 - 20_000)}`)),
  ],
  ["ttml", "unbalanced closes", ttml(p(fill("</span></p>a", MiB2 - 200)))],
  ["ttml", "one long line", ttml(p(fill("&amp;", MiB2 - 200)))],
  [
    "ttml",
    "many same-start cues",
    sameStart('<tt xmlns="http://www.w3.org/ns/ttml"><body><div>', () => p(`<span>${SAME}</span>`), "</div></body></tt>"),
  ],
];

/**
 * A file of cues at one start written by the format's own writer, as many as fit in 2 MiB (at most the cue limit), so
 * every registered format is covered without a hand-made file of its own.
 */
function writtenSameStart(format: SubtitleFormat): string {
  const cues = (n: number) => Array.from({ length: n }, () => ({ startMs: 0, endMs: 1000, text: `<i>${SAME}</i>` }));
  const write = (n: number) => FORMATS[format].write(cues(n), { language: "en" });
  // A cue's share of the file, with room for a cue number growing to the limit's digits (SubRip numbers its cues).
  const perCue = write(2).length - write(1).length + String(SUBTITLE_LIMITS.cues).length;
  return write(Math.min(SUBTITLE_LIMITS.cues, Math.floor((MiB2 - write(1).length) / perCue) + 1));
}

describe("readers: 2 MiB of pathological input, each under a second", () => {
  it.each(READS)("%s: %s", (format, name, text) => {
    expect(text.length).toBeLessThanOrEqual(MiB2);
    const { ms, out } = fastest(() => FORMATS[format].read(text), TIMING);
    figures.push(`read ${format} ${name}: ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(LIMIT_MS);
    // What a reader keeps is never more than what it read (the stored form is no longer than any format's markup).
    if (!(out instanceof SubtitleError)) expect(out.cues.reduce((n, c) => n + c.text.length, 0)).toBeLessThanOrEqual(text.length);
  });

  it.each(SUBTITLE_FORMATS)(
    "%s: many cues at one start are refused once joined past the cue limits, at the cue that passes them",
    (format) => {
      const text = writtenSameStart(format);
      expect(text.length).toBeLessThanOrEqual(MiB2);
      const { ms, out } = fastest(() => {
        const { cues } = readSubtitleFile(new TextEncoder().encode(text), { language: "en", format });
        return planImport(cues, "create", []);
      }, TIMING);
      figures.push(`read and plan ${format} many same-start cues: ${Math.round(ms)} ms`);
      expect(ms).toBeLessThan(LIMIT_MS);
      expect(out).toBeInstanceOf(SubtitleError);
      expect(out).toMatchObject({
        limit: expect.stringMatching(/^(cueChars|lineChars)$/),
        cue: expect.any(Number),
        line: expect.any(Number),
      });
    },
  );
});

// ---- writers: stored tracks of 2 MiB (the track limit), each written in every format ----

/** A cue text within the cue limits: lines of whole `unit`s, at most 500 characters each, 2,000 in all. */
function cueText(unit: string): string {
  const perLine = unit.repeat(Math.floor(SUBTITLE_LIMITS.lineChars / unit.length));
  const lines = Math.floor((SUBTITLE_LIMITS.cueChars + 1) / (perLine.length + 1));
  return Array.from({ length: lines }, () => perLine).join("\n");
}
/** As many cues of `text(k)` as the track limit holds (at most `most`), one a second. */
function track(text: (k: number) => string, most = Infinity): CueInput[] {
  const cues: CueInput[] = [];
  for (let k = 0, chars = 0; k < most; k++) {
    const t = text(k);
    if (chars + t.length > SUBTITLE_LIMITS.trackChars) return cues;
    cues.push({ startMs: k * 1000, endMs: k * 1000 + 900, text: t });
    chars += t.length;
  }
  return cues;
}

const nested = cueText('<i><b><u><s><font color="red">');
const rotating = "<i><b><u><s><font color=red>a" + cueText("</i>a<i>b</b>c<b>d</u>e<u>f</s>g<s>h</font>i<font color=red>j").slice(30);
const reopening = `<b>${"<font color=#f00>".repeat(7)}${cueText("</b>x<b>x").slice(0, 2000 - 7 * 17 - 3)}`;
const WRITES: Array<[string, CueInput[]]> = [
  ["deep nesting", track(() => nested)],
  ["misnesting that re-opens every tag", track(() => rotating)],
  ["closes below seven nested colours", track(() => reopening)],
  ["unbalanced closes", track(() => cueText("</i></b></u></s></font>"))],
  ["escapes on long lines", track(() => cueText('&"<>\\N{}'))],
  ["control characters", track(() => cueText("\u0001\u001f"))],
  // As many cues as a file may hold (a track's segments come from an import), each a line of 100 characters.
  ["the most cues", track((k) => (k % 2 ? `<i>${"a".repeat(93)}</i>` : "b".repeat(100)), SUBTITLE_LIMITS.cues)],
  // Stored before the limits held: one import joined 750 cues of one start into one text.
  ["a stored cue of 374,049 characters", [{ startMs: 0, endMs: 1000, text: fill("<i>a</i><b>", 374_049) }]],
  ["one stored cue of 2 MiB of misnested tags", [{ startMs: 0, endMs: 1000, text: fill("<i>a<b>b</i>c</b>") }]],
];

describe("writers: 2 MiB stored tracks, each written under a second and within the stated multiple", () => {
  const cases = WRITES.flatMap(([name, cues]) => TRACK_EXTENSIONS.map((ext) => [ext, name, cues] as const));
  it.each(cases)("%s: %s", (ext, name, cues) => {
    const chars = cues.reduce((n, c) => n + c.text.length, 0);
    const { ms, out } = fastest(() => writeTrack(cues, ext, { language: "en" }).body, TIMING);
    figures.push(
      `write ${ext} ${name}: ${Math.round(ms)} ms, ${typeof out === "string" ? (out.length / chars).toFixed(2) : "?"}× the text`,
    );
    expect(ms).toBeLessThan(LIMIT_MS);
    expect(typeof out).toBe("string");
    const bound = SUBTITLE_LIMITS.outputPerChar * chars + SUBTITLE_LIMITS.outputPerCue * cues.length + 1024;
    expect((out as string).length).toBeLessThanOrEqual(bound);
  });

  it("prints the figures", () => {
    console.log(`pathological subtitles, 2 MiB each:\n${figures.join("\n")}`);
  });
});
