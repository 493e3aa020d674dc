/**
 * The styling a stored cue text carries (cue.ts): SubRip's tags `<i>`, `<b>`, `<u>`, `<s>` and `<font color="…">`,
 * read in one left-to-right pass (no regular expression over the text). Writers of other formats walk these tokens:
 * each maps the styles it can carry and drops the rest cleanly. Anything else in angle brackets (`<true>`, `3 > 2`)
 * is literal text. A `{\…}` block is an SSA override that SubRip players honour (`{\an8}`): a token of its own, so
 * the SSA writer keeps it and the others drop it.
 */
import { SUBTITLE_LIMITS } from "./cue";

export type StyleTag = "i" | "b" | "u" | "s" | "font";

export type MarkupToken =
  | { kind: "text"; text: string }
  | { kind: "newline" }
  | { kind: "open"; tag: StyleTag; color?: string }
  | { kind: "close"; tag: StyleTag }
  | { kind: "override"; text: string };

const SIMPLE: Record<string, StyleTag> = { i: "i", b: "b", u: "u", s: "s" };

/** Tokens of a stored text; adjacent text is merged. `balanced`: every open tag closed, stray closes dropped, in nesting order. */
export function parseMarkup(text: string, options: { balanced?: boolean } = {}): MarkupToken[] {
  const tokens: MarkupToken[] = [];
  const pushText = (s: string) => {
    if (!s) return;
    const last = tokens[tokens.length - 1];
    if (last?.kind === "text") last.text += s;
    else tokens.push({ kind: "text", text: s });
  };
  let i = 0;
  let plain = 0;
  // Each search remembers what it found (or that nothing is left), so a text of many `<` or `{\` and no closing
  // character stays linear: a search never re-scans what an earlier one already passed.
  let nextClose = -2;
  let nextBrace = -2;
  let nextNewline = -2;
  const after = (found: number, ch: string, from: number) => (found === -1 || found >= from ? found : text.indexOf(ch, from));
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      pushText(text.slice(plain, i));
      tokens.push({ kind: "newline" });
      plain = ++i;
      continue;
    }
    if (c === "<") {
      nextClose = after(nextClose, ">", i + 1);
      const tag = nextClose < 0 || nextClose - i > MAX_TAG ? null : readTag(text.slice(i + 1, nextClose));
      if (tag) {
        pushText(text.slice(plain, i));
        tokens.push(tag);
        plain = i = nextClose + 1;
        continue;
      }
    } else if (c === "{" && text[i + 1] === "\\") {
      nextBrace = after(nextBrace, "}", i + 2);
      nextNewline = after(nextNewline, "\n", i + 2);
      if (nextBrace > 0 && (nextNewline < 0 || nextBrace < nextNewline)) {
        pushText(text.slice(plain, i));
        tokens.push({ kind: "override", text: text.slice(i, nextBrace + 1) });
        plain = i = nextBrace + 1;
        continue;
      }
    }
    i++;
  }
  pushText(text.slice(plain));
  return options.balanced ? balance(tokens) : tokens;
}

/** The longest tag read as one (`<font color="…" face="…">`); anything longer is text. */
const MAX_TAG = 200;

