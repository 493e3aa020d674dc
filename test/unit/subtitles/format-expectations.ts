/**
 * What a stored text (cue.ts) becomes once written in a format and read back with the same format's reader: the
 * limits of each format, stated once for the corpus test and the round-trip properties.
 */
import { splitLines, tidyText } from "../../../src/domain/subtitles/cue";
import { FORMATS, type SubtitleFormat } from "../../../src/domain/subtitles/formats";
import { hexColor, parseMarkup, plainText, type StyleTag } from "../../../src/domain/subtitles/markup";

/** Tags each format carries, as its registry entry states them. */
const carries = (format: SubtitleFormat, tag: StyleTag) => (FORMATS[format].carries as readonly string[]).includes(tag);

/**
 * SubRip keeps the text as stored. The others drop `{\…}` override blocks (the SSA reader drops the positioning ones
 * the SubRip convention uses, such as `{\an8}`), drop the tags they cannot carry, and write a colour as `#rrggbb`
 * (TTML: white is every player's default, so no colour). Lines left blank go, as in every stored text.
 */
export function expectedText(format: SubtitleFormat, stored: string): string {
  const tidy = tidyText(splitLines(stored));
  if (format === "srt") return tidy;
  if (format === "sbv") return tidyText(splitLines(plainText(tidy)));
  let out = "";
  const fonts: boolean[] = [];
  for (const t of parseMarkup(tidy, { balanced: true })) {
    if (t.kind === "text") out += t.text;
    else if (t.kind === "newline") out += "\n";
    else if (t.kind === "override" || !carries(format, t.tag)) continue;
    else if (t.tag !== "font") out += t.kind === "open" ? `<${t.tag}>` : `</${t.tag}>`;
    else if (t.kind === "open") {
      const hex = hexColor(t.color);
      const kept = hex !== null && !(format === "ttml" && hex === "ffffff");
      fonts.push(kept);
      if (kept) out += `<font color="#${hex}">`;
    } else if (fonts.pop()) out += "</font>";
  }
  return tidyText(splitLines(out));
}

/**
 * The times a format's reader gives back for a cue written in it: SSA's whole centiseconds (a cue with a length keeps
 * one), and WebVTT's end after the start (its writer ends a zero-length cue 1 ms after its start).
 */
export function readBackTimes(format: SubtitleFormat, startMs: number, endMs: number): [number, number] {
  if (format === "vtt") return [startMs, endMs > startMs ? endMs : startMs + 1];
  if (format !== "ass") return [startMs, endMs];
  const start = Math.round(startMs / 10);
  const end = Math.round(endMs / 10);
  return [start * 10, (end <= start && endMs > startMs ? start + 1 : end) * 10];
}

/**
 * A text as lines of runs of one style each (tags open, colour), white space belonging to no style. SSA styling is
 * a state, not a tree, so its reader opens tags in an order of its own (`<b><font>` for `<font><b>`) and closes
 * them late (`<i>a</i> <i>b</i>` comes back `<i>a b</i>`): two texts with equal runs look the same on screen.
 */
export function styledRuns(text: string): Array<Array<[string, string]>> {
  const lines: Array<Array<[string, string]>> = [[]];
  const open: string[] = [];
  const add = (style: string, s: string) => {
    const line = lines[lines.length - 1];
    const last = line[line.length - 1];
    if (last && last[0] === style) last[1] += s;
    else line.push([style, s]);
  };
  for (const t of parseMarkup(text, { balanced: true })) {
    if (t.kind === "newline") lines.push([]);
    else if (t.kind === "open") open.push(t.tag === "font" ? `font=${hexColor(t.color)}` : t.tag);
    else if (t.kind === "close") open.splice(open.map((o) => o.split("=")[0]).lastIndexOf(t.tag), 1);
    else if (t.kind === "text") {
      const style = [...open].sort().join(" ");
      for (const ch of t.text) add(/\s/.test(ch) ? "" : style, ch);
    }
  }
  return lines;
}

/**
 * A read-back text in the form to compare with `expectedText`. Once through WebVTT or SSA, by its runs: WebVTT's
 * reader joins a style reopened right after its close (`<i>a</i><i>b</i>` is `<i>ab</i>`, as a browser's tree has
 * it), and SSA's orders and closes tags its own way. Once through SSA, without the white space that starts a line,
 * which libass does not show (ass-text.ts).
 */
export function comparable(text: string, ...through: SubtitleFormat[]): unknown {
  if (!through.includes("ass") && !through.includes("vtt")) return text;
  const lines = styledRuns(text);
  if (!through.includes("ass")) return lines;
  return lines.map((runs) => {
    const first = runs.findIndex(([style, s]) => style !== "" || /[^ \t]/.test(s));
    const kept = runs.slice(first < 0 ? runs.length : first);
    if (kept[0]?.[0] === "") kept[0] = ["", kept[0][1].replace(/^[ \t]+/, "")];
    return kept;
  });
}
