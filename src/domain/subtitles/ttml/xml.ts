/**
 * The XML under a TTML reader: one left-to-right pass handing each element, with its line (which fast-xml-parser does
 * not give), to a sink as it opens and closes, so a refusal can name the cue and the line of its `<p>` and nothing
 * but the cue being read is held (a tree of 100,000 cues cost more in garbage collection than the reading). Only the five XML
 * entities and character references are expanded; a DOCTYPE is skipped unread, so nothing is ever fetched and no
 * entity grows. Tolerant where the cues stay unambiguous (a stray `<` or `&`, an unquoted attribute, an end tag
 * that closes what was left open); a `<p>` whose extent is unclear, or a tag that cannot be read, is refused.
 */
import { SubtitleError } from "../cue";
import { type Notes, expand } from "./entities";

/** The namespace of an attribute, as far as a TTML reader cares; prefixes resolved with their declarations in scope. */
export type NsKind = "none" | "xml" | "core" | "styling" | "parameter" | "metadata" | "other";

export interface XmlAttr {
  local: string;
  kind: NsKind;
  value: string;
}

export interface XmlElement {
  /** The name without its prefix: `tt:br` and `br` are the same element to players. */
  local: string;
  qname: string;
  attrs: XmlAttr[];
  line: number;
  /** 1-based position among the document's `<p>` outside `<head>` and `<metadata>`; 0 for every other element. */
  cue: number;
}

/** What the parser hands on, in document order. */
interface XmlSink {
  /** `hidden`: inside `<head>` or `<metadata>` (or one of them). */
  open(el: XmlElement, hidden: boolean): void;
  /** Also for an element closed by its parent's end tag, innermost first, and right after a self-closing one opens. */
  close(el: XmlElement): void;
  /** Character data inside a `<p>`, references expanded. */
  text(s: string): void;
}

const MAX_DEPTH = 256; // libxml2's default nesting limit: deeper documents are refused by players built on it
const MAX_PREFIXES = 64;
const CORE = new Set(["http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"]);
const CONVENTIONAL = new Map<string, NsKind>([
  ["tts", "styling"],
  ["ttp", "parameter"],
  ["ttm", "metadata"],
  ["tt", "core"],
]);
/** The attributes a TTML reader looks at, by local name; the others (positions, sizes, metadata) are not kept. */
const KEPT = new Set(
  "begin end dur timeContainer region style space id lang fontStyle fontWeight textDecoration color frameRate frameRateMultiplier subFrameRate tickRate".split(
    " ",
  ),
);

function kindOfUri(uri: string): NsKind {
  const hash = uri.indexOf("#");
  const fragment = hash < 0 ? "" : uri.slice(hash + 1);
  if (fragment === "styling" || fragment === "parameter" || fragment === "metadata") return fragment;
  return !fragment && CORE.has(uri.trim()) ? "core" : "other";
}

const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0xc0;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 0xb7;
const isXmlSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

interface Frame {
  el: XmlElement;
  scope: Map<string, NsKind>;
  hidden: boolean;
}

