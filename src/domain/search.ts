/**
 * v4 search's terms and ranking (docs/decisions.md, "Search (v4)"): how a term becomes a full-text query over the
 * titles' index form, and how a title matches it. The text rules (folding, which characters stand alone, the query
 * grammar) are those of src/domain/search-text.ts, shared with subtitle search; this module only says what v4 keeps
 * of them. Pure, so the service ranks with it and tests can state the rules without a database.
 */
import { containsEveryTerm, startsWithPhrase, textTokens } from "./search-highlight";
import { matchExpression, parseQuery, termTokens, type ParsedQuery } from "./search-text";

/** Terms of a query the full-text query keeps (words, runs, quoted phrases); more are ignored (each is one more doclist to intersect). */
export const SEARCH_MAX_WORDS = 8;

/** Control characters separate words like spaces (docs/decisions.md, "Real clients: a tolerant wire contract"). */
const CONTROL = /\p{Cc}/gu;

/**
 * A term as v4 searches it, or null when it has no letter or digit: `parseQuery`'s terms (spaced words, runs of
 * unspaced characters as phrases of single characters, quoted phrases), the first SEARCH_MAX_WORDS kept, every one
 * required. The last word is a prefix only with `prefixLast` (the autocomplete form); otherwise words are whole.
 */
export function searchQuery(term: string, prefixLast: boolean): ParsedQuery | null {
  const parsed = parseQuery(term.replace(CONTROL, " "));
  if ("error" in parsed) return null;
  const terms = parsed.terms.slice(0, SEARCH_MAX_WORDS).map((t) => ({ ...t }));
  const last = terms[terms.length - 1];
  if (last.kind === "prefix" && !prefixLast) last.kind = "word";
  if (last.kind === "word" && prefixLast) last.kind = "prefix";
  return { match: matchExpression(terms), terms };
}

/** How a title matches a term, best first: the ranking's first key after the viewer's language. */
const MATCH_TIERS = ["exact", "starts", "words", "other"] as const;
export type MatchTier = (typeof MATCH_TIERS)[number];

/**
 * The tier of one title for a query, compared as the index compares (folded tokens, unspaced characters one each):
 * the same tokens (`exact`), the title starting with the query (`starts`, the last word possibly a prefix), every term
 * somewhere in it (`words`), or none of these (`other`: the index matched the terms across several titles of the
 * resource).
 */
export function matchTier(title: string, query: ParsedQuery): MatchTier {
  const want = query.terms.flatMap(termTokens);
  const tokens = textTokens(title);
  if (tokens.length === want.length && tokens.every((t, i) => t === want[i])) return "exact";
  if (startsWithPhrase(title, query)) return "starts";
  if (containsEveryTerm(title, query)) return "words";
  return "other";
}

export const tierRank = (tier: MatchTier) => MATCH_TIERS.indexOf(tier);
