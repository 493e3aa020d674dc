/**
 * The text rules of subtitle and title search (docs/decisions.md, "Subtitle search"): the form text takes in the
 * full-text index, how a query becomes an FTS5 MATCH expression over that form, and the folding both share. The index
 * is FTS5 with `unicode61 remove_diacritics 2`; this module makes up for what that tokenizer cannot do (split scripts
 * written without spaces, fold width, keep words whole around combining marks it treats as separators) so that the
 * index, the query and the highlighter (src/domain/search-highlight.ts) all see the same tokens.
 */

/** Code points a query may have once trimmed. */
export const QUERY_MAX_CHARS = 200;

/** Characters unicode61 (default categories "L* N* Co") keeps in tokens; everything else separates them. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;

/**
 * Scripts written without spaces between words: each of their characters is a token of its own in the index form,
 * so a run of them in a query is a phrase of single characters (a substring match). Script_Extensions, so the
 * prolonged-sound mark ー (shared by Hiragana and Katakana) counts too.
 */
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

/** Combining marks, less the kana voicing marks (ブ is not フ): folding drops them, as the index does. */
const DROPPED_MARKS = /(?![\u3099\u309A])\p{M}/gu;

/**
 * Latin letters unicode61 folds to exactly what `fold` gives (case and accents), so text made of them and ASCII needs
 * no index form. U+01E0–U+01E3, U+01EE–U+01EF and U+01FC–U+01FF keep a diacritic in unicode61 (checked against the
 * real tokenizer in test/unit/search-text-fts.test.ts, which walks every letter of these blocks).
 */
function foldedByIndex(cp: number): boolean {
  if (cp < 0x80) return true;
  const latin = (cp >= 0xc0 && cp <= 0x24f) || (cp >= 0x1e00 && cp <= 0x1eff);
  if (!latin || (cp >= 0x1e0 && cp <= 0x1e3) || cp === 0x1ee || cp === 0x1ef || (cp >= 0x1fc && cp <= 0x1ff)) return false;
  const ch = String.fromCodePoint(cp);
  return ch.normalize("NFKC") === ch && cp !== 0xdf && cp !== 0x1e9e;
}

/**
 * One grapheme as search compares it: compatibility forms (full width, ligatures, superscripts) to their plain
 * letters, combining marks dropped (accents, Arabic harakat, Indic vowel signs: unicode61 splits words at the marks
 * it does not fold, which would cut كَتَبَ into three one-letter words), lower case, ß as "ss" (so "straße" and
 * "STRASSE" meet), final sigma as sigma (as unicode61 does). NFC at the end puts Hangul jamo and kana voicing back
 * together.
 */
export function fold(grapheme: string): string {
  const known = folds.get(grapheme);
  if (known !== undefined) return known;
  const folded = grapheme
    .normalize("NFKD")
    .replace(DROPPED_MARKS, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/ς/g, "σ");
  // Text repeats its characters: remembered (short graphemes, up to a bound), so a long text costs a map read each.
  if (grapheme.length <= 4 && folds.size < FOLDS_KEPT) folds.set(grapheme, folded);
  return folded;
}
const folds = new Map<string, string>();
const FOLDS_KEPT = 20_000;

const graphemeSegmenter = new Intl.Segmenter("und", { granularity: "grapheme" });
const NON_ASCII = /\P{ASCII}/u;

/** The graphemes of a text with their code-unit offsets (ASCII without the segmenter: each character is one). */
export function* graphemes(text: string): Iterable<{ segment: string; index: number }> {
  if (NON_ASCII.test(text)) {
    yield* graphemeSegmenter.segment(text);
    return;
  }
  for (let index = 0; index < text.length; index++) yield { segment: text[index], index };
}

export const isTokenChar = (ch: string) => TOKEN_CHAR.test(ch);
export const isUnspaced = (ch: string) => UNSPACED.test(ch);

/** What the tokenizer may read as part of a word (its tables are older than the engine's: a code point unassigned here). */
const WORDISH = /[\p{L}\p{N}\p{M}\p{Co}\p{Cn}]/u;
const isSpace = (ch: string) => /\s/.test(ch);

/** The text as the index holds it; null when that is the text itself (most Latin text: nothing to store). */
export function indexForm(text: string): string | null {
  const out: string[] = [];
  // An unspaced character stands between spaces: one before it unless the text has one, one after it when more follows.
  let spaceOwed = false;
  let lastIsSpace = true;
  const put = (piece: string, unspaced = false) => {
    if ((spaceOwed || (unspaced && !lastIsSpace)) && !isSpace(piece[0])) out.push(" ");
    out.push(piece);
    spaceOwed = unspaced;
    lastIsSpace = isSpace(piece[piece.length - 1]);
  };
  for (const { segment } of graphemes(text)) {
    const cp = segment.codePointAt(0) ?? 0;
    if (segment.length === (cp > 0xffff ? 2 : 1) && foldedByIndex(cp)) {
      put(segment);
      continue;
    }
    const folded = fold(segment);
    // A separator stays as written (the tokenizer skips it either way); a letter or mark that folds to no letter (ͺ,
    // a lone half-width voicing mark, marks newer than the tokenizer's tables) or an unassigned code point becomes a
    // space, as the highlighter reads it.
    if (![...folded].some(isTokenChar)) {
      put(WORDISH.test(segment) ? " " : segment);
      continue;
    }
    for (const ch of folded) put(ch, isTokenChar(ch) && isUnspaced(ch));
  }
  const form = out.join("");
  return form === text ? null : form;
}

