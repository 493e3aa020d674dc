/**
 * SubStation Alpha (SSA v4) and Advanced SubStation Alpha (ASS v4+), read as libass and Aegisub read them and written
 * as a minimal v4+ script. Every pass is a hand scan or an anchored regex on a short slice, so time is linear in the
 * input whatever it holds (a 600 KB uuencoded font, a 2 MiB line of braces).
 */
import { SubtitleError, isBlank, splitLines, tidyText, type Cue, type CueInput, type ReadOutcome } from "./cue";
import { assTextToStored, storedToAssText, type StyleLook } from "./ass-text";

type Section = "none" | "info" | "styles" | "events" | "other";

// Where the fields sit when [Events] has no Format line: SSA's `Marked` and ASS's `Layer` come first, so one order
// (Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text) serves both.
const DEFAULT_ORDER = { start: 1, end: 2, style: 3, text: 9 };
const SSA_STYLE_FORMAT = "name,fontname,fontsize,primarycolour,secondarycolour,tertiarycolour,backcolour,bold,italic".split(",");
const ASS_STYLE_FORMAT = [...SSA_STYLE_FORMAT.slice(0, 5), "outlinecolour", "backcolour", "bold", "italic", "underline", "strikeout"];

const PLAIN: StyleLook = { i: false, u: false, s: false };

/** Whether the text reads as SSA/ASS: a section header or a Dialogue line among its first lines (bounded look). */
export function looksLikeAss(text: string): boolean {
  for (const raw of splitLines(text.slice(0, 4096)).slice(0, 40)) {
    const line = raw
      .replace(/^[\uFEFF\s]+/, "")
      .slice(0, 40)
      .toLowerCase();
    if (/^\[(script info|events|v4\+? styles)\]/.test(line)) return true;
    if (/^dialogue:\s*(\d|marked=)/.test(line)) return true;
  }
  return false;
}

/** The comma-separated field names of a Format line, trimmed and lower case. */
function formatFields(rest: string): string[] {
  return rest.split(",").map((f) => f.trim().toLowerCase());
}

