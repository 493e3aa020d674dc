/**
 * The pieces of one SSA/ASS line the reader (ass.ts) takes apart: keys, section headers, Format fields, times and style
 * fields. Each is a hand scan of the line itself, so reading a script costs no more than its length.
 */
import { SUBTITLE_LIMITS, SubtitleError } from "./cue";

const SSA_STYLE_FORMAT = "name,fontname,fontsize,primarycolour,secondarycolour,tertiarycolour,backcolour,bold,italic".split(",");
const ASS_STYLE_FORMAT = [...SSA_STYLE_FORMAT.slice(0, 5), "outlinecolour", "backcolour", "bold", "italic", "underline", "strikeout"];

/**
 * The comma-separated field names of a Format line (trimmed, lower case) indexed once: each name to its first
 * position. At most SUBTITLE_LIMITS.assFields fields (a script names 10 to 23), so a line read against it costs no
 * more than its own length however long the Format line (docs/decisions.md, "Subtitle formats").
 */
export function formatFields(line: string, from: number, lineNo: number): Map<string, number> {
  const fields = new Map<string, number>();
  let count = 0;
  for (let at = from; at <= line.length; count++) {
    if (count === SUBTITLE_LIMITS.assFields)
      throw new SubtitleError(`the Format line names more than ${SUBTITLE_LIMITS.assFields} fields`, undefined, lineNo, "assFields");
    let comma = line.indexOf(",", at);
    if (comma < 0) comma = line.length;
    const name = line.slice(at, comma).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, count);
    at = comma + 1;
  }
  return fields;
}

/** The built-in Format of a styles section without one, indexed as formatFields indexes a Format line. */
const indexed = (names: string[]) => new Map(names.map((name, k) => [name, k]));
export const SSA_STYLE_FIELDS = indexed(SSA_STYLE_FORMAT);
export const ASS_STYLE_FIELDS = indexed(ASS_STYLE_FORMAT);

/**
 * `H:MM:SS.cc` between `from` and `to` of `line` to milliseconds, or -1: hours of 1–5 digits (libass reads any; the
 * writer writes a WebVTT import's 1,000 hours as they are, and the reader must read its own writer's output), a fraction of 1–3
 * digits read as a fraction (or none), white space around. Read by hand: it runs once per cue.
 */
function readTime(line: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(line.charCodeAt(i))) i++;
  while (to > i && isSpace(line.charCodeAt(to - 1))) to--;
  let total = 0;
  for (const [unit, most] of CLOCK_PARTS) {
    let value = 0;
    let digits = 0;
    for (; i < to && digits < most; i++, digits++) {
      const d = line.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
    }
    if (digits === 0) return -1;
    // Minutes or seconds past 59 add up as libass adds them.
    total += value * unit;
    if (unit === 1000) break;
    if (line[i++] !== ":") return -1;
  }
  if (i < to && (line[i] === "." || line[i] === ",")) {
    let scale = 100;
    for (i++; i < to && scale >= 1; i++, scale /= 10) {
      const d = line.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      total += d * scale;
    }
  }
  return i === to ? total : -1;
}
const CLOCK_PARTS: Array<[number, number]> = [
  [3_600_000, 5],
  [60_000, 2],
  [1000, 2],
];
export const isSpace = (c: number) => c === 32 || c === 9;

/** Whether `line` holds `word` (lower case, with its colon) at `at`, in any case. */
export function keyAt(line: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = line.charCodeAt(at + k);
    if (c !== word.charCodeAt(k) && (c | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** The time in field `k` of a Dialogue line whose fields begin at `starts`; refused, naming cue and line, if unreadable. */
export function timeField(line: string, starts: number[], k: number, which: string, cue: number, lineNo: number): number {
  const end = k + 1 < starts.length ? starts[k + 1] - 1 : line.length;
  const ms = k < starts.length ? readTime(line, starts[k], end) : -1;
  if (ms >= 0) return ms;
  const shown = k < starts.length ? `"${line.slice(starts[k], Math.min(end, starts[k] + 40)).trim()}"` : "missing";
  throw new SubtitleError(`the ${which} time of this Dialogue line is ${shown}, not a time like 0:01:02.50`, cue, lineNo);
}

/** A section header: `[name]` on a line of its own. Returns the lower-case name, or null. */
export function header(line: string): string | null {
  const t = line.trim();
  return t.length > 2 && t[0] === "[" && t[t.length - 1] === "]" && t.length < 80 ? t.slice(1, -1).trim().toLowerCase() : null;
}

export function styleName(raw: string): string {
  let i = 0;
  while (raw[i] === "*") i++; // SSA marks some styles with a leading `*`; libass ignores it
  return raw.slice(i).trim();
}

export function flag(value: string | undefined): boolean {
  const n = parseInt((value ?? "").trim(), 10);
  return Number.isFinite(n) && n !== 0;
}
