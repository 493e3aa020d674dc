/**
 * WebVTT, read as a browser reads it (the W3C parsing algorithm, https://www.w3.org/TR/webvtt1/#file-parsing) and
 * written so that the W3C's own parser reads back exactly the cues given. Cue text becomes the stored form (cue.ts):
 * `<i> <b> <u>` stay, every other WebVTT node keeps only its text, entities are unescaped.
 */
import {
  SubtitleError,
  addSkipped,
  clock,
  isBlank,
  outcomeOf,
  splitLines,
  type Cue,
  type CueInput,
  type ReadOutcome,
  type SkippedBlocks,
} from "./cue";
import { boundedStyling, parseMarkup, type MarkupToken } from "./markup";
import { lenientTimings, strictTimings } from "./vtt-timing";
import { decodeCueText, type TextStats } from "./vtt-text";

const SIGNATURE = "WEBVTT";

/** The signature within the first KiB, after a BOM and white space: enough to route a file here for a precise refusal. */
export function looksLikeVtt(text: string): boolean {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stop = Math.min(text.length, 1024);
  while (i < stop && (isBlank(text[i]) || text[i] === "\n" || text[i] === "\r")) i++;
  return text.startsWith(SIGNATURE, i);
}

interface Counts {
  /** Cue blocks met so far, read or skipped: the position of the next. */
  position: number;
  unreadable: SkippedBlocks;
  settings: number;
  identifiers: number;
  skipped: number;
  lenient: number[];
  strays: number[];
  header: boolean;
  text: TextStats;
}

export function readVtt(input: string): ReadOutcome {
  let text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  // The algorithm's preprocessing; splitLines does the CR/CRLF half.
  if (text.includes("\0")) text = text.split("\0").join("\uFFFD");
  const lines = splitLines(text);
  const first = lines[0];
  if (!first.startsWith(SIGNATURE) || (first.length > SIGNATURE.length && first[6] !== " " && first[6] !== "\t"))
    throw new SubtitleError(
      `a WebVTT file starts with "WEBVTT" alone or followed by a space or tab; a browser reads nothing of this file`,
      undefined,
      1,
    );
  const counts: Counts = {
    position: 0,
    unreadable: { count: 0, blocks: [] },
    settings: 0,
    identifiers: 0,
    skipped: 0,
    lenient: [],
    strays: [],
    header: false,
    text: { voices: 0, dropped: 0, entities: 0 },
  };
  const cues: Cue[] = [];
  const n = lines.length;
  let i = 1;
  if (i < n && lines[i] !== "") {
    // Header lines ("Kind:", "Language:", old "Region:" lines) end at a blank line, or at a timing line left to the cue loop.
    while (i < n && lines[i] !== "" && !lines[i].includes("-->")) i++;
    counts.header = i > 1;
  }
  while (i < n) {
    if (lines[i] === "") i++;
    else i = readBlock(lines, i, cues, counts);
  }
  return outcomeOf(cues, notesOf(counts), counts.unreadable);
}

/**
 * The spec's "collect a WebVTT block" from line `start`; returns the line where the next block may start. A timing
 * line is the first or second line of a block; any later line holding "-->" starts a new block.
 */
function readBlock(lines: string[], start: number, cues: Cue[], counts: Counts): number {
  let i = start;
  let timing = -1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") break;
    if (line.includes("-->")) {
      const count = i - start + 1;
      if (count === 1 || (count === 2 && timing < 0)) timing = i;
      else break;
    }
  }
  const next = i < lines.length && lines[i] === "" ? i + 1 : i;
  if (timing < 0) {
    if (isComment(lines[start])) counts.skipped++;
    else if (lines.slice(start, i).some((l) => !isBlank(l))) counts.strays.push(start + 1);
    return next;
  }
  const times = strictTimings(lines[timing]) ?? lenientTimings(lines[timing]);
  // A comment holding "-->" is malformed, but it is a comment: a browser drops it as it drops any comment.
  if (!times && isComment(lines[start])) {
    counts.skipped++;
    return next;
  }
  const index = ++counts.position;
  if (!times) {
    // A browser drops the block and shows the rest (the W3C parsing algorithm): so does the import, reporting it.
    addSkipped(counts.unreadable, index, timing + 1, `the timing line ${quote(lines[timing])} is not "hh:mm:ss.ttt --> hh:mm:ss.ttt"`);
    return next;
  }
  if (!times.strict) counts.lenient.push(timing + 1);
  if (!isBlank(times.rest)) counts.settings++;
  if (timing > start) counts.identifiers++;
  const raw = i - timing === 2 ? lines[timing + 1] : lines.slice(timing + 1, i).join("\n");
  const cueText = decodeCueText(raw, counts.text);
  cues.push({ index, line: timing + 1, startMs: times.startMs, endMs: times.endMs, text: cueText });
  return next;
}

/**
 * Whether the reader reads `line` (after the signature) as the timing line of a cue, for the import route's early
 * count: every line holding "-->" is the timing line of its block (readBlock starts a new block at one that comes
 * later in a block), and a block is a cue when its timings read.
 */
export function isVttCueLine(line: string): boolean {
  return line.includes("-->") && (strictTimings(line) ?? lenientTimings(line)) !== null;
}

