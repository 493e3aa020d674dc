/**
 * The rules of the translation memory (docs/decisions.md, "Translation memory"): how a text and a unit's source text
 * compare (`similarity`), when their neighbours match too (`contextMatches`), which index tokens a unit must hold to
 * be a candidate at all (`candidateGroups`), and the order of the matches (`compareMatches`). Pure: the service reads
 * the units, this module scores them.
 */
import { foldText, tokenize } from "./search-text";

/** The lowest `match` returned. */
export const MATCH_MIN = 75;
/** A unit's source text equal to the text, after normalisation. */
export const MATCH_EXACT = 100;
/** Equal, and the neighbouring segments' source texts equal the context's too. */
export const MATCH_IN_CONTEXT = 101;
/** Characters (code points) a text or a context text may have once trimmed. */
export const TEXT_MAX_CHARS = 500;

/**
 * A text's tokens as search reads them (src/domain/search-text.ts): folded (case, width, accents), punctuation and
 * other separators dropped, a word a token in spaced scripts and each character a token in scripts written without
 * spaces. The same tokens the subtitle index holds, so a token found here is one the index can be asked for.
 */
export const tmTokens = (text: string): string[] => tokenize(foldText(text).chars).map((t) => t.text);

/** The most edits `match` can absorb and stay at MATCH_MIN: round(100·(1 − d/L)) ≥ 75 ⇔ 1000·d ≤ 255·L (integers, no float rounding). */
const maxEdits = (longest: number) => Math.floor((255 * longest) / 1000);

/** round(100·(L − d)/L), half up, in integers. */
const percent = (distance: number, longest: number) => Math.floor((200 * (longest - distance) + longest) / (2 * longest));

/**
 * Edit distance (insert, delete, substitute one token) between two token sequences, or `bound + 1` as soon as it
 * must exceed `bound`: only the band of width 2·bound + 1 around the diagonal is computed and a row whose every cell
 * is over the bound stops it. At 500 tokens a side and the bound of MATCH_MIN (127 edits) that is at most 128,000
 * cells, against 250,000 for the whole table.
 */
export function boundedEditDistance(a: readonly number[], b: readonly number[], bound: number): number {
  const over = bound + 1;
  if (Math.abs(a.length - b.length) > bound) return over;
  if (!a.length || !b.length) return Math.max(a.length, b.length);
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j <= bound ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - bound);
    const to = Math.min(b.length, i + bound);
    cur.fill(over);
    cur[0] = i <= bound ? i : over;
    let rowMin = cur[0];
    for (let j = from; j <= to; j++) {
      const substitute = prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      const v = Math.min(substitute, prev[j] + 1, cur[j - 1] + 1, over);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > bound) return over;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length], over);
}

/** Tokens as small integers shared by both sides, so the distance compares numbers. */
function encode(a: readonly string[], b: readonly string[]): [number[], number[]] {
  const ids = new Map<string, number>();
  const id = (t: string) => {
    let n = ids.get(t);
    if (n === undefined) ids.set(t, (n = ids.size));
    return n;
  };
  return [a.map(id), b.map(id)];
}

/**
 * At least the edit distance: the tokens one side has more of than the other (a multiset difference), each of which
 * some edit must remove or replace. One pass, so most candidates that cannot reach MATCH_MIN never reach the table.
 */
function bagDistance(a: readonly number[], b: readonly number[]): number {
  const count = new Map<number, number>();
  for (const t of a) count.set(t, (count.get(t) ?? 0) + 1);
  for (const t of b) count.set(t, (count.get(t) ?? 0) - 1);
  let extraA = 0;
  let extraB = 0;
  for (const n of count.values()) {
    if (n > 0) extraA += n;
    else extraB -= n;
  }
  return Math.max(extraA, extraB);
}

/**
 * `match` of a text against a unit's source text, both as `tmTokens`: round(100 × (1 − editDistance / the longer
 * length)), 100 only when the normalised forms are equal (a distance of 1 in 300 tokens rounds to 100 and is 99), or
 * null when it is under MATCH_MIN (or either side has no token).
 */
export function similarity(text: readonly string[], unit: readonly string[]): number | null {
  const longest = Math.max(text.length, unit.length);
  if (!text.length || !unit.length) return null;
  const bound = maxEdits(longest);
  const [a, b] = encode(text, unit);
  if (bagDistance(a, b) > bound) return null;
  const distance = boundedEditDistance(a, b, bound);
  if (distance > bound) return null;
  if (distance === 0) return MATCH_EXACT;
  return Math.min(MATCH_EXACT - 1, percent(distance, longest));
}

/** The texts around a text, as the client sends them: a missing neighbour is an empty text. */
export interface Context {
  previous?: string;
  next?: string;
}

/** Whether a unit's neighbours (its previous and next segments' source texts, null where there is none) equal the context's, normalised. */
export function contextMatches(context: Context, neighbours: { previous: string | null; next: string | null }): boolean {
  const same = (x: string | null | undefined, y: string | null | undefined) => tmTokens(x ?? "").join(" ") === tmTokens(y ?? "").join(" ");
  return same(context.previous, neighbours.previous) && same(context.next, neighbours.next);
}

/**
 * The groups of tokens a unit must hold one of (every token of at least one group) to be asked for: the pigeonhole
 * filter. The text's n distinct tokens are dealt into k = floor(n/4) + 1 groups; a unit that lacks at most floor(n/4)
 * of them holds every token of some group, and a unit within MATCH_MIN's edits lacks few of them (docs/api.md,
 * "Translation memory (v4)", says when it can lack more). Longer tokens are dealt first, one to each group, so every
 * group holds one of the rarer words (in a spaced language a long word is rarely a common one) rather than one group
 * holding only "the", "a", "of".
 */
export function candidateGroups(tokens: readonly string[]): string[][] {
  const distinct = [...new Set(tokens)];
  if (!distinct.length) return [];
  const k = Math.floor(distinct.length / 4) + 1;
  const byLength = distinct
    .map((t, i) => ({ t, i, n: [...t].length }))
    .sort((x, y) => y.n - x.n || x.i - y.i)
    .map((x) => x.t);
  const groups: string[][] = Array.from({ length: k }, () => []);
  byLength.forEach((t, i) => groups[i % k].push(t));
  return groups;
}

/** Where a match comes from: the container asked for (`series`) or anywhere else. */
export type MatchScope = "series" | "catalogue";

export interface RankedMatch {
  /** The source subtitle's id: the stable last key. */
  id: number;
  match: number;
  scope: MatchScope;
  /** Unix seconds. */
  updatedAt: number;
}

/** Best first: `match`, then the series before the catalogue, then the newest, then the source subtitle's id. */
export const compareMatches = (a: RankedMatch, b: RankedMatch) =>
  b.match - a.match || +(a.scope !== "series") - +(b.scope !== "series") || b.updatedAt - a.updatedAt || a.id - b.id;

/**
 * The best `limit` matches, one per translation: a line repeated in every episode ("Previously on...") with the same
 * translation is one suggestion, at its best rank, so it cannot fill every place; the same source translated another
 * way is another suggestion. Translations are compared as written (trimmed), since a translator picks among them.
 */
export function bestDistinct<T extends RankedMatch & { source: string; target: string }>(matches: readonly T[], limit: number): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const m of [...matches].sort(compareMatches)) {
    const key = `${tmTokens(m.source).join(" ")}\u0000${m.target.trim()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(m);
    if (out.length === limit) break;
  }
  return out;
}
