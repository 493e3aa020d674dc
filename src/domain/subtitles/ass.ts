/**
 * SubStation Alpha (SSA v4) and Advanced SubStation Alpha (ASS v4+), read as libass and Aegisub read them and written
 * as a minimal v4+ script. Every pass is a hand scan or an anchored regex on a short slice, so time is linear in the
 * input whatever it holds (a 600 KB uuencoded font, a 2 MiB line of braces).
 */
import { SubtitleError, isBlank, splitLines, tidyText, type Cue, type CueInput, type ReadOutcome } from "./cue";
import { ASS_STYLE_FIELDS, SSA_STYLE_FIELDS, flag, formatFields, header, isSpace, keyAt, styleName, timeField } from "./ass-line";
import { assTextToStored, storedToAssText, type StyleLook } from "./ass-text";

type Section = "none" | "info" | "styles" | "events" | "other";

// Where the fields sit when [Events] has no Format line: SSA's `Marked` and ASS's `Layer` come first, so one order
// (Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text) serves both.
const DEFAULT_ORDER = { start: 1, end: 2, style: 3, text: 9 };
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

export function readAss(text: string): ReadOutcome {
  const lines = splitLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const styles = new Map<string, StyleLook>();
  const stylesLower = new Map<string, StyleLook>();
  let section: Section = "none";
  let ssa = false;
  let styleFormat: Map<string, number> | null = null;
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
      if (keyAt(line, at, "format:")) styleFormat = formatFields(line, at + 7, n + 1);
      if (!keyAt(line, at, "style:")) continue;
      const fields = line.slice(at + 6).split(",");
      const styleOrder = styleFormat ?? (ssa ? SSA_STYLE_FIELDS : ASS_STYLE_FIELDS);
      const field = (f: string) => fields[styleOrder.get(f) ?? -1];
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
      const fields = formatFields(line, at + 7, n + 1);
      const missing = ["Start", "End", "Text"].find((f) => !fields.has(f.toLowerCase()));
      // Before any header a Format line may be a styles one; in [Events] an order without times cannot be read.
      if (missing !== undefined && section === "events")
        throw new SubtitleError(`the [Events] Format line names no ${missing} field`, undefined, n + 1);
      if (missing === undefined)
        order = {
          start: fields.get("start")!,
          end: fields.get("end")!,
          style: fields.get("style") ?? -1,
          text: fields.get("text")!,
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
