/**
 * Bytes of an uploaded subtitle file to text. Decides in this order and never guesses silently: a byte order mark;
 * strict UTF-8; the encoding the client names (`encoding=`); a legacy code page suggested by the import's language,
 * cross-checked by chardet's statistical ranking; chardet alone when it is confident. Every legacy answer must also
 * read as text of the expected script (see `readsAs`), so a wrong code page is refused rather than stored as mojibake.
 */
import { analyse } from "chardet";
import { SubtitleError } from "./cue";
import { expectedFor, family, languageName, lookupLanguage, normalizeEncodingLabel, readsAs, within, type Expect } from "./decode-scripts";

export { LANGUAGE_ENCODINGS, SUPPORTED_ENCODINGS, normalizeEncodingLabel } from "./decode-scripts";

export interface Decoded {
  /** The text, byte order mark removed. */
  text: string;
  /** WHATWG name as TextDecoder reports it, or "utf-32le"/"utf-32be" (decoded here: workerd has no UTF-32). */
  encoding: string;
  source: "bom" | "utf-8" | "parameter" | "language" | "detector";
  /** One sentence for the job result: why this encoding. */
  reason: string;
  detector?: { encoding: string; confidence: number };
}

// ---- Decoders ----

const MULTI_BYTE = new Set(["utf-8", "utf-16le", "utf-16be", "euc-kr", "shift_jis", "euc-jp", "iso-2022-jp", "gb18030", "gbk", "big5"]);

/** Strict decode (an invalid sequence or, in a single-byte page, an unmapped byte fails), or null. */
function strict(bytes: Uint8Array, encoding: string, fatal = true): string | null {
  try {
    const text = new TextDecoder(encoding, { fatal, ignoreBOM: true }).decode(bytes);
    // windows-1258 stores most Vietnamese letters as base + combining tone mark: stored text is composed.
    return encoding === "windows-1258" ? text.normalize("NFC") : text;
  } catch {
    return null;
  }
}

const SEND = "send UTF-8 or name the encoding with encoding=";
const hex = (n: number, width = 2) => `0x${n.toString(16).toUpperCase().padStart(width, "0")}`;

/** workerd's TextDecoder has no UTF-32: decoded here, refusing what is not a Unicode code point. */
function utf32(bytes: Uint8Array, littleEndian: boolean, start: number, how: string): string {
  const name = `UTF-32 ${littleEndian ? "LE" : "BE"}`;
  if (bytes.length % 4 !== 0)
    throw new SubtitleError(`${how} ${name}, but its length (${bytes.length} bytes) is not a multiple of 4; ${SEND}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const units = new Uint16Array(bytes.length / 2);
  let n = 0;
  for (let i = start; i < bytes.length; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff || within(cp, 0xd800, 0xdfff))
      throw new SubtitleError(`${how} ${name}, but it holds ${hex(cp, 8)} at byte offset ${i}, which is not a Unicode code point; ${SEND}`);
    if (cp < 0x10000) units[n++] = cp;
    else {
      units[n++] = 0xd800 + ((cp - 0x10000) >> 10);
      units[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    }
  }
  const parts: string[] = [];
  for (let k = 0; k < n; k += 8192) parts.push(String.fromCharCode(...units.subarray(k, Math.min(n, k + 8192))));
  return parts.join("");
}

function utf16(bytes: Uint8Array, encoding: "utf-16le" | "utf-16be", how: string): string {
  const name = encoding === "utf-16le" ? "UTF-16 LE" : "UTF-16 BE";
  if (bytes.length % 2 !== 0) throw new SubtitleError(`${how} ${name}, but it has an odd number of bytes (${bytes.length}); ${SEND}`);
  const text = strict(bytes, encoding);
  if (text !== null) return text;
  const le = encoding === "utf-16le";
  let i = 0;
  for (; i + 1 < bytes.length; i += 2) {
    const u = le ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
    const next = le ? bytes[i + 2] | (bytes[i + 3] << 8) : (bytes[i + 2] << 8) | bytes[i + 3];
    if (within(u, 0xdc00, 0xdfff) || (within(u, 0xd800, 0xdbff) && !within(next, 0xdc00, 0xdfff))) break;
    if (within(u, 0xd800, 0xdbff)) i += 2;
  }
  throw new SubtitleError(`${how} ${name}, but it holds an unpaired surrogate at byte offset ${i}; ${SEND}`);
}

function byBom(bytes: Uint8Array): Decoded | null {
  const [a, b, c, d] = bytes;
  const found = (text: string, encoding: string, name: string): Decoded => ({
    text,
    encoding,
    source: "bom",
    reason: `the file starts with a ${name} byte order mark`,
  });
  if (a === 0xef && b === 0xbb && c === 0xbf) {
    const text = strict(bytes.subarray(3), "utf-8");
    if (text === null)
      throw new SubtitleError(
        `the file's byte order mark says UTF-8, but byte offset ${firstInvalidUtf8(bytes)} is not valid UTF-8; ${SEND}`,
      );
    return found(text, "utf-8", "UTF-8");
  }
  // FF FE 00 00 is UTF-32 LE; as UTF-16 LE it would be a BOM and a NUL, which no subtitle file starts with.
  const how = "the file's byte order mark says";
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return found(utf32(bytes, true, 4, how), "utf-32le", "UTF-32 LE");
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return found(utf32(bytes, false, 4, how), "utf-32be", "UTF-32 BE");
  if (a === 0xff && b === 0xfe) return found(utf16(bytes, "utf-16le", how).slice(1), "utf-16le", "UTF-16 LE");
  if (a === 0xfe && b === 0xff) return found(utf16(bytes, "utf-16be", how).slice(1), "utf-16be", "UTF-16 BE");
  return null;
}