function readTag(inner: string): MarkupToken | null {
  if (inner.includes("<") || inner.includes("\n")) return null;
  const closing = inner.startsWith("/");
  const body = (closing ? inner.slice(1) : inner).trim();
  const space = body.search(/\s/);
  const name = (space < 0 ? body : body.slice(0, space)).toLowerCase();
  if (SIMPLE[name] && (closing || space < 0)) return closing ? { kind: "close", tag: SIMPLE[name] } : { kind: "open", tag: SIMPLE[name] };
  if (name !== "font") return null;
  if (closing) return { kind: "close", tag: "font" };
  const color = /color\s*=\s*["']?([#\w]+)/i.exec(body)?.[1];
  return color ? { kind: "open", tag: "font", color } : { kind: "open", tag: "font" };
}

type OpenToken = Extract<MarkupToken, { kind: "open" }>;

/**
 * Closes what is left open, drops closes with nothing to close, and re-opens tags closed out of order; a tag inside the
 * same tag (`<i>` in `<i>`) is not opened again, and at most SUBTITLE_LIMITS.openTags tags are open at once (deeper
 * opens are dropped as styling, their text kept). Each tag costs at most that many steps and tokens, so writing stays
 * linear and its size a bounded multiple of the text (docs/decisions.md, "Subtitle formats").
 */
function balance(tokens: MarkupToken[]): MarkupToken[] {
  const out: MarkupToken[] = [];
  /** The tags written and still open, outermost first: at most one of each simple style, fonts nested. */
  const open: OpenToken[] = [];
  /** Per style, each open tag of the text not yet closed, innermost last: whether it was written (else dropped). */
  const pending: Record<StyleTag, boolean[]> = { i: [], b: [], u: [], s: [], font: [] };
  const written: Record<StyleTag, number> = { i: 0, b: 0, u: 0, s: 0, font: 0 };
  for (const t of tokens) {
    if (t.kind === "open") {
      const write = (t.tag === "font" || written[t.tag] === 0) && open.length < SUBTITLE_LIMITS.openTags;
      pending[t.tag].push(write);
      if (write) {
        written[t.tag]++;
        open.push(t);
        out.push(t);
      }
    } else if (t.kind === "close") {
      // A close with nothing open is dropped; one whose open was dropped drops too.
      if (!pending[t.tag].pop()) continue;
      written[t.tag]--;
      // The innermost written tag of this style is the one closing (a simple style has only one written).
      let at = open.length - 1;
      while (open[at].tag !== t.tag) at--;
      for (let k = open.length - 1; k > at; k--) out.push({ kind: "close", tag: open[k].tag });
      out.push(t);
      for (let k = at + 1; k < open.length; k++) out.push(open[k]);
      open.splice(at, 1);
    } else out.push(t);
  }
  for (let k = open.length - 1; k >= 0; k--) out.push({ kind: "close", tag: open[k].tag });
  return out;
}

/**
 * A writer's form of a cue's stored text, with its styling unless that would pass SUBTITLE_LIMITS.outputPerChar
 * characters per character of the text (pathological nesting): then without it, the text kept. `write(styled, budget)`
 * gives up (null) as soon as what it has written passes `budget`, so a cue over it costs no more than one within it.
 * Every writer's text without styling is within the bound (its escapes are shorter), so a written file is a bounded
 * multiple of what is stored (docs/api.md, "Limits and retention").
 */
export function boundedStyling<T>(text: string, write: (styled: boolean, budget: number) => T | null): T {
  return write(true, SUBTITLE_LIMITS.outputPerChar * text.length) ?? write(false, Infinity)!;
}

/** The text without any styling or override blocks: lines joined by "\n". */
export function plainText(text: string): string {
  let out = "";
  for (const t of parseMarkup(text)) {
    if (t.kind === "text") out += t.text;
    else if (t.kind === "newline") out += "\n";
  }
  return out;
}

const NAMED: Record<string, string> = {
  black: "000000",
  silver: "c0c0c0",
  gray: "808080",
  grey: "808080",
  white: "ffffff",
  maroon: "800000",
  red: "ff0000",
  purple: "800080",
  fuchsia: "ff00ff",
  magenta: "ff00ff",
  green: "008000",
  lime: "00ff00",
  olive: "808000",
  yellow: "ffff00",
  navy: "000080",
  blue: "0000ff",
  teal: "008080",
  aqua: "00ffff",
  cyan: "00ffff",
  orange: "ffa500",
};

/** A font color as six lowercase hex digits (`#fff`, `#FFFFFF`, `ffffff`, `white`), or null when it names none. */
export function hexColor(color: string | undefined): string | null {
  if (!color) return null;
  const c = color.trim().toLowerCase().replace(/^#/, "");
  if (/^[0-9a-f]{6}$/.test(c)) return c;
  if (/^[0-9a-f]{3}$/.test(c)) return c[0] + c[0] + c[1] + c[1] + c[2] + c[2];
  return NAMED[c] ?? null;
}
