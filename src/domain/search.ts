/**
 * v4 search's words and ranking (docs/decisions.md, "Search (v4)"): how a term becomes a full-text query, and how a
 * title matches it. Pure, so the service ranks with it and tests can state the rules without a database.
 */

/** Words of a term the full-text query keeps; more are ignored (each word is one more doclist to intersect). */
export const SEARCH_MAX_WORDS = 8;

/**
 * The words of a text as the index's tokenizer (unicode61) sees them: letters, digits and combining marks, split at
 * everything else. NFKC first, so full-width letters are letters. Control characters separate words like spaces: a
 * NUL inside a quoted FTS5 string is a syntax error (docs/decisions.md, "Real clients: a tolerant wire contract").
 */
export function searchWords(text: string): string[] {
  return text
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean);
}

/**
 * A term's words as an FTS5 query: each word quoted (so nothing in it is FTS syntax; the split left no quote in a
 * word), all required, the last one prefix-matched when `prefixLast` (the autocomplete form). Empty when the term has
 * no words.
 */
export function ftsMatch(words: readonly string[], prefixLast: boolean): string {
  const kept = words.slice(0, SEARCH_MAX_WORDS);
  return kept.map((w, i) => `"${w}"${prefixLast && i === kept.length - 1 ? "*" : ""}`).join(" ");
}

/** How a title matches a term, best first: the ranking's first key after the viewer's language. */
const MATCH_TIERS = ["exact", "starts", "words", "other"] as const;
export type MatchTier = (typeof MATCH_TIERS)[number];

/** Words compared as the index compares them: case and accents folded (remove_diacritics 2), marks dropped. */
export const foldedWords = (text: string) =>
  searchWords(
    text
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase(),
  );

/**
 * The tier of one title for the term's folded words: the same words (`exact`), the title starting with them
 * (`starts`), every word somewhere in it (`words`), or none of these (`other`: the index matched the words across
 * several titles of the resource). With `prefixLast` the term's last word may end a title word early.
 */
export function matchTier(title: string, term: readonly string[], prefixLast: boolean): MatchTier {
  const words = foldedWords(title);
  if (!term.length) return "other";
  const last = term.length - 1;
  const fits = (word: string | undefined, i: number) =>
    word !== undefined && (word === term[i] || (prefixLast && i === last && word.startsWith(term[i])));
  if (words.length === term.length && words.every((w, i) => w === term[i])) return "exact";
  if (term.every((_, i) => fits(words[i], i))) return "starts";
  if (term.every((_, i) => words.some((w) => fits(w, i)))) return "words";
  return "other";
}

export const tierRank = (tier: MatchTier) => MATCH_TIERS.indexOf(tier);