/** Offset of the first byte that is not part of well-formed UTF-8 (for the message), or -1. */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    const n = c < 0x80 ? 0 : within(c, 0xc2, 0xdf) ? 1 : within(c, 0xe0, 0xef) ? 2 : within(c, 0xf0, 0xf4) ? 3 : -1;
    if (n < 0) return i;
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (n > 0 && !within(b[i + 1], lo, hi)) return i;
    for (let k = 2; k <= n; k++) if (!within(b[i + k], 0x80, 0xbf)) return i;
    i += n + 1;
  }
  return -1;
}

// ---- Legacy code pages: language, then detector ----

/** Below this many bytes above 0x7F the language's code page needs no agreement from chardet, only no confident rival. */
const FEW_BYTES = 16;
/** chardet's floor: below this confidence an answer is noise (every recogniser finds something in Latin text). */
const NOISE = 10;
/**
 * Confidence for chardet alone, or for it to overrule the language. Latin code pages read each other's text as
 * plausible Latin, so they need more; a non-Latin script that reads plausibly is evidence in itself.
 */
const CONFIDENT = { latin: 50, other: 20 };
/** chardet reads at most this much (its CJK recognisers cost ~1 ms per KiB): a small file whole, else its non-ASCII lines. */
const SAMPLE = 64 * 1024;

interface Guess {
  name: string;
  confidence: number;
  encoding: string;
}
interface Reading {
  guess: Guess;
  text: string;
  own: Expect;
}

/** One legacy decision: strict decodes are cached (each costs a pass over up to 2 MiB), chardet runs once. */
class Legacy {
  private decoded = new Map<string, string | null>();
  readonly ranked: Guess[];
  readonly best: Reading | null = null;

  constructor(
    readonly bytes: Uint8Array,
    readonly why: string,
  ) {
    this.ranked = analyse(sample(bytes)).flatMap((m) => {
      const encoding = normalizeEncodingLabel(m.name);
      // UTF answers are dropped: UTF-8 has failed already, and UTF-16/32 need a byte order mark.
      return encoding && !encoding.startsWith("utf-") && m.confidence >= NOISE
        ? [{ name: m.name, confidence: m.confidence, encoding }]
        : [];
    });
    // chardet's best answer that decodes strictly and reads as its own script (its KOI8-R covers koi8-u too).
    for (const guess of this.ranked) {
      for (const encoding of guess.encoding === "koi8-r" ? ["koi8-r", "koi8-u"] : [guess.encoding]) {
        const own = expectedFor(encoding);
        const text = own ? this.decode(encoding) : null;
        if (own && text !== null && readsAs(text, own)) {
          this.best = { guess: { ...guess, encoding }, text, own };
          return;
        }
      }
    }
  }

