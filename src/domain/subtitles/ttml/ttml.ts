/**
 * TTML1 / DFXP (.ttml, .dfxp, .xml) read as a TTML1 reader shows it and written as a plain TTML1 document. Any
 * prefix or none, the 2006/04 and 2006/10 (TTAF) namespaces and the final one; times on `<p>` inherited from and
 * relative to `<div>` and `<body>` (par and seq time containment); clock times, frames, ticks and offsets; styling by
 * attributes, chained `<style>` references and regions, mapped to the SubRip tags stored text carries.
 */
import { xmlText } from "../../../lib/xml";
import { type Cue, type CueInput, type ReadOutcome, SubtitleError, clock } from "../cue";
import { boundedStyling, hexColor, parseMarkup, type MarkupToken } from "../markup";
import { Notes } from "./entities";
import { NO_SPEC, PLAIN, type Spec, type Style, apply, attr, over, preserves, styleSheet } from "./style";
import { NL, type Tok, pushText, storedText, transition } from "./text";
import { type TimeBase, parseTime, timeBase } from "./time";
import { type XmlElement, parseXml } from "./xml";

/** An open body, div or p: its interval (absolute ms; `end` undefined = indefinite), styles, region, white space. */
interface Ctx {
  begin: number;
  end: number | undefined;
  seq: boolean;
  /** In a seq container, where the next child's times count from: the end of the previous one. */
  cursor: number | undefined;
  spec: Spec;
  region: string | undefined;
  preserve: boolean;
  /** Timing an ancestor could not give, refused at the first `<p>` that needs it. */
  error: string | undefined;
}

/** An open element: outside a `<p>` the context it gives its children; inside, its computed style. */
interface Frame {
  ctx: Ctx;
  style: Style;
  preserve: boolean;
  /** `<set>` inside a `<p>`: its text is not shown. */
  mute: boolean;
}

