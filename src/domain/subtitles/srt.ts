/**
 * SubRip (.srt) read as players read it (FFmpeg, VLC, mpv): a cue is found by its timing line, whatever numbers,
 * blank lines or stray text around it, in one pass over the lines with hand-written scanners (linear on any input).
 */
import {
  type Cue,
  type CueInput,
  type ReadOutcome,
  type SkippedBlocks,
  SubtitleError,
  addSkipped,
  clock,
  isBlank,
  outcomeOf,
  splitLines,
  CueText,
  tidyText,
} from "./cue";

/** A timestamp read from `text` at `pos`: its milliseconds, where it ends, and whether a field is out of range. */
interface ClockRead {
  ms: number;
  end: number;
  outOfRange: boolean;
}

/** What `scanClock` returns, overwritten by its next call (a caller copies what it keeps): no object per timestamp. */
const scratch: ClockRead = { ms: 0, end: 0, outOfRange: false };

/** Spaces and tabs inside a line: the same set `isBlank` treats as white space. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 0xa0 || c === 0xfeff || (c >= 0x2000 && c <= 0x200b) || c === 0x3000 || c === 0x0b || c === 0x0c;
}

export function skipSpaces(s: string, pos: number): number {
  while (pos < s.length && isSpace(s.charCodeAt(pos))) pos++;
  return pos;
}

function digitsEnd(s: string, pos: number): number {
  while (pos < s.length && s.charCodeAt(pos) >= 48 && s.charCodeAt(pos) <= 57) pos++;
  return pos;
}

/**
 * `h:m:s` with optional digits after one of `separators`: hours of any width up to 7 digits, minutes and seconds of
 * 1-2 digits, then 1-9 digits of which the first three count. SubRip (`digits: "milliseconds"`) reads them as whole
 * milliseconds (`,5` = 5 ms, `,04` = 4 ms), as FFmpeg, VLC and mpv do (docs/decisions.md, "Subtitle formats"); SBV
 * (`"fraction"`) as a decimal fraction (`.5` = 500 ms). Null when the text there is not a timestamp. Every run of
 * digits is bounded, so work is linear. The result is shared: read it before the next call.
 */
export function scanClock(s: string, pos: number, separators: string, digits: "milliseconds" | "fraction" = "fraction"): ClockRead | null {
  let p = pos;
  let h = 0;
  let m = 0;
  let sec = 0;
  for (let k = 0; k < 3; k++) {
    if (k > 0) {
      if (s.charCodeAt(p) !== 58) return null;
      p++;
    }
    const from = p;
    let value = 0;
    for (let c = s.charCodeAt(p); c >= 48 && c <= 57; c = s.charCodeAt(++p)) {
      if (p - from === (k === 0 ? 7 : 2)) return null;
      value = value * 10 + c - 48;
    }
    if (p === from) return null;
    if (k === 0) h = value;
    else if (k === 1) m = value;
    else sec = value;
  }
  let ms = 0;
  if (p < s.length && separators.includes(s[p])) {
    const from = p + 1;
    let q = from;
    for (let c = s.charCodeAt(q); c >= 48 && c <= 57; c = s.charCodeAt(++q)) {
      if (q - from === 9) return null;
      if (q - from < 3) ms = digits === "milliseconds" ? ms * 10 + c - 48 : ms + (c - 48) * (q === from ? 100 : q === from + 1 ? 10 : 1);
    }
    if (q > from) p = q;
  }
  scratch.ms = h * 3_600_000 + m * 60_000 + sec * 1000 + ms;
  scratch.end = p;
  scratch.outOfRange = m > 59 || sec > 59;
  return scratch;
}

interface Timing {
  startMs: number;
  endMs: number;
  /** Text after the end time (coordinates, comments), dropped. */
  trailing: boolean;
  /** `- >` or `->` rather than `-->`. */
  oddArrow: boolean;
}

const EXPECTED = `expected "hh:mm:ss,mmm --> hh:mm:ss,mmm"`;

/**
 * A timing line, null when the line is not one, or the reason it is a broken one: a line that starts with a
 * timestamp and an arrow, or starts with a digit and holds `-->`, is meant as a timing and is never taken as text.
 */
function readTiming(line: string): Timing | string | null {
  let p = skipSpaces(line, 0);
  const first = line.charCodeAt(p);
  if (first < 48 || first > 57) return null;
  const start = scanClock(line, p, ",.", "milliseconds");
  if (!start) return brokenTiming(line);
  p = skipSpaces(line, start.end);
  // Any run of dashes, optional spaces, then ">": `-->`, the `- >` some tools write, and `->`.
  const dashes = p;
  while (line.charCodeAt(p) === 45) p++;
  if (p === dashes) return brokenTiming(line);
  const arrowEnd = skipSpaces(line, p);
  if (line.charCodeAt(arrowEnd) !== 62) return brokenTiming(line);
  const oddArrow = p !== dashes + 2 || arrowEnd !== p;
  const startMs = start.ms;
  const startOutOfRange = start.outOfRange;
  p = skipSpaces(line, arrowEnd + 1);
  const end = scanClock(line, p, ",.", "milliseconds");
  if (!end) return `the end time is not a timestamp: ${EXPECTED}, found "${shown(line)}"`;
  if (startOutOfRange || end.outOfRange) return `minutes and seconds must be below 60, found "${shown(line)}"`;
  return { startMs, endMs: end.ms, trailing: end.end < line.length && !isBlank(line.slice(end.end)), oddArrow };
}

/** A line starting with a digit and holding `-->` that does not read as a timing: the reason, else null (text). */
function brokenTiming(line: string): string | null {
  return line.includes("-->") ? `${EXPECTED}, found "${shown(line)}"` : null;
}

