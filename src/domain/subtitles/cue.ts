/**
 * The one cue model every subtitle format reads into and writes from (docs/decisions.md, "Subtitle formats").
 *
 * A cue's `text` is the project's stored form, which is SubRip's: lines joined by "\n" (no blank line inside, no
 * trailing white space on a line), styling as the SubRip tags `<i>`, `<b>`, `<u>`, `<s>` and `<font color="…">`
 * (see markup.ts), everything else literal. There is no escaping: `&amp;` in a SubRip file is five characters of
 * text and stays so; a WebVTT or TTML reader unescapes its entities into this form and its writer escapes again.
 */
export interface Cue {
  /** 1-based position of the cue in the file as read (not the number the file gives it). */
  index: number;
  /**
   * 1-based line of the file holding the cue's timing (SubRip, WebVTT and SBV: the timing line; SSA: the Dialogue
   * line; TTML: the line where the `<p>` starts), for refusals and the quality report.
   */
  line: number;
  startMs: number;
  endMs: number;
  text: string;
}

/** What a writer takes: times and stored text. */
export interface CueInput {
  startMs: number;
  endMs: number;
  text: string;
}

/**
 * A reader: text (already decoded, BOM removed) to cues in file order, with notes on what it tolerated. It refuses
 * (throws SubtitleError naming cue and line) only what it cannot read; checks common to every format (a cue ending
 * before it starts, the limits, time order) are the pipeline's (read-file.ts), not each reader's.
 */
export interface ReadOutcome {
  cues: Cue[];
  /** What the reader tolerated or dropped, once per kind, e.g. "text after the end time dropped on 3 timing lines". */
  notes: string[];
  /** Cue blocks the reader could not read and skipped, as players skip them (SubRip, WebVTT); absent when none. */
  skipped?: SkippedBlocks;
}

/**
 * Cue blocks skipped for a timing a player cannot read either, for the quality report (docs/api.md, "The quality
 * report"): every one counted, the first `SKIPPED_LISTED` listed with the position the cue has in the file (a skipped
 * block takes a position, so the cues after it keep theirs), its timing line and why. A reader that skips every
 * block refuses the file with the first one instead: a file with no readable cue is no subtitle file.
 */
export interface SkippedBlocks {
  count: number;
  blocks: { cue: number; line: number; reason: string }[];
}

const SKIPPED_LISTED = 10;

export function addSkipped(skipped: SkippedBlocks, cue: number, line: number, reason: string): void {
  skipped.count++;
  if (skipped.blocks.length < SKIPPED_LISTED) skipped.blocks.push({ cue, line, reason });
}

/** The reader's outcome: its cues, or the first skipped block's refusal when it skipped every block it found. */
export function outcomeOf(cues: Cue[], notes: string[], skipped: SkippedBlocks): ReadOutcome {
  if (cues.length === 0 && skipped.count > 0) {
    const first = skipped.blocks[0];
    throw new SubtitleError(first.reason, first.cue, first.line);
  }
  return skipped.count > 0 ? { cues, notes, skipped } : { cues, notes };
}

/** Why a file was refused: where (cue position and line, when known) and what. `limit` names a limit that was passed. */
export class SubtitleError extends Error {
  /**
   * The id of the format the file was being read as (formats.ts), when the problem was in its content (set by the
   * pipeline). A string, so that the model does not import the registry that imports every reader.
   */
  format?: string;

  constructor(
    readonly reason: string,
    readonly cue?: number,
    readonly line?: number,
    readonly limit?: SubtitleLimit,
  ) {
    super(cue !== undefined ? `cue ${cue} (line ${line}): ${reason}` : line !== undefined ? `line ${line}: ${reason}` : reason);
  }
}

/**
 * Every limit of an upload and of what is stored and written, stated in docs/api.md ("Subtitle files"). The cue and
 * track limits hold for what is stored, whoever writes it (an import after joining cues of one start, an edit, a
 * restore), so that every download is bounded (docs/decisions.md, "Subtitle formats").
 */