/** Reads `text` into `sink`; returns how many `<p>` it holds. */
export function parseXml(text: string, notes: Notes, sink: XmlSink): number {
  const n = text.length;
  const starts = [0];
  for (let k = 0; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === 10 || (c === 13 && text.charCodeAt(k + 1) !== 10)) starts.push(k + 1);
  }
  // Positions asked for mostly grow: a few steps on from the last answer, else a binary search.
  let lastLine = 0;
  const lineAt = (pos: number) => {
    for (let step = 0; step < 8 && lastLine + 1 < starts.length && starts[lastLine + 1] <= pos; step++) lastLine++;
    if (starts[lastLine] <= pos && (lastLine + 1 === starts.length || starts[lastLine + 1] > pos)) return lastLine + 1;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    lastLine = lo;
    return lo + 1;
  };
  notes.locate = lineAt;
  const root: XmlElement = { local: "#document", qname: "", attrs: [], line: 1, cue: 0 };
  const stack: Frame[] = [{ el: root, scope: new Map(), hidden: false }];
  let cues = 0;
  const openNames = new Map<string, number>();
  let openP: XmlElement | null = null;

  /** While the start tag of a `<p>` is read, its line: a broken tag is refused as the cue it starts. */
  let nextP = 0;
  const fail = (reason: string, pos: number): never => {
    const line = lineAt(pos);
    if (nextP && !openP) throw new SubtitleError(line === nextP ? reason : `${reason} (line ${line})`, cues + 1, nextP);
    if (openP) throw new SubtitleError(line === openP.line ? reason : `${reason} (line ${line})`, openP.cue, openP.line);
    throw new SubtitleError(cues ? `${reason} (after cue ${cues})` : reason, undefined, line);
  };

  const addText = (s: string, from: number, raw = false) => {
    if (openP && s) sink.text(expand(s, from, notes, raw));
  };

  const skipSpace = (k: number) => {
    while (k < n && isXmlSpace(text.charCodeAt(k))) k++;
    return k;
  };
  const nameEnd = (k: number) => {
    while (k < n && isNameChar(text.charCodeAt(k))) k++;
    return k;
  };

  const names: string[] = [];
  const values: string[] = [];
  const openTag = (at: number): number => {
    let j = nameEnd(at + 1);
    const qname = text.slice(at + 1, j);
    names.length = values.length = 0;
    nextP = (qname === "p" || qname.endsWith(":p")) && !stack[stack.length - 1].hidden ? lineAt(at) : 0;
    let selfClosing = false;
    for (;;) {
      const k = skipSpace(j);
      if (k >= n) fail(`the tag <${qname} never ends`, at);
      const c = text.charCodeAt(k);
      if (c === 62) {
        j = k + 1;
        break;
      }
      if (c === 47 && text.charCodeAt(k + 1) === 62) {
        selfClosing = true;
        j = k + 2;
        break;
      }
      if (!isNameStart(c)) fail(`unexpected ${c === 34 ? `'"'` : `"${text[k]}"`} in the tag <${qname}`, k);
      const e = nameEnd(k + 1);
      const name = text.slice(k, e);
      let v = skipSpace(e);
      if (text.charCodeAt(v) !== 61) {
        notes.at("attributes without a value read as empty", k);
        names.push(name);
        values.push("");
        j = v;
        continue;
      }
      v = skipSpace(v + 1);
      const q = text.charCodeAt(v);
      let end = v;
      if (q === 34 || q === 39) {
        end = v + 1;
        while (end < n && text.charCodeAt(end) !== q) {
          if (text.charCodeAt(end) === 60) break;
          end++;
        }
        if (end >= n || text.charCodeAt(end) !== q) fail(`the value of ${name} in the tag <${qname} has no closing quote`, v);
        names.push(name);
        values.push(expand(text.slice(v + 1, end), v + 1, notes));
        j = end + 1;
      } else {
        while (end < n) {
          const d = text.charCodeAt(end);
          if (isXmlSpace(d) || d === 62 || d === 60 || (d === 47 && text.charCodeAt(end + 1) === 62)) break;
          end++;
        }
        if (end === v) fail(`the attribute ${name} of the tag <${qname} has no value`, v);
        notes.at("attribute values without quotes read", v);
        names.push(name);
        values.push(expand(text.slice(v, end), v, notes));
        j = end;
      }
    }
    nextP = 0;
    const parent = stack[stack.length - 1];
    if (stack.length > MAX_DEPTH) fail(`elements nested more than ${MAX_DEPTH} deep`, at);
    let scope = parent.scope;
    for (let a = 0; a < names.length; a++) {
      if (!names[a].startsWith("xmlns:")) continue;
      if (scope === parent.scope) scope = new Map(scope);
      if (scope.size < MAX_PREFIXES) scope.set(names[a].slice(6), kindOfUri(values[a]));
    }
    const attrs: XmlAttr[] = [];
    for (let a = 0; a < names.length; a++) {
      const name = names[a];
      const value = values[a];
      const colon = name.indexOf(":");
      const local = colon < 0 ? name : name.slice(colon + 1);
      const prefix = colon < 0 ? "" : name.slice(0, colon);
      if (!KEPT.has(local) || prefix === "xmlns") continue;
      const kind = !prefix ? "none" : prefix === "xml" ? "xml" : (scope.get(prefix) ?? CONVENTIONAL.get(prefix) ?? "other");
      attrs.push({ local, kind, value });
    }
    const colon = qname.indexOf(":");
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    const line = lineAt(at);
    const el: XmlElement = { local, qname, attrs, line, cue: 0 };
    const hidden = parent.hidden || local === "head" || local === "metadata";
    if (local === "p" && !hidden) {
      if (openP) fail("a <p> starts inside this <p>: is its </p> missing?", at);
      el.cue = ++cues;
    }
    sink.open(el, hidden);
    if (selfClosing) sink.close(el);
    else {
      stack.push({ el, scope, hidden });
      openNames.set(qname, (openNames.get(qname) ?? 0) + 1);
      if (el.cue) openP = el;
    }
    return j;
  };

  const closeTag = (at: number): number => {
    const e = nameEnd(at + 2);
    const qname = text.slice(at + 2, e);
    const k = skipSpace(e);
    if (!qname || text.charCodeAt(k) !== 62) fail(`a malformed end tag </${qname}`, at);
    if (!openNames.get(qname)) {
      notes.at("end tags matching no open element ignored", at);
      return k + 1;
    }
    let depth = stack.length - 1;
    while (stack[depth].el.qname !== qname) depth--;
    for (let s = stack.length - 1; s >= depth; s--) {
      const el = stack[s].el;
      if (s > depth) {
        if (el === openP) fail(`this <p> has no </p> before </${qname}>`, at);
        notes.at("elements left open closed by the end tag of their parent", at);
      }
      if (el === openP) openP = null;
      openNames.set(el.qname, openNames.get(el.qname)! - 1);
      sink.close(el);
    }
    stack.length = depth;
    return k + 1;
  };

  /** `<!DOCTYPE …>` with any internal subset, skipped without reading a declaration. */
  const skipDoctype = (at: number): number => {
    let depth = 0;
    for (let k = at + 9; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === 34 || c === 39) {
        k = text.indexOf(text[k], k + 1);
        if (k < 0) break;
      } else if (c === 60 && text.startsWith("<!--", k)) {
        k = text.indexOf("-->", k + 4);
        if (k < 0) break;
      } else if (c === 91) depth++;
      else if (c === 93) depth--;
      else if (c === 62 && depth <= 0) return k + 1;
    }
    return fail("the DOCTYPE never ends", at);
  };

  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let textFrom = i;
  while (i < n) {
    const lt = text.indexOf("<", i);
    const c = lt < 0 ? -1 : text.charCodeAt(lt + 1);
    if (lt >= 0 && c !== 33 && c !== 63 && c !== 47 && !isNameStart(c)) {
      if (openP) notes.at(`a "<" that starts no tag kept as text`, lt);
      i = lt + 1;
      continue;
    }
    const stop = lt < 0 ? n : lt;
    if (stop > textFrom) addText(text.slice(textFrom, stop), textFrom);
    if (lt < 0) break;
    if (c === 33) {
      if (text.startsWith("<!--", lt)) {
        const end = text.indexOf("-->", lt + 4);
        if (end < 0) fail("a comment opened here never ends", lt);
        i = end + 3;
      } else if (text.startsWith("<![CDATA[", lt)) {
        const end = text.indexOf("]]>", lt + 9);
        if (end < 0) fail("a CDATA section opened here never ends", lt);
        addText(text.slice(lt + 9, end), lt + 9, true);
        i = end + 3;
      } else if (text.slice(lt + 2, lt + 9).toUpperCase() === "DOCTYPE") i = skipDoctype(lt);
      else i = fail(`"<!" that starts no comment, CDATA section or DOCTYPE`, lt);
    } else if (c === 63) {
      const end = text.indexOf("?>", lt + 2);
      if (end < 0) fail("a processing instruction <? never ends", lt);
      i = end + 2;
    } else if (c === 47) i = closeTag(lt);
    else i = openTag(lt);
    textFrom = i;
  }
  if (openP) fail("this <p> has no </p>: the file ends first", n);
  if (stack.length > 1) notes.at("the file ends before its elements are closed", n);
  for (let s = stack.length - 1; s > 0; s--) sink.close(stack[s].el);
  return cues;
}