/**
 * `H:MM:SS.cc` between `from` and `to` of `line` to milliseconds, or -1: hours of 1–3 digits, a fraction of 1–3
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
  [3_600_000, 3],
  [60_000, 2],
  [1000, 2],
];
const isSpace = (c: number) => c === 32 || c === 9;

/** Whether `line` holds `word` (lower case, with its colon) at `at`, in any case. */
function keyAt(line: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = line.charCodeAt(at + k);
    if (c !== word.charCodeAt(k) && (c | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** The time in field `k` of a Dialogue line whose fields begin at `starts`; refused, naming cue and line, if unreadable. */
function timeField(line: string, starts: number[], k: number, which: string, cue: number, lineNo: number): number {
  const end = k + 1 < starts.length ? starts[k + 1] - 1 : line.length;
  const ms = k < starts.length ? readTime(line, starts[k], end) : -1;
  if (ms >= 0) return ms;
  const shown = k < starts.length ? `"${line.slice(starts[k], Math.min(end, starts[k] + 40)).trim()}"` : "missing";
  throw new SubtitleError(`the ${which} time of this Dialogue line is ${shown}, not a time like 0:01:02.50`, cue, lineNo);
}

/** A section header: `[name]` on a line of its own. Returns the lower-case name, or null. */
function header(line: string): string | null {
  const t = line.trim();
  return t.length > 2 && t[0] === "[" && t[t.length - 1] === "]" && t.length < 80 ? t.slice(1, -1).trim().toLowerCase() : null;
}

function styleName(raw: string): string {
  let i = 0;
  while (raw[i] === "*") i++; // SSA marks some styles with a leading `*`; libass ignores it
  return raw.slice(i).trim();
}

function flag(value: string | undefined): boolean {
  const n = parseInt((value ?? "").trim(), 10);
  return Number.isFinite(n) && n !== 0;
}

export function readAss(text: string): ReadOutcome {
  const lines = splitLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const styles = new Map<string, StyleLook>();
  const stylesLower = new Map<string, StyleLook>();
  let section: Section = "none";
  let ssa = false;
  let styleFormat: string[] | null = null;
  let order = DEFAULT_ORDER;
  const starts: number[] = [];
  let styled = false;
  let eventsLine = 0;
  let position = 0;
  const cues: Cue[] = [];
  const counts = { comments: 0, empty: 0, unknown: 0, headerless: 0, soft: 0, drawings: 0, colours: 0, overrides: 0 };
  const dropped = new Set<string>();
  let firstUnknown = 0;

  const lookStyle = (name: string): StyleLook =>
    styles.get(name) ?? stylesLower.get(name.toLowerCase()) ?? styles.get("Default") ?? stylesLower.get("default") ?? PLAIN;

  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const name = line.length > 0 && (line[0] === "[" || line[0] === " " || line[0] === "\t") ? header(line) : null;
    if (name !== null) {
      if (name === "script info") section = "info";
      else if (name === "v4 styles" || name === "v4+ styles" || name === "v4 styles+") {
        section = "styles";
        ssa = name === "v4 styles";
      } else if (name === "events") {
        section = "events";
        eventsLine ||= n + 1;
      } else section = "other";
      continue;
    }
    let at = 0;
    while (at < line.length && isSpace(line.charCodeAt(at))) at++;
    if (section === "styles") {
      if (keyAt(line, at, "format:")) styleFormat = formatFields(line.slice(at + 7));
      if (!keyAt(line, at, "style:")) continue;
      const fields = line.slice(at + 6).split(",");
      const styleOrder = styleFormat ?? (ssa ? SSA_STYLE_FORMAT : ASS_STYLE_FORMAT);
      const field = (f: string) => fields[styleOrder.indexOf(f)];
      const look = { i: flag(field("italic")), u: flag(field("underline")), s: flag(field("strikeout")) };
      const styleKey = styleName(field("name") ?? "Default") || "Default";
      styles.set(styleKey, look);
      stylesLower.set(styleKey.toLowerCase(), look);
      styled ||= look.i || look.u || look.s;
      continue;
    }
    // Events are read in [Events], and before any header so a bare list of Dialogue lines still reads.
    if (section !== "events" && section !== "none") continue;
    if (keyAt(line, at, "format:")) {
      const fields = formatFields(line.slice(at + 7));
      const missing = ["Start", "End", "Text"].find((f) => !fields.includes(f.toLowerCase()));
      // Before any header a Format line may be a styles one; in [Events] an order without times cannot be read.
      if (missing !== undefined && section === "events")
        throw new SubtitleError(`the [Events] Format line names no ${missing} field`, undefined, n + 1);
      if (missing === undefined)
        order = {
          start: fields.indexOf("start"),
          end: fields.indexOf("end"),
          style: fields.indexOf("style"),
          text: fields.indexOf("text"),
        };
      continue;
    }
    if (keyAt(line, at, "comment:")) {
      counts.comments++;
      continue;
    }
    if (!keyAt(line, at, "dialogue:")) {
      if (section === "events" && at < line.length && line[at] !== ";") {
        counts.unknown++;
        firstUnknown ||= n + 1;
      }
      continue;
    }
    position++;
    if (section === "none") counts.headerless++;
    // starts[k] is where field k begins; the Text field runs to the end of the line, commas and all.
    starts.length = 0;
    starts.push(at + 9);
    while (starts.length <= order.text) {
      const comma = line.indexOf(",", starts[starts.length - 1]);
      if (comma < 0) break;
      starts.push(comma + 1);
    }
    const startMs = timeField(line, starts, order.start, "start", position, n + 1);
    const endMs = timeField(line, starts, order.end, "end", position, n + 1);
    const textFrom = order.text < starts.length ? starts[order.text] : line.length;
    const look =
      styled && order.style >= 0 && order.style < order.text && order.style + 1 < starts.length
        ? lookStyle(styleName(line.slice(starts[order.style], starts[order.style + 1] - 1)))
        : PLAIN;
    const raw = line.slice(textFrom);
    let cueText: string;
    if (!look.i && !look.u && !look.s && raw.indexOf("{") < 0 && raw.indexOf("\\") < 0) {
      // Most lines carry no override and no escape: no need for the state machine.
      cueText = raw.trim();
      if (isBlank(cueText)) cueText = "";
    } else {
      const read = assTextToStored(raw, look, lookStyle);
      if (read.soft) counts.soft++;
      if (read.drawing) counts.drawings++;
      if (read.colour) counts.colours++;
      if (read.dropped.length > 0) counts.overrides++;
      for (const d of read.dropped) if (dropped.size < 8) dropped.add(d);
      cueText = tidyText(read.lines);
    }
    if (cueText === "") {
      counts.empty++;
      continue;
    }
    cues.push({ index: position, line: n + 1, startMs, endMs, text: cueText });
  }

  if (cues.length === 0) {
    const why =
      position > 0
        ? `: its ${position} Dialogue line${position === 1 ? " has" : "s have"} no text`
        : counts.comments > 0
          ? `: it has ${counts.comments} Comment line${counts.comments === 1 ? "" : "s"} and no Dialogue line`
          : eventsLine
            ? ": its [Events] section has no Dialogue line"
            : ": no [Events] section with Dialogue lines";
    throw new SubtitleError(`the file holds no cues${why}`, undefined, eventsLine || undefined);
  }

  const notes: string[] = [];
  const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
  if (counts.comments) notes.push(`${plural(counts.comments, "Comment line")} skipped: they are not shown, so not cues`);
  if (counts.empty) notes.push(`${plural(counts.empty, "Dialogue line")} with no text (or only a drawing) dropped`);
  if (counts.unknown)
    notes.push(
      `${plural(counts.unknown, "line")} in [Events] that ${counts.unknown === 1 ? "is" : "are"} not Dialogue, Comment or Format skipped (first on line ${firstUnknown})`,
    );
  if (counts.headerless) notes.push(`${plural(counts.headerless, "Dialogue line")} before any [Events] header read as events`);
  if (counts.soft) notes.push(`the soft break \\n read as a line break on ${plural(counts.soft, "cue")}`);
  if (counts.overrides)
    notes.push(
      `override tags other than italic, bold, underline, strike-out and colour dropped on ${plural(counts.overrides, "cue")} (${[...dropped].join(", ")})`,
    );
  if (counts.drawings) notes.push(`drawings (\\p) dropped on ${plural(counts.drawings, "cue")}`);
  if (counts.colours) notes.push(`text colours (\\c) kept as <font color> on ${plural(counts.colours, "cue")}`);
  return { cues, notes };
}

/** `H:MM:SS.cc` from centiseconds. */
function assClock(cs: number): string {
  const h = Math.floor(cs / 360_000);
  const m = Math.floor(cs / 6000) % 60;
  const s = Math.floor(cs / 100) % 60;
  const pad = (v: number) => String(v).padStart(2, "0");
  return `${h}:${pad(m)}:${pad(s)}.${pad(cs % 100)}`;
}

const WRITE_HEADER = [
  "[Script Info]",
  "ScriptType: v4.00+",
  "PlayResX: 384",
  "PlayResY: 288",
  "WrapStyle: 0",
  "ScaledBorderAndShadow: yes",
  "",
  "[V4+ Styles]",
  "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
  "Style: Default,Arial,16,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1",
  "",
  "[Events]",
  "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
];

/**
 * A minimal ASS v4+ script, CRLF line ends. Times are rounded to the nearest centisecond, so cues that touch still
 * touch and none overlaps its neighbour; a cue shorter than that which would round to nothing keeps one centisecond.
 */
export function writeAss(cues: CueInput[]): string {
  const out = [...WRITE_HEADER];
  for (const cue of cues) {
    const start = Math.round(Math.max(0, cue.startMs) / 10);
    let end = Math.round(Math.max(0, cue.endMs) / 10);
    if (end <= start && cue.endMs > cue.startMs) end = start + 1;
    out.push(`Dialogue: 0,${assClock(start)},${assClock(end)},Default,,0,0,0,,${storedToAssText(cue.text)}`);
  }
  return out.join("\r\n") + "\r\n";
}
