/**
 * WebVTT cue text to the stored form, by the spec's cue text tokenizer and tree rules
 * (https://www.w3.org/TR/webvtt1/#cue-text-parsing-rules), in one pass with a stack of open nodes instead of a tree.
 */
import { isBlank, tidyText } from "./cue";

/** What a reader drops from cue text, counted per cue (voices, dropped) or per reference (entities). */
export interface TextStats {
  voices: number;
  dropped: number;
  entities: number;
}

const STYLED = new Set(["i", "b", "u"]);
/** Nodes that keep their text only: class, voice, language and ruby spans. */
const KNOWN = new Set(["c", "i", "b", "u", "ruby", "rt", "v", "lang"]);

const OPEN: Record<string, string> = { i: "<i>", b: "<b>", u: "<u>" };
const CLOSE: Record<string, string> = { i: "</i>", b: "</b>", u: "</u>" };

/**
 * The stored text of one cue's text (lines joined by "\n"). Only the current node is ever closed, so the `<i> <b> <u>`
 * written nest as the WebVTT tree does: `<i>a<b>b</i>c</b>` stays bold and italic to the end, as in a browser. A
 * tag is written only once text follows it, so an empty span leaves nothing behind, and a style inside the same
 * style (`<i>a<i>b</i></i>`) is not written again, nor one reopened right after its close. Text waits in `pending`
 * until a written tag needs it placed, and pieces are joined once per line: 2 MiB of nested or alternating tags
 * stays linear and light on garbage.
 */
export function decodeCueText(raw: string, stats: TextStats): string {
  // Most cue text is plain: nothing to decode, and a blank line carries no tag to keep.
  if (raw.indexOf("<") < 0 && raw.indexOf("&") < 0) return tidyText(raw.split("\n"));
  // Finished lines; a line with nothing visible (white space, bare tags) gives its tags to its neighbour instead.
  const out: string[] = [];
  let lead = "";
  const parts: string[] = [];
  let visible = false;
  const endLine = () => {
    if (visible) {
      out.push(lead + (parts.length === 1 ? parts[0] : parts.join("")));
      lead = "";
    } else {
      // Its text is white space, so its tags are the parts starting with "<".
      const tags = parts.filter((part) => part[0] === "<").join("");
      if (out.length > 0) out[out.length - 1] += tags;
      else lead += tags;
    }
    parts.length = 0;
    visible = false;
  };
  // The open nodes, whether each writes a tag, and how many of each style are open.
  const open: string[] = [];
  const writes: boolean[] = [];
  const depth: Record<string, number> = { i: 0, b: 0, u: 0 };
  let shown = 0;
  let justClosed = "";
  let pending: string[] = [];
  let voice = false;
  let dropped = false;
  const flush = () => {
    if (pending.length === 0) return;
    for (; shown < open.length; shown++) {
      if (!writes[shown]) continue;
      // `<i>a</i><i>b` is `<i>ab`: reopening the style just closed only takes its close back.
      if (justClosed === open[shown]) parts.pop();
      else parts.push(OPEN[open[shown]]);
      justClosed = "";
    }
    justClosed = "";
    const text = pending.length === 1 ? pending[0] : pending.join("");
    pending = [];
    let from = 0;
    for (let nl = text.indexOf("\n"); ; nl = text.indexOf("\n", from)) {
      const part = nl < 0 ? (from === 0 ? text : text.slice(from)) : text.slice(from, nl);
      parts.push(part);
      if (!visible && !isBlank(part)) visible = true;
      if (nl < 0) break;
      endLine();
      from = nl + 1;
    }
  };
  const push = (name: string) => {
    const styled = STYLED.has(name);
    const write = styled && depth[name] === 0;
    if (write) flush();
    if (styled) depth[name]++;
    open.push(name);
    writes.push(write);
  };
  const close = () => {
    if (writes[writes.length - 1]) flush();
    const write = writes.pop() as boolean;
    const name = open.pop() as string;
    if (STYLED.has(name)) depth[name]--;
    if (shown <= open.length) return;
    shown = open.length;
    if (!write) return;
    parts.push(CLOSE[name]);
    justClosed = name;
  };
  let p = 0;
  let from = 0;
  while (p < raw.length) {
    const c = raw.charCodeAt(p);
    if (c !== 0x26 && c !== 0x3c) {
      p++;
      continue;
    }
    if (c === 0x26) {
      const end = characterReference(raw, p);
      // A bare "&" stays in the run of plain text.
      if (end === p + 1 && reference.text === "&") {
        if (!reference.known) stats.entities++;
        p++;
        continue;
      }
      if (p > from) pending.push(raw.slice(from, p));
      pending.push(reference.text);
      p = from = end;
      continue;
    }
    if (p > from) pending.push(raw.slice(from, p));
    // A tag runs to the next ">" or the end of the cue text, whatever it holds (that is the tokenizer's reading).
    const gt = raw.indexOf(">", p + 1);
    const end = gt < 0 ? raw.length : gt;
    const top = open[open.length - 1];
    if (raw[p + 1] === "/") {
      const length = end - p - 2;
      if (top !== undefined && length === top.length && raw.startsWith(top, p + 2)) close();
      else if (top === "rt" && length === 4 && raw.startsWith("ruby", p + 2)) {
        close();
        close();
      }
    } else {
      const name = tagName(raw, p + 1, end);
      if (name === "rt" ? top === "ruby" : KNOWN.has(name)) {
        push(name);
        if (name === "v") voice = true;
        else if (!STYLED.has(name)) dropped = true;
      } else dropped = true;
    }
    p = from = gt < 0 ? raw.length : gt + 1;
  }
  if (p > from) pending.push(raw.slice(from, p));
  flush();
  while (open.length > 0) close();
  endLine();
  if (voice) stats.voices++;
  if (dropped) stats.dropped++;
  return tidyText(out);
}

