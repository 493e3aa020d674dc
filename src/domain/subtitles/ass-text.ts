/**
 * The text field of an SSA/ASS Dialogue line to and from the stored form (cue.ts). Override blocks `{…}` are read
 * in one pass: italic, bold, underline, strike-out and the primary colour become SubRip tags, `\r` resets to a style,
 * everything else (positions, karaoke, fades, drawings and their vector text) is dropped whole.
 */
import { boundedStyling, hexColor, parseMarkup, type MarkupToken } from "./markup";

/** What a style sets that the stored form can carry. Bold is left out: SSA scripts set it on whole styles for looks. */
export interface StyleLook {
  i: boolean;
  u: boolean;
  s: boolean;
}

interface AssTextRead {
  /** Lines of stored text, blank ones already dropped, tags balanced across them. */
  lines: string[];
  soft: boolean;
  drawing: boolean;
  colour: boolean;
  /** Names of the override tags dropped, e.g. `\pos`. */
  dropped: string[];
}

type Simple = "b" | "i" | "u" | "s";
type Open = { tag: Simple } | { tag: "font"; color: string };
interface Want extends StyleLook {
  b: boolean;
  color: string | null;
}

// Names of the tags dropped, longest first, to name `\fnArial` as `\fn` in a note.
const KNOWN =
  "alpha an a blur be bord clip iclip fade fad fax fay fe fn frx fry frz fr fscx fscy fsp fs kf ko k K move org pos pbo p q shad t xbord ybord xshad yshad".split(
    " ",
  );
const OPEN = { b: "<b>", i: "<i>", u: "<u>", s: "<s>" };
const CLOSE = { b: "</b>", i: "</i>", u: "</u>", s: "</s>", font: "</font>" };
const SIMPLE_ORDER: Simple[] = ["b", "i", "u", "s"];

const isSpace = (c: number) => c === 32 || c === 9;

/** `&HBBGGRR&` (or `&HAABBGGRR&`, or fewer digits) to six lower-case hex digits `rrggbb`, or null. */
function assColor(arg: string): string | null {
  const m = /^&?[hH]?([0-9a-fA-F]{1,8})&?$/.exec(arg.trim().slice(0, 14));
  if (!m) return null;
  const bgr = m[1].padStart(8, "0").slice(-6).toLowerCase();
  return bgr.slice(4, 6) + bgr.slice(2, 4) + bgr.slice(0, 2);
}

export function assTextToStored(raw: string, style: StyleLook, lookStyle: (name: string) => StyleLook): AssTextRead {
  const want: Want = { ...style, b: false, color: null };
  const open: Open[] = [];
  const lines: string[] = [];
  const dropped = new Set<string>();
  const result = { lines, soft: false, drawing: false, colour: false, dropped: [] as string[] };
  // Parts of the current line, joined once at its end (appending to one string builds a deep rope on long lines).
  let cur: string[] = [];
  let visible = false;
  let pending: string[] = [];
  let drawing = false;

  const wanted = (o: Open) => (o.tag === "font" ? want.color === o.color : want[o.tag]);
  const closeUnwanted = () => {
    let k = 0;
    while (k < open.length && wanted(open[k])) k++;
    while (open.length > k) close();
  };
  const isOpen = { b: false, i: false, u: false, s: false, font: false };
  const close = () => {
    const tag = open.pop()!.tag;
    isOpen[tag] = false;
    // Tags open only before shown text, so one still open on a line with nothing shown yet closes the line before.
    if (visible || lines.length === 0) cur.push(CLOSE[tag]);
    else lines[lines.length - 1] += CLOSE[tag];
  };
  /** Text of `raw` from `from` to `to` with no line break inside; spaces at either end of a line are not shown (libass trims them). */
  const emit = (from: number, to: number) => {
    if (drawing) return;
    // Spaces go outside the tags they border, and are dropped at the start of a line.
    let start = from;
    while (start < to && isSpace(raw.charCodeAt(start))) start++;
    if (visible && start > from) pending.push(raw.slice(from, start));
    from = start;
    let end = to;
    while (end > from && isSpace(raw.charCodeAt(end - 1))) end--;
    if (end > from) {
      closeUnwanted();
      if (pending.length > 0) cur.push(pending.join(""));
      pending = [];
      for (const tag of SIMPLE_ORDER)
        if (want[tag] && !isOpen[tag]) {
          cur.push(OPEN[tag]);
          open.push({ tag });
          isOpen[tag] = true;
        }
      if (want.color && !isOpen.font) {
        cur.push(`<font color="#${want.color}">`);
        open.push({ tag: "font", color: want.color });
        isOpen.font = true;
      }
      cur.push(raw.slice(from, end));
      visible = true;
    }
    if (visible && end < to) pending.push(raw.slice(end, to));
  };
  /** A hard space (\h) is shown even at the start of a line. */
  const hardSpace = () => {
    if (!drawing) pending.push("\u00a0");
  };
  const newline = () => {
    if (drawing) return;
    closeUnwanted();
    if (visible) lines.push(cur.join(""));
    cur = [];
    pending = [];
    visible = false;
  };
  const reset = (look: StyleLook) => Object.assign(want, look, { b: false, color: null });

  /** `\i1`, `\b700`, `\s` (no value: back to the style's) between `from` and `to`, read without slicing; false if not one. */
  const applySimple = (from: number, to: number): boolean => {
    const name = raw[from];
    while (to > from && isSpace(raw.charCodeAt(to - 1))) to--;
    if ((name !== "i" && name !== "b" && name !== "u" && name !== "s") || to - from > 9) return false;
    let value = -1;
    let k = from + 1;
    while (k < to && isSpace(raw.charCodeAt(k))) k++;
    for (; k < to; k++) {
      const d = raw.charCodeAt(k) - 48;
      if (d < 0 || d > 9) return false;
      value = (value < 0 ? 0 : value * 10) + d;
    }
    if (value < 0) want[name] = name === "b" ? false : style[name];
    else want[name] = name === "b" ? value === 1 || value >= 600 : value !== 0;
    return true;
  };
  const applyTag = (tok: string) => {
    const m = /^(\d?)([a-zA-Z]+)/.exec(tok.slice(0, 12));
    if (!m) return;
    const name = m[2];
    const arg = tok.slice(m[0].length).trim();
    if (name === "c" && (m[1] === "" || m[1] === "1")) {
      want.color = assColor(arg);
      if (want.color) result.colour = true;
    } else if (m[1] === "" && name[0] === "r") {
      const named = tok.slice(1).trim();
      reset(named ? lookStyle(named) : style);
    } else if (m[1] === "" && name === "p" && /^\d{1,8}$/.test(arg)) {
      drawing = Number(arg) > 0;
      if (drawing) result.drawing = true;
    } else if (dropped.size < 8) dropped.add(`\\${m[1]}${KNOWN.find((k) => name.startsWith(k)) ?? name.slice(0, 6)}`);
  };
  const applyBlock = (from: number, to: number) => {
    let p = from;
    while (p < to && raw[p] !== "\\") p++;
    if (p === to) {
      if (to > from && dropped.size < 8) dropped.add("{comment}");
      return;
    }
    while (p < to) {
      // A tag runs to the next backslash outside parentheses, so `\t(…\i1…)` and `\clip(…)` stay one tag.
      let q = p + 1;
      let depth = 0;
      for (; q < to; q++) {
        const c = raw[q];
        if (c === "(") depth++;
        else if (c === ")") depth = Math.max(0, depth - 1);
        else if (c === "\\" && depth === 0) break;
      }
      if (!applySimple(p + 1, q)) applyTag(raw.slice(p + 1, q));
      p = q;
    }
  };

  let nextClose = raw.indexOf("}");
  let i = 0;
  let run = 0;
  const flush = (to: number) => {
    if (to > run) emit(run, to);
  };
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === 123 /* { */) {
      if (nextClose >= 0 && nextClose < i) nextClose = raw.indexOf("}", i);
      if (nextClose > i) {
        flush(i);
        applyBlock(i + 1, nextClose);
        i = run = nextClose + 1;
        continue;
      }
    } else if (c === 92 /* \ */) {
      const d = raw[i + 1];
      if (d === "N" || d === "n" || d === "h") {
        flush(i);
        if (d === "h") hardSpace();
        else {
          if (d === "n") result.soft = true;
          newline();
        }
        i = run = i + 2;
        continue;
      }
    }
    i++;
  }
  flush(raw.length);
  closeUnwanted();
  while (open.length > 0) close();
  if (visible) lines.push(cur.join(""));
  result.dropped = [...dropped];
  return result;
}

