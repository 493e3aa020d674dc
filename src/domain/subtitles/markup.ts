/**
 * The styling a stored cue text carries (cue.ts): SubRip's tags `<i>`, `<b>`, `<u>`, `<s>` and `<font color="…">`,
 * read in one left-to-right pass (no regular expression over the text). Writers of other formats walk these tokens:
 * each maps the styles it can carry and drops the rest cleanly. Anything else in angle brackets (`<true>`, `3 > 2`)
 * is literal text. A `{\…}` block is an SSA override that SubRip players honour (`{\an8}`): a token of its own, so
 * the SSA writer keeps it and the others drop it.
 */
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

/** Closes what is left open, drops closes with nothing to close, and re-opens tags closed out of order. */
function balance(tokens: MarkupToken[]): MarkupToken[] {
  const out: MarkupToken[] = [];
  const open: Array<Extract<MarkupToken, { kind: "open" }>> = [];
  for (const t of tokens) {
    if (t.kind === "open") {
      open.push(t);
      out.push(t);
    } else if (t.kind === "close") {
      const at = open.map((o) => o.tag).lastIndexOf(t.tag);
      if (at < 0) continue;
      const reopen = open.splice(at + 1);
      for (let k = reopen.length - 1; k >= 0; k--) out.push({ kind: "close", tag: reopen[k].tag });
      out.push(t);
      open.pop();
      for (const r of reopen) {
        out.push(r);
        open.push(r);
      }
    } else out.push(t);
  }
  for (let k = open.length - 1; k >= 0; k--) out.push({ kind: "close", tag: open[k].tag });
  return out;
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