export function readTtml(text: string): ReadOutcome {
  const notes = new Notes();
  const styles = styleSheet();
  const cues: Cue[] = [];
  let tb: TimeBase | undefined;
  let tt = false;
  let bodyLine: number | undefined;

  const time = (el: XmlElement, name: string): number | undefined | string => {
    const v = attr(el, name);
    if (v === undefined) return undefined;
    const ms = parseTime(v, (tb ??= timeBase(() => undefined)));
    if (ms !== null) return ms;
    const where = el.local === "p" ? "" : ` on the <${el.local}> of line ${el.line}`;
    return `${name}="${v.length > 40 ? `${v.slice(0, 40)}…` : v}"${where} is not a TTML time expression`;
  };

  /** An element's interval from its parent's: begin and end count from the parent's begin, or in seq from the cursor. */
  const timed = (el: XmlElement, parent: Ctx): Ctx => {
    const ref = parent.seq ? parent.cursor : parent.begin;
    const inner: Ctx = {
      begin: NaN,
      end: undefined,
      seq: attr(el, "timeContainer")?.trim() === "seq",
      cursor: undefined,
      spec: over(parent.spec, styles.specOf(el)),
      region: attr(el, "region")?.trim() || parent.region,
      preserve: preserves(el) ?? parent.preserve,
      error: parent.error,
    };
    const b = time(el, "begin");
    const e = time(el, "end");
    const d = time(el, "dur");
    inner.error ??= typeof b === "string" ? b : typeof e === "string" ? e : typeof d === "string" ? d : undefined;
    if (ref === undefined) inner.error ??= `the <${el.local}> of line ${el.line} follows an element with no end in a seq container`;
    if (inner.error) return inner;
    const begin = ref! + ((b as number | undefined) ?? 0);
    let end = e === undefined ? undefined : ref! + (e as number);
    if (d !== undefined) end = Math.min(end ?? Infinity, begin + (d as number));
    if (parent.end !== undefined && (end === undefined || (end > parent.end && begin < parent.end))) {
      if (end !== undefined) notes.add("cue ends cut to the end of the <div> or <body> holding them", el.line);
      end = parent.end;
    }
    inner.begin = inner.cursor = begin;
    inner.end = parent.cursor = end;
    return inner;
  };

  const root: Ctx = {
    begin: 0,
    end: undefined,
    seq: false,
    cursor: 0,
    spec: NO_SPEC,
    region: undefined,
    preserve: false,
    error: undefined,
  };
  const frames: Frame[] = [{ ctx: root, style: PLAIN, preserve: false, mute: false }];
  /** The `<p>` being read; `from` and `to` span the times of spans in it, used only when the `<p>` has no end. */
  let cue: { p: XmlElement; ctx: Ctx; toks: Tok[]; depth: number; from: number; to: number } | null = null;

  /** Times on an element inside a `<p>` (karaoke-like files): they count from the `<p>`'s begin. */
  const spanTimes = (el: XmlElement, into: NonNullable<typeof cue>) => {
    if (into.ctx.end !== undefined) return notes.add("times inside a <p> ignored (the text shows for the whole <p>)", el.line);
    const [b, e, d] = [time(el, "begin"), time(el, "end"), time(el, "dur")];
    if (typeof b === "string" || typeof e === "string" || typeof d === "string") return;
    const begin = into.ctx.begin + (b ?? 0);
    const end = e !== undefined ? into.ctx.begin + e : d !== undefined ? begin + d : undefined;
    into.from = Math.min(into.from, begin);
    if (end !== undefined) into.to = Math.max(into.to, end);
  };
  /** Open elements of `<head>` and of `<metadata>` (also inside a `<p>`): nothing in them is shown. */
  const hiddenDepth: XmlElement[] = [];

  const count = parseXml(text, notes, {
    open(el, hidden) {
      const parent = frames[frames.length - 1];
      if (hidden) {
        if (el.local === "style" || el.local === "region") styles.define(el, hiddenDepth[hiddenDepth.length - 1]);
        hiddenDepth.push(el);
        return;
      }
      if (cue) {
        const toks = cue.toks;
        if (el.local === "br" && toks[toks.length - 1] !== NL) toks.push(NL);
        const mute = parent.mute || el.local === "set";
        if (!mute && (attr(el, "begin") ?? attr(el, "end") ?? attr(el, "dur"))) spanTimes(el, cue);
        const style = mute ? parent.style : apply(parent.style, styles.specOf(el));
        const preserve = preserves(el) ?? parent.preserve;
        transition(parent.style, style, toks);
        frames.push(
          style === parent.style && preserve === parent.preserve && mute === parent.mute
            ? parent
            : { ctx: parent.ctx, style, preserve, mute },
        );
        return;
      }
      if (el.local === "tt" && !tt) {
        tt = true;
        tb ??= timeBase((name) => attr(el, name, ["parameter"]));
      }
      if (el.local === "body") bodyLine ??= el.line;
      if (el.local === "style" || el.local === "region") styles.define(el, undefined);
      if (el.local !== "body" && el.local !== "div" && el.local !== "p") {
        const space = preserves(el);
        const ctx = space === undefined ? parent.ctx : { ...parent.ctx, preserve: space };
        frames.push({ ctx, style: PLAIN, preserve: ctx.preserve, mute: false });
        return;
      }
      const ctx = timed(el, parent.ctx);
      if (el.local !== "p") {
        frames.push({ ctx, style: PLAIN, preserve: ctx.preserve, mute: false });
        return;
      }
      if (ctx.error) throw new SubtitleError(ctx.error, el.cue, el.line);
      const style = apply(apply(PLAIN, styles.region(ctx.region)), ctx.spec);
      cue = { p: el, ctx, toks: [], depth: frames.length, from: Infinity, to: -Infinity };
      transition(PLAIN, style, cue.toks);
      frames.push({ ctx, style, preserve: ctx.preserve, mute: false });
    },
    close(el) {
      if (hiddenDepth[hiddenDepth.length - 1] === el) {
        hiddenDepth.pop();
        return;
      }
      const frame = frames.pop()!;
      if (!cue) return;
      transition(frame.style, frames[frames.length - 1].style, cue.toks, true);
      if (frames.length > cue.depth) return;
      const { p, ctx, toks, from, to } = cue;
      let start = ctx.begin;
      let end = ctx.end;
      if (end === undefined && to > -Infinity) {
        notes.add("<p> elements with no end of their own timed by the spans in them", p.line);
        start = Math.max(start, from);
        end = to;
      }
      if (end === undefined)
        throw new SubtitleError("this <p> has no end: no end or dur on it, nor on a <div> or <body> around it", p.cue, p.line);
      cues.push({ index: p.cue, line: p.line, startMs: Math.round(start), endMs: Math.round(end), text: storedText(toks) });
      cue = null;
    },
    text(s) {
      const frame = frames[frames.length - 1];
      if (cue && !frame.mute && hiddenDepth.length === 0) pushText(cue.toks, s, frame.preserve);
    },
  });
  if (count === 0) {
    const why = tt ? "no <p> element" : "no <tt> element: this is not a TTML document";
    throw new SubtitleError(`the file holds no cues (${why})`, undefined, bodyLine ?? 1);
  }
  return { cues, notes: notes.list() };
}

