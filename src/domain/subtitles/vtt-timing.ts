/**
 * WebVTT's timing lines (src/domain/subtitles/vtt.ts reads the blocks): the W3C parser's own reading, and the lenient
 * one for what a browser drops but a SubRip reader takes. Read by hand, in one pass over the line.
 */
export interface Timings {
  startMs: number;
  endMs: number;
  rest: string;
  strict: boolean;
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\f";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

function skipSpaces(s: string, p: number): number {
  while (isSpace(s[p])) p++;
  return p;
}

function digitsEnd(s: string, p: number): number {
  while (isDigit(s[p])) p++;
  return p;
}

/** The spec's "collect WebVTT cue timings and settings", without the settings (which a stored cue cannot hold). */
export function strictTimings(line: string): Timings | null {
  const start = timestamp(line, skipSpaces(line, 0));
  if (!start) return null;
  let p = skipSpaces(line, start[1]);
  if (!line.startsWith("-->", p)) return null;
  const end = timestamp(line, skipSpaces(line, p + 3));
  if (!end) return null;
  p = end[1];
  return { startMs: start[0], endMs: end[0], rest: line.slice(p), strict: true };
}

/** The spec's "collect a WebVTT timestamp" at `p`: [milliseconds, position after it], or null. */
function timestamp(s: string, p: number): [number, number] | null {
  const e1 = digitsEnd(s, p);
  if (e1 === p || s[e1] !== ":") return null;
  const v1 = Number(s.slice(p, e1));
  const hours = e1 - p !== 2 || v1 > 59;
  const e2 = digitsEnd(s, e1 + 1);
  if (e2 - e1 - 1 !== 2) return null;
  const v2 = Number(s.slice(e1 + 1, e2));
  let h = 0;
  let m = v1;
  let sec = v2;
  let q = e2;
  if (hours || s[q] === ":") {
    if (s[q] !== ":") return null;
    const e3 = digitsEnd(s, q + 1);
    if (e3 - q - 1 !== 2) return null;
    [h, m, sec] = [v1, v2, Number(s.slice(q + 1, e3))];
    q = e3;
  }
  if (s[q] !== ".") return null;
  const e4 = digitsEnd(s, q + 1);
  if (e4 - q - 1 !== 3 || m > 59 || sec > 59) return null;
  const ms = h * 3_600_000 + m * 60_000 + sec * 1000 + Number(s.slice(q + 1, e4));
  return Number.isSafeInteger(ms) ? [ms, e4] : null;
}

/**
 * What a browser drops but a SubRip reader takes (times without milliseconds, 1-2 or 4+ digits of them, "," before
 * them, one-digit fields): read as the SubRip reader reads them (the first three digits as whole milliseconds, as
 * FFmpeg's WebVTT reader does too), and noted, rather than losing the cue.
 */
export function lenientTimings(line: string): Timings | null {
  const start = looseTimestamp(line, skipSpaces(line, 0));
  if (!start) return null;
  const p = skipSpaces(line, start[1]);
  if (!line.startsWith("-->", p)) return null;
  const end = looseTimestamp(line, skipSpaces(line, p + 3));
  if (!end || (end[1] < line.length && !isSpace(line[end[1]]))) return null;
  return { startMs: start[0], endMs: end[0], rest: line.slice(end[1]), strict: false };
}

function looseTimestamp(s: string, p: number): [number, number] | null {
  const fields: number[] = [];
  let q = p;
  for (;;) {
    const e = digitsEnd(s, q);
    if (e === q || (fields.length > 0 && e - q > 2)) return null;
    fields.push(Number(s.slice(q, e)));
    q = e;
    if (s[q] !== ":" || fields.length === 3) break;
    q++;
  }
  if (fields.length < 2) return null;
  const [h, m, sec] = fields.length === 3 ? fields : [0, fields[0], fields[1]];
  if (m > 59 || sec > 59) return null;
  let milliseconds = 0;
  if (s[q] === "." || s[q] === ",") {
    const e = digitsEnd(s, q + 1);
    if (e === q + 1) return null;
    milliseconds = Number(s.slice(q + 1, Math.min(e, q + 4)));
    q = e;
  }
  const ms = h * 3_600_000 + m * 60_000 + sec * 1000 + milliseconds;
  return Number.isSafeInteger(ms) ? [ms, q] : null;
}