/** NOTE comments, STYLE and REGION blocks: nothing a viewer sees. */
function isComment(line: string): boolean {
  if (line.startsWith("NOTE")) return line.length === 4 || line[4] === " " || line[4] === "\t";
  const word = line.startsWith("STYLE") ? 5 : line.startsWith("REGION") ? 6 : 0;
  return word > 0 && isBlank(line.slice(word));
}

function quote(line: string): string {
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
}

function notesOf(c: Counts): string[] {
  const notes: string[] = [];
  const lines = (at: number[]) => `line${at.length > 1 ? "s" : ""} ${at.slice(0, 5).join(", ")}${at.length > 5 ? ", …" : ""}`;
  if (c.header) notes.push("header lines after WEBVTT dropped");
  if (c.skipped) notes.push(`${c.skipped} NOTE, STYLE or REGION block${c.skipped > 1 ? "s" : ""} skipped`);
  if (c.strays.length)
    notes.push(
      `${c.strays.length} block${c.strays.length > 1 ? "s" : ""} without a timing line dropped, as a browser drops them (${lines(c.strays)})`,
    );
  if (c.lenient.length)
    notes.push(
      `${c.lenient.length} timing${c.lenient.length > 1 ? "s" : ""} not in WebVTT form (no milliseconds, 1-2 digits of them, a comma) read as SubRip reads them, where a browser drops the cue (${lines(c.lenient)})`,
    );
  if (c.settings) notes.push(`cue settings after the end time dropped on ${c.settings} timing line${c.settings > 1 ? "s" : ""}`);
  if (c.identifiers) notes.push(`${c.identifiers} cue identifier${c.identifiers > 1 ? "s" : ""} dropped`);
  if (c.text.voices)
    notes.push(`<v> voice spans dropped (their text kept, the speaker's name not) in ${c.text.voices} cue${c.text.voices > 1 ? "s" : ""}`);
  if (c.text.dropped)
    notes.push(
      `class, language and ruby tags and karaoke timestamps dropped (their text kept) in ${c.text.dropped} cue${c.text.dropped > 1 ? "s" : ""}`,
    );
  if (c.text.entities) notes.push(`${c.text.entities} character reference${c.text.entities > 1 ? "s" : ""} not known here kept as written`);
  return notes;
}

/** `WEBVTT`, then each cue's timing and text, by start time (the order WebVTT requires; a browser sorts so anyway). */
export function writeVtt(cues: CueInput[]): string {
  const blocks = [SIGNATURE];
  for (const cue of [...cues].sort((a, b) => a.startMs - b.startMs)) {
    const text = vttText(cue.text);
    // WebVTT wants the end after the start (the W3C parser refuses the file otherwise): a zero-length cue, stored as
    // read and counted in the import's quality report, is written with the smallest valid length (docs/api.md,
    // "Subtitle files").
    const endMs = cue.endMs > cue.startMs ? cue.endMs : cue.startMs + 1;
    blocks.push(`${clock(cue.startMs, ".")} --> ${clock(endMs, ".")}${text ? `\n${text}` : ""}`);
  }
  return `${blocks.join("\n\n")}\n`;
}

/**
 * Stored text as WebVTT cue text: `<i> <b> <u>` kept; `<s>`, `<font>` and override blocks dropped (WebVTT has no
 * strike-through, and a colour would need a STYLE block); `& < >` escaped, so no line can hold "-->"; no line may be
 * blank, since a blank line ends the cue.
 */
function vttText(text: string): string {
  const tokens = parseMarkup(splitLines(text).join("\n"), { balanced: true });
  return boundedStyling(text, (styled, budget) => vttLines(tokens, styled, budget));
}

/** The cue text of the tokens (without their tags unless `styled`); null once it passes `budget` characters. */
function vttLines(tokens: MarkupToken[], styled: boolean, budget: number): string | null {
  let line: MarkupLine = { markup: "", tags: "", visible: false };
  const lines = [line];
  // What joinVisible can make of it: every line's markup, or its tags alone, and a line break between two.
  let written = 0;
  for (const t of tokens) {
    if (t.kind === "newline") {
      lines.push((line = { markup: "", tags: "", visible: false }));
      written++;
    } else if (t.kind === "text") {
      const escaped = t.text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
      line.markup += escaped;
      written += escaped.length;
      if (!isBlank(t.text)) line.visible = true;
    } else if (styled && (t.kind === "open" || t.kind === "close") && (t.tag === "i" || t.tag === "b" || t.tag === "u")) {
      const tag = t.kind === "open" ? `<${t.tag}>` : `</${t.tag}>`;
      line.markup += tag;
      line.tags += tag;
      written += tag.length;
    }
    if (written > budget) return null;
  }
  return joinVisible(lines).join("\n");
}

interface MarkupLine {
  markup: string;
  tags: string;
  visible: boolean;
}

/**
 * Lines with no visible text (white space, bare tags) would be blank lines: a stored text has none, and in WebVTT one
 * ends the cue. Their tags join the previous line (or the next, at the start); their white space goes.
 */
function joinVisible(lines: MarkupLine[]): string[] {
  const out: string[] = [];
  let pending = "";
  for (const line of lines) {
    if (line.visible) {
      out.push(pending + line.markup);
      pending = "";
    } else if (out.length > 0) out[out.length - 1] += line.tags;
    else pending += line.tags;
  }
  return out;
}
