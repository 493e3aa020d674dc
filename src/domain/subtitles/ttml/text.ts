/**
 * A TTML cue's content as stored text (cue.ts): TTML styling mapped to the SubRip tags, `<br/>` and preserved line
 * feeds to line breaks, white space collapsed as TTML1's `xml:space="default"` does (XSL-FO's rules: runs of XML
 * white space become one space, and none starts or ends a line). The content is first walked into tokens that follow
 * the element nesting, then tidied so the stored text is balanced, has no empty tag pairs, no blank lines and no tag
 * left alone on a line.
 */
import { isBlank, splitLines, tidyText } from "../cue";
import type { StyleTag } from "../markup";
import type { Style } from "./style";

export type Tok =
  { k: "text"; s: string; pre: boolean } | { k: "nl" } | { k: "open"; tag: StyleTag; color?: string } | { k: "close"; tag: StyleTag };

/** The one line-break token (tokens of this kind are never changed). */
export const NL: Tok = { k: "nl" };

const FLAGS = ["b", "i", "u", "s"] as const;
const FLAGS_LEAVING = ["s", "u", "i", "b"] as const;

/** Tags from one style to another: entering opens outermost first (font, b, i, u, s), leaving closes in reverse. */
export function transition(from: Style, to: Style, out: Tok[], leaving = false): void {
  if (from === to) return;
  const font = from.font !== to.font;
  const fontTags = () => {
    if (from.font) out.push({ k: "close", tag: "font" });
    if (to.font) out.push({ k: "open", tag: "font", color: to.font });
  };
  if (font && !leaving) fontTags();
  for (const t of leaving ? FLAGS_LEAVING : FLAGS) if (from[t] !== to[t]) out.push(to[t] ? { k: "open", tag: t } : { k: "close", tag: t });
  if (font && leaving) fontTags();
}

/**
 * Text of the content; with `xml:space="preserve"` its line feeds (CR, LF, CRLF) are line breaks. A line of white
 * space only between two line feeds would be trimmed to nothing, so it is not kept, nor is a second break in a row.
 */
export function pushText(out: Tok[], s: string, pre: boolean): void {
  if (!pre) {
    out.push({ k: "text", s, pre });
    return;
  }
  let from = 0;
  let blank = true;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c !== 10 && c !== 13) {
      if (blank && !isXmlSpace(c)) blank = false;
      continue;
    }
    if (!blank || from === 0) out.push({ k: "text", s: s.slice(from, k), pre });
    if (out[out.length - 1] !== NL) out.push(NL);
    if (c === 13 && s.charCodeAt(k + 1) === 10) k++;
    from = k + 1;
    blank = true;
  }
  out.push({ k: "text", s: s.slice(from), pre });
}

/** The stored text of a cue's tokens. */
export function storedText(toks: Tok[]): string {
  const only = toks.length === 1 ? toks[0] : undefined;
  if (only?.k === "text" && !only.pre) {
    const line = collapseRun(only.s, true).trimEnd();
    return isBlank(line) ? "" : line;
  }
  let text = "";
  const tags = toks.some((t) => t.k === "open" || t.k === "close");
  for (const t of tags ? placeBreaks(dropEmpty(collapse(balance(toks)))) : collapse(toks)) {
    if (t.k === "text") text += t.s;
    else if (t.k === "nl") text += "\n";
    else if (t.k === "close") text += `</${t.tag}>`;
    else text += t.tag === "font" ? `<font color="#${t.color}">` : `<${t.tag}>`;
  }
  return tidyText(splitLines(text));
}

/** A style turned off inside another (`fontWeight="normal"` in bold) closes tags opened after it: close and re-open them. */
function balance(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  const open: Array<Extract<Tok, { k: "open" }>> = [];
  for (const t of toks) {
    if (t.k === "open") open.push(t);
    if (t.k !== "close") {
      out.push(t);
      continue;
    }
    const at = open.map((o) => o.tag).lastIndexOf(t.tag);
    if (at < 0) continue;
    const reopen = open.splice(at + 1);
    for (let k = reopen.length - 1; k >= 0; k--) out.push({ k: "close", tag: reopen[k].tag });
    out.push(t);
    open.pop();
    open.push(...reopen);
    out.push(...reopen);
  }
  for (let k = open.length - 1; k >= 0; k--) out.push({ k: "close", tag: open[k].tag });
  return out;
}

const isXmlSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** Runs of XML white space as one space, none at the start when `lastSpace` (the line so far ends in one or is empty). */
function collapseRun(s: string, lastSpace: boolean): string {
  let out = "";
  let from = 0;
  for (let q = 0; q < s.length;) {
    if (!isXmlSpace(s.charCodeAt(q))) {
      lastSpace = false;
      q++;
      continue;
    }
    let r = q + 1;
    while (r < s.length && isXmlSpace(s.charCodeAt(r))) r++;
    if (lastSpace || r - q > 1 || s.charCodeAt(q) !== 32) {
      out += s.slice(from, q) + (lastSpace ? "" : " ");
      from = r;
    }
    lastSpace = true;
    q = r;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Per line: default white space collapsed (across tags) and dropped at the line's start; trailing space always dropped. */
function collapse(toks: Tok[]): Tok[] {
  let lineStart = 0;
  for (let k = 0; k <= toks.length; k++) {
    if (k < toks.length && toks[k].k !== "nl") continue;
    let lastSpace = true;
    for (let j = lineStart; j < k; j++) {
      const t = toks[j];
      if (t.k !== "text") continue;
      if (t.pre) {
        if (t.s) lastSpace = isXmlSpace(t.s.charCodeAt(t.s.length - 1));
        continue;
      }
      t.s = collapseRun(t.s, lastSpace);
      if (t.s) lastSpace = t.s.charCodeAt(t.s.length - 1) === 32;
    }
    for (let j = k - 1; j >= lineStart; j--) {
      const t = toks[j];
      if (t.k !== "text") continue;
      t.s = t.s.trimEnd();
      if (t.s) break;
    }
    lineStart = k + 1;
  }
  return toks;
}

/** Empty text, repeated breaks and tag pairs around nothing (or only a break) dropped. */
function dropEmpty(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (const t of toks) {
    if (t.k === "text" && !t.s) continue;
    if (t.k === "nl" && out[out.length - 1]?.k === "nl") continue;
    if (t.k === "close") {
      let k = out.length - 1;
      if (out[k]?.k === "nl") k--;
      const o = out[k];
      if (o?.k === "open" && o.tag === t.tag) {
        out.splice(k, 1);
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

/**
 * A break is kept only between two lines with text (stored text has no blank line); closing tags after it move before
 * it and opening tags before it move after it, so no line holds only a tag.
 */
function placeBreaks(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  let held: Tok[] = [];
  let pending = false;
  let textInLine = false;
  for (const t of toks) {
    if (t.k === "nl") {
      if (textInLine) pending = true;
      textInLine = false;
    } else if (t.k === "text" && !isBlank(t.s)) {
      if (pending) {
        const opens: Tok[] = [];
        while (out[out.length - 1]?.k === "open") opens.unshift(out.pop()!);
        out.push(...held.filter((h) => h.k === "close"), NL, ...opens, ...held.filter((h) => h.k !== "close"));
        held = [];
        pending = false;
      }
      out.push(t);
      textInLine = true;
    } else if (pending) held.push(t);
    else out.push(t);
  }
  return out.concat(held);
}