export const SUBTITLE_LIMITS = {
  /** bytes of one upload, raw or inside the JSON body (413 at the route) */
  bytes: 2 * 1024 * 1024,
  /** cues in one file */
  cues: 20_000,
  /** characters of one cue's text (also once cues of one start are joined) */
  cueChars: 2_000,
  /** characters of one line of a cue's text */
  lineChars: 500,
  /** characters of all the texts of one track (a video's subtitles in one language): a 2 MiB file's worth */
  trackChars: 2 * 1024 * 1024,
  /** styling tags a writer keeps open at once (a tag inside the same tag counts once); deeper ones are dropped, their text kept */
  openTags: 8,
  /** characters a writer writes per character of a cue's stored text at most; styling that would take more is dropped */
  outputPerChar: 8,
  /** characters a writer adds per cue for its timing and framing at most (and a fixed header of at most 1 KiB) */
  outputPerCue: 128,
  /** fields an SSA/ASS Format line may name */
  assFields: 64,
} as const;

type SubtitleLimit = keyof typeof SUBTITLE_LIMITS;

/**
 * What is wrong with a cue's text for the cue and line limits, or null: the one statement of both rules, for the
 * import (each cue read, each cue joined) and the edits.
 */
export function cueTextProblem(text: string): { reason: string; limit: "cueChars" | "lineChars" } | null {
  if (text.length > SUBTITLE_LIMITS.cueChars)
    return { reason: `the cue's text is over ${SUBTITLE_LIMITS.cueChars} characters`, limit: "cueChars" };
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === 10) {
      if (i - start > SUBTITLE_LIMITS.lineChars)
        return { reason: `a line of the cue is over ${SUBTITLE_LIMITS.lineChars} characters`, limit: "lineChars" };
      start = i + 1;
    }
  }
  return null;
}

/** The refusal of a track that would hold more than SUBTITLE_LIMITS.trackChars characters, or null. */
export function trackCharsProblem(chars: number): string | null {
  return chars > SUBTITLE_LIMITS.trackChars
    ? `the track would hold ${chars} characters of text; a track may hold at most ${SUBTITLE_LIMITS.trackChars}`
    : null;
}

/**
 * Splits text into lines at CRLF, CR or LF in one pass (no regular expression over the input), so a line number is
 * an index + 1 whatever the file's line ends.
 */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      lines.push(text.slice(start, i));
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  lines.push(text.slice(start));
  return lines;
}

/** A line holding only white space (spaces, tabs, NBSP, other Unicode spaces) or nothing. */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 0xa0 && c !== 0xfeff && !(c >= 0x2000 && c <= 0x200b) && c !== 0x3000 && c !== 0x0b && c !== 0x0c)
      return false;
  }
  return true;
}

/** Trims the end of every line and drops blank lines, so a stored text never holds a line a SubRip file would end a cue at. */
export function tidyText(lines: readonly string[]): string {
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (!isBlank(trimmed)) kept.push(trimmed);
  }
  return kept.join("\n");
}

/** `hh:mm:ss` + separator + `mmm` with at least two digits of hours, for SubRip and WebVTT writers. */
export function clock(ms: number, separator: "," | "."): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}${separator}${String(t % 1000).padStart(3, "0")}`;
}

/**
 * The text of the cue a line-by-line reader (SubRip, SBV) is in: its lines, whether a blank line came inside it, and
 * the two counts both readers report: cues with blank lines inside (dropped, the text after them kept) and cues with
 * no text.
 */
export class CueText {
  readonly lines: string[] = [];
  /** Whether the last line read was blank. */
  blank = false;
  private gapInCue = false;
  gaps = 0;
  empty = 0;

  /** A text line of the current cue. */
  add(line: string) {
    if (this.blank) this.gapInCue = true;
    this.lines.push(line);
    this.blank = false;
  }

  /** A timing line began a cue: no blank line inside it yet. */
  restart() {
    this.blank = this.gapInCue = false;
  }

  /** Ends `cue` with its text tidied from `lines` (the lines read, or the reader's rewrite of them). */
  close(cue: Cue, lines: readonly string[] = this.lines) {
    cue.text = tidyText(lines);
    if (!cue.text) this.empty++;
    if (this.gapInCue) this.gaps++;
    this.lines.length = 0;
  }
}