  decode(encoding: string): string | null {
    if (!this.decoded.has(encoding)) this.decoded.set(encoding, strict(this.bytes, encoding));
    return this.decoded.get(encoding)!;
  }
}

function sample(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SAMPLE) return bytes;
  const out = new Uint8Array(SAMPLE);
  let n = 0;
  let start = 0;
  let high = false;
  for (let i = 0; i < bytes.length && n < SAMPLE; i++) {
    if (bytes[i] >= 0x80) high = true;
    if (bytes[i] !== 0x0a && i !== bytes.length - 1) continue;
    if (high) {
      const line = bytes.subarray(start, Math.min(i + 1, start + SAMPLE - n));
      out.set(line, n);
      n += line.length;
    }
    start = i + 1;
    high = false;
  }
  // Few non-ASCII lines: the start of the file shows chardet the language of the ASCII around them.
  return n >= 4096 ? out.subarray(0, n) : bytes.subarray(0, SAMPLE);
}

const confident = (r: Reading) => r.guess.confidence >= (r.own.latin ? CONFIDENT.latin : CONFIDENT.other);
const said = (g: Guess) => `${g.name}, confidence ${g.confidence}`;

/**
 * The language's code pages, checked by chardet. Candidates must read as the language. chardet's best readable answer
 * decides when it is a candidate's twin, or confident and read as the language too (koi8-r vs windows-1251, GBK bytes
 * sent as zt); a confident answer in another script vetoes. Short of confidence: too few non-ASCII bytes to judge, or
 * chardet ranks a candidate's family at least half as high as its best answer (close calls between Latin pages go to
 * the language). Returns why not otherwise.
 */
function byLanguage(legacy: Legacy, code: string, entry: { encodings: string[]; expect: Expect }, high: number): Decoded | string {
  const { encodings, expect: exp } = entry;
  const { best, why } = legacy;
  const name = languageName(code, exp);
  const passing: [string, string][] = [];
  for (const e of encodings) {
    const text = legacy.decode(e);
    if (text !== null && readsAs(text, exp)) passing.push([e, text]);
  }
  const take = (encoding: string, text: string, tail: string, g?: Guess): Decoded => ({
    text,
    encoding,
    source: g && !encodings.includes(encoding) ? "detector" : "language",
    reason: `${why}; the language ${code} suggests ${encodings.join(" or ")}${tail}`,
    ...(g && { detector: { encoding: g.name, confidence: g.confidence } }),
  });
  const as = `${why}, and as ${encodings.join(" or ")} (suggested by the language ${code})`;
  if (best) {
    const twin = passing.find(([e]) => family(e) === family(best.guess.encoding));
    if (twin) return take(...twin, `, and the detector agrees (${said(best.guess)})`, best.guess);
    if (confident(best) && readsAs(best.text, exp))
      return take(best.guess.encoding, best.text, `, but the detector names ${said(best.guess)}, which reads as ${name}`, best.guess);
    if (confident(best))
      return `${as} ${passing.length ? `it reads as ${name}, but` : `it does not read as ${name}, and`} the detector names ${said(best.guess)}, which reads as ${best.own.name}`;
  }
  if (passing.length && high < FEW_BYTES)
    return take(...passing[0], `, and it reads as ${name} (${high} non-ASCII bytes: too few for the detector to judge)`);
  if (passing.length && exp.detectorBlind)
    return take(...passing[0], `, and it reads as ${name} (the only code page of its script; the detector names no confident rival)`);
  const bar = Math.max(NOISE, (best?.guess.confidence ?? 0) / 2);
  let agreed: [string, string, Guess] | null = null;
  for (const [e, text] of passing)
    for (const g of legacy.ranked)
      if (family(g.encoding) === family(e) && g.confidence >= bar && g.confidence > (agreed?.[2].confidence ?? 0)) agreed = [e, text, g];
  if (agreed) return take(agreed[0], agreed[1], `, and the detector agrees (${said(agreed[2])})`, agreed[2]);
  return `${as} ${passing.length ? `it reads as ${name}, but the detector does not agree` : `it does not read as ${name}`}`;
}

