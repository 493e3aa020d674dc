/**
 * YouTube's SubViewer (.sbv): `0:00:01.000,0:00:02.500` then the text lines, a blank line between cues. Also reads
 * SubViewer 2, the format SBV comes from: its `[INFORMATION]` header and tag lines are skipped and `[br]` is its
 * line break. One pass over the lines, hand-written scanners, linear on any input.
 */
import { CueText, type Cue, type CueInput, type ReadOutcome, SubtitleError, isBlank, splitLines, tidyText } from "./cue";
import { plainText } from "./markup";
import { plural, scanClock, shown, skipSpaces } from "./srt";

const EXPECTED = `expected "h:mm:ss.mmm,h:mm:ss.mmm"`;

interface Timing {
  startMs: number;
  endMs: number;
  trailing: boolean;
}

/**
 * A timing line, null when the line is not one, or the reason it is a broken one: a line that starts with a
 * timestamp, a comma and a digit is meant as a timing and is never taken as text.
 */
function readTiming(line: string): Timing | string | null {
  let p = skipSpaces(line, 0);
  const start = scanClock(line, p, ".");
  if (!start) return null;
  p = skipSpaces(line, start.end);
  if (line[p] !== ",") return null;
  p = skipSpaces(line, p + 1);
  const next = line.charCodeAt(p);
  // A line of text may start "1:00:00, said he".
  if (!(next >= 48 && next <= 57)) return null;
  const startMs = start.ms;
  const startOutOfRange = start.outOfRange;
  const end = scanClock(line, p, ".");
  if (!end) return `the end time is not a timestamp: ${EXPECTED}, found "${shown(line)}"`;
  if (startOutOfRange || end.outOfRange) return `minutes and seconds must be below 60, found "${shown(line)}"`;
  return { startMs, endMs: end.ms, trailing: end.end < line.length && !isBlank(line.slice(end.end)) };
}

/** The tags of a SubViewer 2 header, each at the start of a line (`[COLF]&HFFFFFF,[STYLE]bd,[SIZE]18,…`). */
const HEADER_TAGS = new Set([
  "INFORMATION",
  "END INFORMATION",
  "TITLE",
  "AUTHOR",
  "SOURCE",
  "PRG",
  "FILEPATH",
  "DELAY",
  "CD TRACK",
  "COMMENT",
  "SUBTITLE",
  "COLF",
  "STYLE",
  "SIZE",
  "FONT",
]);

function isHeaderTag(line: string): boolean {
  const t = line.trim();
  if (t[0] !== "[") return false;
  const close = t.indexOf("]");
  return close > 1 && close < 20 && HEADER_TAGS.has(t.slice(1, close).toUpperCase());
}

/** SubViewer's line break, in any case. */
const BREAK = /\[br\]/i;
const hasBreak = (line: string) => line.includes("[") && BREAK.test(line);

/**
 * SBV text to cues. Before the first cue only blank lines and SubViewer header lines may appear; after it, every
 * line that is not a timing line is text of the current cue, even after a blank line (nothing is dropped).
 */
export function readSbv(text: string): ReadOutcome {
  const lines = splitLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const cues: Cue[] = [];
  let current: Cue | null = null;
  const cueText = new CueText();
  let inInformation = false;
  let header = false;
  let informationLine = 0;
  let trailing = 0;
  let breaks = 0;
  // SubViewer's "[br]" is a line break inside a text line.
  const close = (cue: Cue) => {
    if (!cueText.lines.some(hasBreak)) return cueText.close(cue);
    breaks++;
    cueText.close(
      cue,
      cueText.lines.flatMap((l) => l.split(BREAK)),
    );
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) {
      cueText.blank = true;
      continue;
    }
    if (!current) {
      const tag = line.trim().toUpperCase();
      if (tag === "[INFORMATION]" && !inInformation) {
        inInformation = header = true;
        informationLine = i + 1;
      }
      if (inInformation || isHeaderTag(line)) {
        if (tag === "[END INFORMATION]") inInformation = false;
        header = true;
        continue;
      }
    }
    const timing = readTiming(line);
    if (typeof timing === "string") throw new SubtitleError(timing, cues.length + 1, i + 1);
    if (timing) {
      if (current) close(current);
      current = { index: cues.length + 1, line: i + 1, startMs: timing.startMs, endMs: timing.endMs, text: "" };
      cues.push(current);
      if (timing.trailing) trailing++;
      cueText.restart();
      continue;
    }
    if (!current) throw new SubtitleError(`not SBV: ${EXPECTED}, found "${shown(line)}"`, 1, i + 1);
    cueText.add(line);
  }
  if (inInformation) throw new SubtitleError(`the SubViewer header "[INFORMATION]" has no "[END INFORMATION]"`, 1, informationLine);
  if (!current) throw new SubtitleError("the file holds no cue", 1, 1);
  close(current);

  const notes: string[] = [];
  if (header) notes.push("SubViewer header skipped");
  if (breaks) notes.push(`SubViewer "[br]" read as a line break in ${breaks} cue${plural(breaks)}`);
  if (trailing) notes.push(`text after the end time dropped on ${trailing} timing line${plural(trailing)}`);
  if (cueText.gaps)
    notes.push(`blank lines inside ${cueText.gaps} cue${plural(cueText.gaps)} dropped, the text after them kept in the cue`);
  if (cueText.empty) notes.push(`${cueText.empty} cue${plural(cueText.empty)} with no text`);
  return { cues, notes };
}

/** `H:MM:SS.mmm`, hours unpadded, as YouTube writes it. */
function sbvClock(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  return `${Math.floor(t / 3_600_000)}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(t % 1000).padStart(3, "0")}`;
}

/** SBV carries no styling: the plain text, LF line ends, a blank line after each cue and none inside one. */
export function writeSbv(cues: CueInput[]): string {
  const out: string[] = [];
  for (const cue of cues) {
    const text = tidyText(splitLines(plainText(cue.text)));
    out.push(`${sbvClock(cue.startMs)},${sbvClock(cue.endMs)}\n`);
    if (text) out.push(text, "\n");
    out.push("\n");
  }
  return out.join("");
}

/**
 * Whether text looks like SBV, from its first lines only (the first 4 KiB at most): after blank lines and any
 * SubViewer header, the first line is an SBV timing.
 */
export function looksLikeSbv(text: string): boolean {
  let inInformation = false;
  for (const line of splitLines(text.slice(0, 4096))) {
    if (isBlank(line)) continue;
    const tag = line
      .trim()
      .replace(/^\uFEFF/, "")
      .toUpperCase();
    if (tag === "[INFORMATION]") inInformation = true;
    if (inInformation || isHeaderTag(line)) {
      if (tag === "[END INFORMATION]") inInformation = false;
      continue;
    }
    const timing = readTiming(line);
    return timing !== null && typeof timing !== "string";
  }
  return false;
}