/** A token of folded text: its characters, and where it sits in the folded sequence (indexes into `chars`). */
export interface Token {
  text: string;
  /** Index of its first folded character. */
  start: number;
  /** Index past its last folded character. */
  end: number;
  /** A single character of a script written without spaces. */
  unspaced: boolean;
  /** Nothing separates it from the token before (two characters of one unspaced run). */
  joined: boolean;
}

/** Folded characters of a text, each with the code-unit range of the original grapheme it came from. */
export interface Folded {
  chars: string[];
  from: number[];
  to: number[];
}

/** Folds a text grapheme by grapheme, keeping the way back to the original offsets. */
export function foldText(text: string): Folded {
  const chars: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (const { segment, index } of graphemes(text)) {
    for (const ch of fold(segment)) {
      chars.push(ch);
      from.push(index);
      to.push(index + segment.length);
    }
  }
  return { chars, from, to };
}

/** The tokens of folded characters, as unicode61 sees the index form: runs of token characters, unspaced ones alone. */
export function tokenize(chars: readonly string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let separated = true;
  while (i < chars.length) {
    const ch = chars[i];
    if (!isTokenChar(ch)) {
      separated = true;
      i++;
      continue;
    }
    if (isUnspaced(ch)) {
      tokens.push({ text: ch, start: i, end: i + 1, unspaced: true, joined: !separated });
      i++;
    } else {
      let j = i;
      let text = "";
      while (j < chars.length && isTokenChar(chars[j]) && !isUnspaced(chars[j])) text += chars[j++];
      tokens.push({ text, start: i, end: j, unspaced: false, joined: !separated });
      i = j;
    }
    separated = false;
  }
  return tokens;
}

export interface QueryTerm {
  text: string /* normalised */;
  kind: "word" | "prefix" | "run" | "phrase";
}

export interface ParsedQuery {
  /** The FTS5 MATCH expression. Every term is a double-quoted FTS5 string (internal " doubled), so no FTS syntax
   *  (NEAR, AND, OR, NOT, *, ^, column filters, parentheses) the user typed can act as syntax. */
  match: string;
  /** The terms in order as the matcher below uses them. */
  terms: QueryTerm[];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The terms of an unquoted stretch: unspaced runs, and spaced words. */
function unquotedTerms(text: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  for (const token of tokenize(foldText(text).chars)) {
    const last = terms[terms.length - 1];
    if (token.unspaced && token.joined && last?.kind === "run") last.text += token.text;
    else terms.push({ text: token.text, kind: token.unspaced ? "run" : "word" });
  }
  return terms;
}

/** The tokens a term stands for, in order: a run's characters, a phrase's words and characters, a word itself. */
export function termTokens(term: QueryTerm): string[] {
  if (term.kind === "run") return [...term.text];
  if (term.kind === "phrase") return tokenize([...term.text]).map((t) => t.text);
  return [term.text];
}

/** One term as a quoted FTS5 string: its tokens spaced apart (the index form's), a prefix marked outside the quotes. */
const ftsString = (term: QueryTerm) => `"${termTokens(term).join(" ").replace(/"/g, '""')}"${term.kind === "prefix" ? "*" : ""}`;

/**
 * The FTS5 MATCH expression of terms, every one required: what `parseQuery` answers as `match`, for a caller that
 * keeps only some of the terms or changes whether the last word is a prefix (v4 title search: docs/decisions.md,
 * "Search (v4)").
 */
export const matchExpression = (terms: readonly QueryTerm[]) => terms.map(ftsString).join(" ");

/**
 * `q` trimmed must be 1..200 characters (code points). Returns the error message (the caller makes it a 400 naming
 * `q`) for: empty after trimming, too long, lone surrogates, NUL or other control characters, or a query with no
 * letter or digit at all (e.g. only punctuation, only `"` or `*`).
 */
export function parseQuery(q: string): ParsedQuery | { error: string } {
  const trimmed = q.trim();
  if (!trimmed) return { error: "must not be empty" };
  // Counted in code units first, so a huge input is refused before anything walks it by code point.
  if (trimmed.length > QUERY_MAX_CHARS * 2 || [...trimmed].length > QUERY_MAX_CHARS) {
    return { error: `must be at most ${QUERY_MAX_CHARS} characters` };
  }
  if (LONE_SURROGATE.test(trimmed)) return { error: "must be valid Unicode (it has a lone surrogate)" };
  if (/\p{Cc}/u.test(trimmed)) return { error: "must not contain control characters" };
  const terms: QueryTerm[] = [];
  // Even pieces are outside quotes, odd ones inside; an unclosed quote quotes nothing (its text stays words).
  const pieces = trimmed.split('"');
  const closed = pieces.length % 2 === 1 ? pieces.length : pieces.length - 1;
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 1 && i < closed) {
      const tokens = tokenize(foldText(pieces[i]).chars);
      // Unspaced characters written together stay together; anything else is one space apart.
      const text = tokens.map((t, k) => (k > 0 && !(t.joined && t.unspaced && tokens[k - 1].unspaced) ? " " : "") + t.text).join("");
      if (text) terms.push({ text, kind: "phrase" });
    } else {
      terms.push(...unquotedTerms(i % 2 === 1 ? `"${pieces[i]}` : pieces[i]));
    }
  }
  if (!terms.length) return { error: "must contain a letter or a digit" };
  const last = terms[terms.length - 1];
  if (last.kind === "word") last.kind = "prefix";
  return { match: matchExpression(terms), terms };
}