const SPAN: Record<"b" | "i" | "u" | "s", string> = {
  b: 'tts:fontWeight="bold"',
  i: 'tts:fontStyle="italic"',
  u: 'tts:textDecoration="underline"',
  s: 'tts:textDecoration="lineThrough"',
};

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]);

/**
 * One `<p>`'s content: styling as nested spans, breaks as `<br/>`, SSA override blocks dropped, characters XML 1.0
 * forbids (most C0 controls, lone surrogates) dropped. `preserve` when default white-space handling would change the
 * text (leading or doubled spaces, tabs), so the document reads back as the stored text.
 */
function pContent(text: string): { body: string; preserve: boolean } {
  const tokens = parseMarkup(text, { balanced: true });
  return boundedStyling(text, (styled, budget) => pBody(tokens, styled, budget));
}

/** The `<p>` content of the tokens (without their spans unless `styled`); null once it passes `budget` characters. */
function pBody(tokens: MarkupToken[], styled: boolean, budget: number): { body: string; preserve: boolean } | null {
  let body = "";
  let plain = "";
  const spans: boolean[] = [];
  for (const t of tokens) {
    if (t.kind === "text") {
      const s = xmlText(t.text).replace(/\r/g, "");
      body += escapeXml(s);
      plain += s;
    } else if (t.kind === "newline") {
      body += "<br/>";
      plain += "\n";
    } else if (!styled) continue;
    else if (t.kind === "open") {
      const color = t.tag === "font" ? hexColor(t.color) : null;
      const style = t.tag === "font" ? (color ? `tts:color="#${color}"` : null) : SPAN[t.tag];
      spans.push(style !== null);
      if (style) body += `<span ${style}>`;
    } else if (t.kind === "close" && spans.pop()) body += "</span>";
    if (body.length > budget) return null;
  }
  const preserve = plain.split("\n").some((line) => /^ | $| {2}|\t/.test(line));
  return { body, preserve };
}

/** A TTML1 document: `<tt>` with the styling namespace, one `<div>`, a `<p>` per cue with `hh:mm:ss.mmm` times. */
export function writeTtml(cues: CueInput[], options: { language?: string } = {}): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="${escapeXml(xmlText(options.language ?? ""))}">`,
    "  <body>",
    "    <div>",
  ];
  for (const cue of cues) {
    const { body, preserve } = pContent(cue.text);
    const space = preserve ? ' xml:space="preserve"' : "";
    lines.push(`      <p begin="${clock(cue.startMs, ".")}" end="${clock(cue.endMs, ".")}"${space}>${body}</p>`);
  }
  lines.push("    </div>", "  </body>", "</tt>", "");
  return lines.join("\n");
}

/**
 * A bounded look at the start of a text: an XML declaration, comments, processing instructions or a DOCTYPE may come
 * first; then the first element must be `tt`, with any prefix.
 */
export function looksLikeTtml(text: string): boolean {
  const head = text.slice(0, 8192);
  let i = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < head.length && " \t\r\n".includes(head[i])) i++;
    const doctype = head.slice(i, i + 9).toUpperCase() === "<!DOCTYPE";
    const close = head.startsWith("<?", i) ? "?>" : head.startsWith("<!--", i) ? "-->" : doctype ? ">" : null;
    if (!close) break;
    let from = i + 2;
    const bracket = doctype ? head.indexOf("[", i) : -1;
    if (bracket >= 0 && bracket < head.indexOf(">", i)) from = head.indexOf("]", bracket);
    const end = from < 0 ? -1 : head.indexOf(close, from);
    if (end < 0) return false;
    i = end + close.length;
  }
  return /^<(?:[A-Za-z_][\w.-]*:)?tt[\s/>]/.test(head.slice(i, i + 100));
}