/** `BBGGRR` for `\c&H…&`. */
function bgr(hex: string): string {
  return (hex.slice(4, 6) + hex.slice(2, 4) + hex.slice(0, 2)).toUpperCase();
}

/**
 * Stored text to a Dialogue text field. ASS has no escape: a literal `{` or `}` is written as its fullwidth form
 * (`{…}` would hide the text), and a backslash before N, n or h as a fullwidth backslash (it would break the line).
 */
export function storedToAssText(text: string): string {
  const tokens = parseMarkup(text.replace(/\r/g, ""), { balanced: true });
  return boundedStyling(text, (styled, budget) => assText(tokens, styled, budget));
}

/** The Dialogue text of the tokens (without their tags unless `styled`); null once it passes `budget` characters. */
function assText(tokens: MarkupToken[], styled: boolean, budget: number): string | null {
  // Pieces joined once: appending to one string builds a rope as deep as the cue has tokens.
  const out: string[] = [];
  let size = 0;
  const put = (s: string) => {
    out.push(s);
    size += s.length;
  };
  // Per open font: its colour (null: none) and the colour in force inside it, so a close finds the outer one at once.
  const colors: Array<{ own: string | null; inForce: string | null }> = [];
  for (const t of tokens) {
    if (t.kind === "text") put(t.text.replace(UNWRITABLE, (b) => (b === "{" ? "\uff5b" : b === "}" ? "\uff5d" : "\uff3c")));
    else if (t.kind === "newline") put("\\N");
    else if (t.kind === "override") put(t.text);
    else if (!styled) continue;
    else if (t.tag === "font") {
      if (t.kind === "open") {
        const hex = hexColor(t.color);
        colors.push({ own: hex, inForce: hex ?? colors[colors.length - 1]?.inForce ?? null });
        if (hex) put(`{\\c&H${bgr(hex)}&}`);
      } else if (colors.pop()?.own) {
        const outer = colors[colors.length - 1]?.inForce;
        put(outer ? `{\\c&H${bgr(outer)}&}` : "{\\c}");
      }
    } else put(ASS_TAGS[t.kind][t.tag]);
    if (size > budget) return null;
  }
  return out.join("");
}

const ASS_TAGS = {
  open: { i: "{\\i1}", b: "{\\b1}", u: "{\\u1}", s: "{\\s1}" },
  close: { i: "{\\i0}", b: "{\\b0}", u: "{\\u0}", s: "{\\s0}" },
};

/** What ASS would read as markup in text: braces, and a backslash before N, n or h. */
const UNWRITABLE = /[{}]|\\(?=[Nnh])/g;
