/**
 * Where a parsed search query matches a text, for highlighting and ranking (docs/decisions.md, "Subtitle search").
 * The text is folded and split exactly as src/domain/search-text.ts makes the index form, so a line the index
 * returns for a query gets its highlights here, at code-unit offsets of the text as stored.
 */
import { foldText, termTokens, tokenize, type ParsedQuery, type QueryTerm, type Token } from "./search-text";

/**
 * Start indexes (into `tokens`) where `want` occurs as consecutive tokens, the last one possibly a prefix. Knuth-Morris-
 * Pratt over the tokens before the last, so a long run in a long text of the same character stays linear.
 */
function occurrences(tokens: readonly Token[], want: readonly string[], lastIsPrefix: boolean): number[] {
  const found: number[] = [];
  if (!want.length) return found;
  const fits = (text: string, k: number) => text === want[k] || (lastIsPrefix && k === want.length - 1 && text.startsWith(want[k]));
  const head = lastIsPrefix ? want.length - 1 : want.length;
  if (head === 0) {
    tokens.forEach((t, i) => fits(t.text, 0) && found.push(i));
    return found;
  }
  const border = [0];
  for (let k = 1, b = 0; k < head; k++) {
    while (b > 0 && want[k] !== want[b]) b = border[b - 1];
    if (want[k] === want[b]) b++;
    border[k] = b;
  }
  for (let i = 0, k = 0; i < tokens.length; i++) {
    while (k > 0 && tokens[i].text !== want[k]) k = border[k - 1];
    if (tokens[i].text === want[k]) k++;
    if (k === head) {
      const start = i - head + 1;
      if (head === want.length || (tokens[i + 1] && fits(tokens[i + 1].text, head))) found.push(start);
      k = border[k - 1];
    }
  }
  return found;
}

/** The distinct terms (a query may repeat a word), so each is looked for once. */
const distinct = (terms: readonly QueryTerm[]) => [...new Map(terms.map((t) => [`${t.kind}:${t.text}`, t])).values()];

/** Folded characters [first, past) of one occurrence of a term starting at token `i`. */
function span(tokens: readonly Token[], i: number, term: QueryTerm, count: number): [number, number] {
  const first = tokens[i].start;
  if (term.kind === "prefix") return [first, first + [...term.text].length];
  return [first, tokens[i + count - 1].end];
}

/** Sorted ranges, those that overlap or touch made one. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of ranges) {
    const prev = out[out.length - 1];
    if (prev && s <= prev[1]) prev[1] = Math.max(prev[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * Code-unit [start, end) ranges in the ORIGINAL `text` where the query's terms match, sorted, merged when they
 * overlap (or touch: two adjacent matches read as one); the same folding as the index (case, accents, width: "Café"
 * matched by "cafe", "ＴＯＫＹＯ" by "tokyo"). Words of spaced languages match whole words (a `prefix` term the start of
 * a word); runs match anywhere. A range covers whole graphemes: a folded character that came from "ﬁ" or "é" marks
 * all of it.
 */
export function highlights(text: string, query: ParsedQuery): Array<[number, number]> {
  const folded = foldText(text);
  const tokens = tokenize(folded.chars);
  const ranges: Array<[number, number]> = [];
  for (const term of distinct(query.terms)) {
    const want = termTokens(term);
    for (const i of occurrences(tokens, want, term.kind === "prefix")) {
      const [first, past] = span(tokens, i, term, want.length);
      ranges.push([folded.from[first], folded.to[past - 1]]);
    }
  }
  return merged(ranges);
}

/**
 * True when the whole query appears in `text` as one contiguous phrase (ranking: an exact phrase first): every term's
 * tokens in the query's order, one after the other, the last word of the query as a prefix when it is one.
 */
export function containsPhrase(text: string, query: ParsedQuery): boolean {
  const want = query.terms.flatMap(termTokens);
  const lastIsPrefix = query.terms[query.terms.length - 1]?.kind === "prefix";
  return occurrences(tokenize(foldText(text).chars), want, lastIsPrefix).length > 0;
}

/** The tokens of a text as the index holds them (folded, unspaced characters alone), for comparing texts by tokens. */
export const textTokens = (text: string) => tokenize(foldText(text).chars).map((t) => t.text);

/**
 * True when `text` begins with the whole query (ranking: a title starting with the term): the query's tokens are the
 * text's first tokens, in order, the last one a prefix when the query's last term is one.
 */
export function startsWithPhrase(text: string, query: ParsedQuery): boolean {
  const want = query.terms.flatMap(termTokens);
  const tokens = textTokens(text);
  const lastIsPrefix = query.terms[query.terms.length - 1]?.kind === "prefix";
  const last = want.length - 1;
  return want.length > 0 && want.every((w, i) => tokens[i] === w || (lastIsPrefix && i === last && tokens[i]?.startsWith(w) === true));
}

/**
 * True when every term of the query is somewhere in `text` (ranking: every word in one title): a word whole, a prefix
 * at the start of a word, a run or phrase as consecutive tokens; in any order.
 */
export function containsEveryTerm(text: string, query: ParsedQuery): boolean {
  const tokens = tokenize(foldText(text).chars);
  return distinct(query.terms).every((term) => occurrences(tokens, termTokens(term), term.kind === "prefix").length > 0);
}
