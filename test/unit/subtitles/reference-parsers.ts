/**
 * The reference parsers the readers and writers are checked against (docs/decisions.md, "Subtitle formats"), each as
 * the cues it sees: webvtt-parser (the W3C validator's WebVTT parser), ass-compiler (an SSA/ASS parser) and imsc (the
 * IMSC/TTML reference implementation, which renders what is on screen at each moment).
 */
// @ts-expect-error -- webvtt-parser (the W3C validator's parser) ships no type declarations
import { WebVTTParser } from "webvtt-parser";
import htmlEntities from "webvtt-parser/html-entities.json";
import { parse as parseAss } from "ass-compiler";
// @ts-expect-error -- imsc ships no type declarations; its document and ISD modules, not main.js (which needs a DOM)
import { fromXML } from "imsc/src/main/js/doc.js";
// @ts-expect-error -- as above
import { generateISD } from "imsc/src/main/js/isd.js";

/** The W3C parser's view of a file: its cues (times in seconds, a node tree) and its conformance errors. */
export interface W3cNode {
  type: "text" | "object" | "timestamp";
  name?: string;
  value?: string | number;
  children?: W3cNode[];
}
export interface W3cResult {
  cues: Array<{ startTime: number; endTime: number; tree: { children: W3cNode[] } }>;
  errors: Array<{ message: string; line: number }>;
}
export const w3c = (text: string): W3cResult => new WebVTTParser(htmlEntities).parse(text);

/**
 * A W3C cue tree in the stored form: `<i> <b> <u>` kept (empty ones, ones inside the same style and the close and
 * reopen of one style dropped), every other node's text kept.
 */
export function stored(nodes: W3cNode[]): string {
  const walk = (n: W3cNode, styles: string[]): string => {
    if (n.type === "text") return String(n.value);
    if (n.type === "timestamp") return "";
    const name = n.name ?? "";
    const styled = ["i", "b", "u"].includes(name) && !styles.includes(name);
    const inner = (n.children ?? []).map((child) => walk(child, styled ? [...styles, name] : styles)).join("");
    return styled && inner ? `<${name}>${inner}</${name}>` : inner;
  };
  const lines = nodes
    .map((n) => walk(n, []))
    .join("")
    .replace(/<\/([ibu])><\1>/g, "")
    .split("\n");
  return lines
    .map((l) => l.trimEnd())
    .filter((l) => l.replace(/<\/?[ibu]>/g, "").trim() !== "")
    .join("\n");
}

/** The W3C parser's cues as `start end text` keys (milliseconds, stored form), sorted: it orders cues its own way. */
export const w3cCues = (text: string): string[] =>
  w3c(text)
    .cues.map((c) => `${Math.round(c.startTime * 1000)} ${Math.round(c.endTime * 1000)} ${stored(c.tree.children)}`)
    .sort();

/**
 * ass-compiler's Dialogue lines with text, as `[startMs, endMs, plain text]`: overrides dropped by the parser, `\N`
 * and `\n` read as line breaks and `\h` as a no-break space (docs/api.md, "Formats"), line ends trimmed.
 */
export function assDialogues(text: string): Array<[number, number, string]> {
  return parseAss(text)
    .events.dialogue.map((d): [number, number, string] => [
      Math.round(d.Start * 1000),
      Math.round(d.End * 1000),
      d.Text.combined
        .replace(/\\[Nn]/g, "\n")
        .replace(/\\h/g, "\u00a0")
        .split("\n")
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() !== "")
        .join("\n"),
    ])
    .filter(([, , t]) => t !== "");
}

interface IsdNode {
  kind: string;
  text?: string;
  contents?: IsdNode[];
}

/**
 * What imsc shows between the moments a TTML document changes: `[seconds, texts of the paragraphs shown]`, each text with
 * `<br/>` as a line break and every line trimmed, the texts sorted. Throws what imsc refuses (a time base IMSC does
 * not allow, such as smpte).
 */
export function imscScreens(text: string): { errors: string[]; screens: Array<[number, string[]]> } {
  const errors: string[] = [];
  const report = (m: string) => errors.push(m);
  const doc = fromXML(text, { warn: report, error: report, fatal: report, info: () => {} });
  if (!doc) return { errors, screens: [] };
  const screens: Array<[number, string[]]> = [];
  const events = doc.getMediaTimeEvents() as number[];
  for (let i = 0; i < events.length; i++) {
    // Halfway to the next change (a second after the last), away from a time's sub-millisecond rounding.
    const t = i + 1 < events.length ? (events[i] + events[i + 1]) / 2 : events[i] + 1;
    const shown: string[] = [];
    const walk = (n: IsdNode, into: { t: string } | null) => {
      if (n.kind === "p") {
        const p = { t: "" };
        for (const c of n.contents ?? []) walk(c, p);
        shown.push(lines(p.t));
      } else if (n.kind === "br") {
        if (into) into.t += "\n";
      } else if (n.kind === "span" && typeof n.text === "string") {
        if (into) into.t += n.text;
      } else for (const c of n.contents ?? []) walk(c, into);
    };
    for (const c of (generateISD(doc, t) as { contents: IsdNode[] }).contents) walk(c, null);
    screens.push([t, shown.filter((s) => s !== "").sort()]);
  }
  return { errors, screens };
}

/** Lines trimmed and blank ones dropped: white space at a line's ends is not shown. */
export const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("\n");