/** Whether the reader reads `line` as the timing line of a cue (and so as one cue): the import route's early count. */
export function isSrtCueLine(line: string): boolean {
  const timing = readTiming(line);
  return timing !== null && typeof timing !== "string";
}

/** A line holding only a number, white space around it allowed: a cue number. */
function isNumberLine(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && digitsEnd(t, 0) === t.length;
}

/** A line as quoted in a refusal: short, so a 2 MiB line does not make a 2 MiB message. */
export function shown(line: string): string {
  const t = line.trim();
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

/**
 * SubRip text to cues. Before the first cue only blank lines and cue numbers may appear; after it, every line that
 * is not a timing line, nor a number line whose next non-blank line is a timing, is text of the current cue, even
 * after a blank line (players do the same: nothing is dropped). A number line after a blank line that no timing
 * follows is a cue whose timing is missing, and is refused rather than read into the previous cue. A timing line
 * that does not read (a broken time, minutes or seconds of 60) starts a cue that is skipped with its text, as VLC
 * skips it, and reported (docs/decisions.md, "Subtitle formats"); the file is refused only if no cue reads.
 */
export function readSrt(text: string): ReadOutcome {
  const lines = splitLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const cues: Cue[] = [];
  let current: Cue | null = null;
  // Cues met, read or skipped (a skipped cue keeps its position, so the report's cue numbers are the file's), and
  // whether the lines now are the text of a skipped cue.
  let position = 0;
  let skipping = false;
  const skipped: SkippedBlocks = { count: 0, blocks: [] };
  const cueText = new CueText();
  let trailing = 0;
  let oddArrows = 0;
  let joined = 0;
  // The timing a number line looked ahead at, so no line is read twice.
  let aheadAt = -1;
  let ahead: Timing | string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isBlank(line)) {
      cueText.blank = true;
      continue;
    }
    const timing = i === aheadAt ? ahead : readTiming(line);
    if (timing !== null && current) {
      if (cueText.lines.length > 0 && !cueText.blank) joined++;
      cueText.close(current);
      current = null;
    }
    if (typeof timing === "string") {
      addSkipped(skipped, ++position, i + 1, timing);
      skipping = true;
      cueText.blank = false;
      continue;
    }
    if (timing) {
      current = { index: ++position, line: i + 1, startMs: timing.startMs, endMs: timing.endMs, text: "" };
      cues.push(current);
      if (timing.trailing) trailing++;
      if (timing.oddArrow) oddArrows++;
      cueText.restart();
      skipping = false;
      continue;
    }
    if (isNumberLine(line)) {
      let j = i + 1;
      while (j < lines.length && isBlank(lines[j])) j++;
      aheadAt = j;
      ahead = j < lines.length ? readTiming(lines[j]) : null;
      if (ahead !== null) {
        i = j - 1;
        continue;
      }
      if ((!current && !skipping) || cueText.blank) {
        const where = j < lines.length ? `found "${shown(lines[j])}"` : "found the end of the file";
        throw new SubtitleError(
          `a cue number with no timing line after it: ${EXPECTED}, ${where}`,
          position + 1,
          j < lines.length ? j + 1 : i + 1,
        );
      }
    }
    if (skipping) {
      cueText.blank = false;
      continue;
    }
    if (!current)
      throw new SubtitleError(
        `not SubRip: expected a cue number or a timing line "hh:mm:ss,mmm --> hh:mm:ss,mmm", found "${shown(line)}"`,
        1,
        i + 1,
      );
    cueText.add(line);
  }
  if (current) cueText.close(current);
  if (!cues.length && !skipped.count) throw new SubtitleError("the file holds no cue", 1, 1);

  const notes: string[] = [];
  if (trailing) notes.push(`text after the end time dropped on ${trailing} timing line${plural(trailing)}`);
  if (oddArrows) notes.push(`${oddArrows} timing line${plural(oddArrows)} with "- >" or "->" read as "-->"`);
  if (cueText.gaps)
    notes.push(`blank lines inside ${cueText.gaps} cue${plural(cueText.gaps)} dropped, the text after them kept in the cue`);
  if (joined > 0) notes.push(`${joined} cue${plural(joined)} starting with no blank line after the previous cue's text`);
  if (cueText.empty) notes.push(`${cueText.empty} cue${plural(cueText.empty)} with no text`);
  return outcomeOf(cues, notes, skipped);
}

export function plural(n: number): string {
  return n === 1 ? "" : "s";
}

/** SubRip as every player reads it: numbered from 1, CRLF line ends, a blank line after each cue, none inside one. */
export function writeSrt(cues: CueInput[]): string {
  const out: string[] = [];
  cues.forEach((cue, n) => {
    const text = tidyText(splitLines(cue.text));
    out.push(`${n + 1}\r\n${clock(cue.startMs, ",")} --> ${clock(cue.endMs, ",")}\r\n`);
    if (text) out.push(text.split("\n").join("\r\n"), "\r\n");
    out.push("\r\n");
  });
  return out.join("");
}

/**
 * Whether text looks like SubRip, from its first few non-blank lines only (the first 4 KiB at most): a timing line
 * first, or a cue number then a timing line. A WebVTT file (its `WEBVTT` header first) is not SubRip.
 */
export function looksLikeSrt(text: string): boolean {
  const head = splitLines(text.slice(0, 4096));
  let seen = 0;
  for (const line of head) {
    if (isBlank(line)) continue;
    if (seen === 0 && line.replace(/^\uFEFF/, "").startsWith("WEBVTT")) return false;
    const timing = readTiming(line);
    if (timing !== null) return typeof timing !== "string";
    if (seen > 0 || !isNumberLine(line)) return false;
    seen++;
  }
  return false;
}