/** A start tag's name, in raw[start, end): up to white space or "."; "" for `<.x>`, `< x>` and timestamps; "?" if long. */
function tagName(raw: string, start: number, end: number): string {
  if (start === end || (raw[start] >= "0" && raw[start] <= "9")) return "";
  let e = start;
  while (e < end && e - start <= 4 && !" \t\n\f.".includes(raw[e])) e++;
  return e - start > 4 ? "?" : raw.slice(start, e);
}

/** HTML's named references beyond the six WebVTT had first: Latin-1 (U+00A0 on, in code point order) and punctuation. */
const LATIN1 = [
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr",
  "deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest",
  "Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml",
  "ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig",
  "agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml",
  "eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml",
].flatMap((row) => row.split(" "));
const NAMED = new Map<string, string>([
  ...LATIN1.map((name, k): [string, string] => [name, String.fromCharCode(0xa0 + k)]),
  ...Object.entries({
    amp: "&",
    lt: "<",
    gt: ">",
    quot: '"',
    apos: "'",
    AMP: "&",
    LT: "<",
    GT: ">",
    QUOT: '"',
    COPY: "©",
    REG: "®",
    lrm: "\u200e",
    rlm: "\u200f",
    zwnj: "\u200c",
    zwj: "\u200d",
    ensp: "\u2002",
    emsp: "\u2003",
    thinsp: "\u2009",
    ndash: "–",
    mdash: "—",
    lsquo: "‘",
    rsquo: "’",
    sbquo: "‚",
    ldquo: "“",
    rdquo: "”",
    bdquo: "„",
    hellip: "…",
    bull: "•",
    dagger: "†",
    Dagger: "‡",
    permil: "‰",
    lsaquo: "‹",
    rsaquo: "›",
    euro: "€",
    trade: "™",
    OElig: "Œ",
    oelig: "œ",
    Scaron: "Š",
    scaron: "š",
    Yuml: "Ÿ",
    fnof: "ƒ",
    circ: "ˆ",
    tilde: "˜",
  }),
]);

/** The names HTML also reads without a ";". */
const LEGACY = new Set([...LATIN1, "amp", "lt", "gt", "quot", "AMP", "LT", "GT", "QUOT", "COPY", "REG"]);

/** HTML's reading of `&#128;`-`&#159;`: windows-1252, which is what such references meant when written. */
const C1 = "€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ";

/** The last reference read: its text and whether it was understood (a bare "&" is; `&bogus;` is not). */
const reference = { text: "", known: true };

/** Reads the reference at `p` (an "&") into `reference`; returns the position after it. */
function characterReference(s: string, p: number): number {
  let q = p + 1;
  if (s[q] === "#") {
    const hex = s[q + 1] === "x" || s[q + 1] === "X";
    q += hex ? 2 : 1;
    let value = 0;
    const start = q;
    for (; q < s.length; q++) {
      const d = hex ? parseInt(s[q], 16) : s[q] >= "0" && s[q] <= "9" ? Number(s[q]) : NaN;
      if (Number.isNaN(d)) break;
      value = Math.min(value * (hex ? 16 : 10) + d, 0x110000);
    }
    if (q === start) return found("&", p + 1, true);
    if (s[q] === ";") q++;
    if (value >= 0x80 && value <= 0x9f) return found(C1[value - 0x80], q, true);
    const bad = value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff);
    return found(bad ? "\uFFFD" : String.fromCodePoint(value), q, true);
  }
  // The longest HTML name has 31 characters: a longer run cannot be a reference.
  while (q < s.length && q - p <= 32 && isAlphanumeric(s.charCodeAt(q))) q++;
  const name = s.slice(p + 1, q);
  if (s[q] === ";") {
    // A full name this table lacks stays as written: its Latin-1 prefix would misread it ("&notin;" is not "¬in;").
    const full = NAMED.get(name);
    return full === undefined ? found("&", p + 1, name === "") : found(full, q + 1, true);
  }
  // As in HTML text, the old Latin-1 names also count without ";", as the longest such prefix ("&copy 2024", "&notit").
  for (let k = Math.min(name.length, 6); k >= 2; k--) {
    const legacy = LEGACY.has(name.slice(0, k)) ? NAMED.get(name.slice(0, k)) : undefined;
    if (legacy !== undefined) return found(legacy, p + 1 + k, true);
  }
  return found("&", p + 1, true);
}

function found(text: string, end: number, known: boolean): number {
  reference.text = text;
  reference.known = known;
  return end;
}

function isAlphanumeric(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