/** chardet alone: its best readable answer, when confident. */
function byDetector(legacy: Legacy, problem: string): Decoded {
  const { best, ranked } = legacy;
  if (best && confident(best))
    return {
      text: best.text,
      encoding: best.guess.encoding,
      source: "detector",
      reason: `${problem}; the detector names ${said(best.guess)}, and the text reads as ${best.own.name}`,
      detector: { encoding: best.guess.name, confidence: best.guess.confidence },
    };
  const guess = best?.guess ?? ranked[0];
  const doubt = guess ? `the detector's best guess (${said(guess)}) is not confident enough` : "the detector has no guess";
  throw new SubtitleError(`${problem}; ${doubt}; ${SEND}`);
}

/** UTF-16 without a byte order mark (valid UTF-8 when it is ASCII): every other byte zero gives it away. */
function bomlessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  if (n < 8) return null;
  if (odd > n * 0.2 && even < n * 0.01) return "utf-16le";
  if (even > n * 0.2 && odd < n * 0.01) return "utf-16be";
  return null;
}

export function decodeSubtitleBytes(bytes: Uint8Array, hints: { language?: string; encoding?: string }): Decoded {
  const bom = byBom(bytes);
  if (bom) return bom;
  const named = hints.encoding ? normalizeEncodingLabel(hints.encoding) : null;
  if (hints.encoding && !named)
    throw new SubtitleError(`encoding=${hints.encoding} is not a supported encoding; see the documentation for the list`);
  const parameter = (encoding: string, text: string): Decoded => ({
    text,
    encoding,
    source: "parameter",
    reason: `decoded as ${encoding}, the encoding encoding= names`,
  });
  // Named UTF-16/32 comes before UTF-8: their ASCII text without a byte order mark is also valid UTF-8.
  const how = "encoding= names the file";
  if (named === "utf-32le" || named === "utf-32be") return parameter(named, utf32(bytes, named === "utf-32le", 0, how));
  if (named === "utf-16le" || named === "utf-16be") return parameter(named, utf16(bytes, named, how));
  const sixteen = bomlessUtf16(bytes);
  const text16 = sixteen && strict(bytes, sixteen);
  if (sixteen && text16 !== null)
    return {
      text: text16,
      encoding: sixteen,
      source: "detector",
      reason: `the file has no byte order mark, but every other byte is zero: ${sixteen}`,
    };
  const utf8 = strict(bytes, "utf-8");
  if (utf8 !== null) return { text: utf8, encoding: "utf-8", source: "utf-8", reason: "the file is valid UTF-8" };
  const bad = Math.max(0, firstInvalidUtf8(bytes));
  const why = `the file is not UTF-8 (byte ${hex(bytes[bad])} at offset ${bad})`;
  if (named) {
    // The client vouches for a single-byte page: an unmapped byte becomes U+FFFD rather than failing the file.
    const text = strict(bytes, named, MULTI_BYTE.has(named));
    if (text === null) throw new SubtitleError(`${why}, and it does not decode as ${named}, the encoding encoding= names; ${SEND}`);
    return parameter(named, text);
  }
  const legacy = new Legacy(bytes, why);
  const found = hints.language ? lookupLanguage(hints.language) : null;
  if (!found)
    return byDetector(
      legacy,
      hints.language
        ? `${why}, and the language ${hints.language} suggests no legacy encoding`
        : `${why}, and no language suggests its encoding`,
    );
  let high = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) high++;
  const tried = byLanguage(legacy, found[0], found[1], high);
  return typeof tried === "string" ? byDetector(legacy, tried) : tried;
}
