import type { SnapshotCue } from "./snapshot";
import { WORD_DIFF_BUDGET, wordEdits, type TextEdit } from "./word-diff";

export type { TextEdit };

/**
 * What changed from one version of a track to another, cue by cue.
 *
 * Cues have no identity across versions, so they are matched by timing, in four rounds; each round sees only the cues
 * the rounds before it left unmatched, and every choice is fixed by the cues alone (no dependence on input order beyond
 * time order, no clock), so comparing the same two versions always gives the same answer:
 *
 * 1. Same start and same end: the same cue. Among cues sharing both times, equal texts are paired first (unchanged),
 *    the rest in time order (changed).
 * 2. Equal text: a `to` cue and a `from` cue with the same text that share some time, or else start at most 10 s apart,
 *    are the same cue retimed. Pairs that share time go first, then by the distance between their starts, then between
 *    their ends, then by time.
 * 3. Enough shared time: a `to` cue and a `from` cue that share at least half of the shorter one's duration are the
 *    same cue changed (their times may differ too). Pairs sharing the most time go first, then by the distance between
 *    their starts, then between their ends, then by time.
 * 4. What is left is removed (`from` only) or added (`to` only).
 *
 * Two cues share time when the later start is before the earlier end; a cue of zero duration shares time with one that
 * holds its instant (ends included), so it is "half covered" by it.
 *
 * In rounds 2 and 3 a `to` cue is compared only with its neighbours: the NEIGHBOURS unmatched `from` cues (of the same
 * text, in round 2) nearest to its start on each side, so a pile of n cues at one time costs n × NEIGHBOURS comparisons,
 * not n²; subtitles rarely stack more than two or three deep. The best pairs over the whole track are taken first, in
 * the order above; then, where cues pile up deeper than that, each `to` cue still unmatched, in time order, takes its
 * best pair among the neighbours left to it.
 *
 * Changed cues carry a word diff (jsdiff's diffWordsWithSpace: words, runs of spaces, line breaks and single other
 * characters are the tokens), of the texts' middles only: their common start and end are kept as they are. It is
 * bounded twice: a pair needing more than MAX_WORD_EDITS inserted or deleted tokens, and every pair once the comparison
 * has spent WORD_DIFF_BUDGET, is shown as one delete and one insert of the middles. A pair's cost is counted as (length
 * of both middles) × (edits + 1), which bounds the work of jsdiff's Myers algorithm up to a constant: the budget holds
 * a full word diff of 20,000 ordinary changed cues several times over, yet caps a track of 2,000-character cues rewritten
 * word by word at about a hundred diffed pairs, a few hundred milliseconds.
 *
 * Lists are in time order: added, and the pairs, by their `to` cue; removed by its `from` cue.
 */

export interface CueRef {
  start_ms: number;
  end_ms: number;
  text: string;
}

export interface TrackComparison {
  /** In `to` only. */
  added: CueRef[];
  /** In `from` only. */
  removed: CueRef[];
  /** The same text at other times. */
  retimed: Array<{ from: CueRef; to: CueRef }>;
  /** Matched by timing, with other text (and maybe other times). */
  changed: Array<{ from: CueRef; to: CueRef; edits: TextEdit[] }>;
  /** Cues with the same times and text in both. */
  unchanged: number;
}

/** How far apart two starts may be for equal texts that share no time to still be one cue retimed. */
const RETIME_WINDOW_MS = 10_000;
/** Unmatched `from` cues a `to` cue is compared with on each side of its start, in rounds 2 and 3. */
const NEIGHBOURS = 8;
interface Cue {
  start: number;
  end: number;
  text: string;
}

interface Candidate {
  f: number;
  t: number;
  /** 0 when the pair shares time (round 2), else 1; the negated shared time (round 3). */
  primary: number;
  startGap: number;
  endGap: number;
}

export function compareTracks(from: readonly SnapshotCue[], to: readonly SnapshotCue[]): TrackComparison {
  const a = from.map(toCue);
  const b = to.map(toCue);
  // Positions in time order, so every later choice can break ties by time whatever order the arrays came in.
  const aOrder = timeOrder(a);
  const bOrder = timeOrder(b);
  const aRank = ranks(aOrder);
  const bRank = ranks(bOrder);
  const byTime = (x: Candidate, y: Candidate) => bRank[x.t] - bRank[y.t] || aRank[x.f] - aRank[y.f];
  /** partnerOfTo[t]: the `from` cue matched to `to` cue t, or -1. */
  const partnerOfTo = new Int32Array(b.length).fill(-1);
  const matchedFrom = new Uint8Array(a.length);
  const pair = (f: number, t: number) => {
    matchedFrom[f] = 1;
    partnerOfTo[t] = f;
  };

  // Round 1: same start and end. Both orders sort by start then end, so cues with the same times are runs in both.
  const sameTimes = (x: Cue, y: Cue) => x.start - y.start || x.end - y.end;
  for (let i = 0, j = 0; i < aOrder.length && j < bOrder.length;) {
    const order = sameTimes(a[aOrder[i]], b[bOrder[j]]);
    if (order < 0) i++;
    else if (order > 0) j++;
    else {
      let iEnd = i + 1;
      while (iEnd < aOrder.length && !sameTimes(a[aOrder[iEnd]], a[aOrder[i]])) iEnd++;
      let jEnd = j + 1;
      while (jEnd < bOrder.length && !sameTimes(b[bOrder[jEnd]], b[bOrder[j]])) jEnd++;
      if (iEnd - i === 1 && jEnd - j === 1) pair(aOrder[i], bOrder[j]);
      else pairSameTimes(aOrder.slice(i, iEnd), bOrder.slice(j, jEnd), a, b, matchedFrom, pair);
      i = iEnd;
      j = jEnd;
    }
  }

  // Round 2: equal text, sharing time or starting within RETIME_WINDOW_MS.
  const poolsByText = new Map<string, number[]>();
  for (const f of aOrder) {
    if (matchedFrom[f]) continue;
    const list = poolsByText.get(a[f].text);
    if (list) list.push(f);
    else poolsByText.set(a[f].text, [f]);
  }
  const retimePools = new Map<string, Pool>();
  for (const [text, list] of poolsByText) retimePools.set(text, new Pool(a, list));
  matchRound(
    b,
    bOrder,
    partnerOfTo,
    (t) => retimePools.get(b[t].text),
    (c) => Math.max(c.end, c.start + RETIME_WINDOW_MS),
    (f, t) => {
      const shares = sharesTime(a[f], b[t]);
      return shares || Math.abs(a[f].start - b[t].start) <= RETIME_WINDOW_MS ? candidate(a, b, f, t, shares ? 0 : 1) : null;
    },
    byTime,
    pair,
  );

  // Round 3: at least half of the shorter cue's duration shared.
  const overlapPool = new Pool(
    a,
    aOrder.filter((f) => !matchedFrom[f]),
  );
  matchRound(
    b,
    bOrder,
    partnerOfTo,
    () => overlapPool,
    (c) => c.end,
    (f, t) => (halfCovered(a[f], b[t]) ? candidate(a, b, f, t, -shared(a[f], b[t])) : null),
    byTime,
    pair,
  );

  // Round 4, and the answer in time order: pairs and added cues by their `to` cue, removed ones by their `from` cue.
  const result: TrackComparison = { added: [], removed: [], retimed: [], changed: [], unchanged: 0 };
  const budget = { left: WORD_DIFF_BUDGET };
  for (const t of bOrder) {
    const f = partnerOfTo[t];
    if (f < 0) result.added.push(ref(b[t]));
    else if (a[f].text !== b[t].text)
      result.changed.push({ from: ref(a[f]), to: ref(b[t]), edits: wordEdits(a[f].text, b[t].text, budget) });
    else if (a[f].start !== b[t].start || a[f].end !== b[t].end) result.retimed.push({ from: ref(a[f]), to: ref(b[t]) });
    else result.unchanged++;
  }
  for (const f of aOrder) if (!matchedFrom[f]) result.removed.push(ref(a[f]));
  return result;
}

/** Cues sharing both times: equal texts pair first (unchanged), then the rest in order (changed). */
function pairSameTimes(
  fs: readonly number[],
  ts: readonly number[],
  a: readonly Cue[],
  b: readonly Cue[],
  matchedFrom: Uint8Array,
  pair: (f: number, t: number) => void,
) {
  const byText = new Map<string, number[]>();
  for (const f of fs) {
    const list = byText.get(a[f].text);
    if (list) list.push(f);
    else byText.set(a[f].text, [f]);
  }
  const used = new Map<string, number>();
  const restT: number[] = [];
  for (const t of ts) {
    const list = byText.get(b[t].text);
    const k = used.get(b[t].text) ?? 0;
    if (list && k < list.length) {
      used.set(b[t].text, k + 1);
      pair(list[k], t);
    } else restT.push(t);
  }
  const restF = fs.filter((f) => !matchedFrom[f]);
  for (let k = 0; k < Math.min(restF.length, restT.length); k++) pair(restF[k], restT[k]);
}

const toCue = ([start, end, text]: SnapshotCue): Cue => ({ start, end, text });
const ref = (c: Cue): CueRef => ({ start_ms: c.start, end_ms: c.end, text: c.text });

function timeOrder(cues: readonly Cue[]): number[] {
  return cues.map((_, i) => i).sort((x, y) => cues[x].start - cues[y].start || cues[x].end - cues[y].end || x - y);
}

function ranks(order: readonly number[]): Int32Array {
  const rank = new Int32Array(order.length);
  order.forEach((index, position) => (rank[index] = position));
  return rank;
}

/** Time both cues cover: negative when apart, 0 when they touch (or one is an instant the other holds). */
const shared = (x: Cue, y: Cue) => Math.min(x.end, y.end) - Math.max(x.start, y.start);

function sharesTime(x: Cue, y: Cue): boolean {
  const s = shared(x, y);
  return s > 0 || (s === 0 && (x.start === x.end || y.start === y.end));
}

/** Shares at least half the shorter one's duration; for a zero-length cue, lies within the other, ends included. */
const halfCovered = (x: Cue, y: Cue) => sharesTime(x, y) && 2 * shared(x, y) >= Math.min(x.end - x.start, y.end - y.start);

const candidate = (a: readonly Cue[], b: readonly Cue[], f: number, t: number, primary: number): Candidate => ({
  f,
  t,
  primary,
  startGap: Math.abs(a[f].start - b[t].start),
  endGap: Math.abs(a[f].end - b[t].end),
});

/**
 * The unmatched `from` cues one round may pair, in time order, with the matched ones skipped in near constant time
 * (union-find with path compression, one structure per direction), so a pile of cues at one time stays linear.
 */
class Pool {
  private readonly position = new Map<number, number>();
  /** up[k]: k while list[k] is unmatched, else a step towards the next position that is; list.length: none. */
  private readonly up: Int32Array;
  /** down[k + 1]: as `up`, towards earlier positions; down[0]: none. */
  private readonly down: Int32Array;

  constructor(
    private readonly cues: readonly Cue[],
    private readonly list: readonly number[],
  ) {
    list.forEach((f, k) => this.position.set(f, k));
    this.up = Int32Array.from({ length: list.length + 1 }, (_, k) => k);
    this.down = Int32Array.from({ length: list.length + 1 }, (_, k) => k);
  }

  remove(f: number) {
    const k = this.position.get(f)!;
    this.up[k] = k + 1;
    this.down[k + 1] = k;
  }

  /**
   * Calls `visit` with the NEIGHBOURS unmatched cues starting at or after `c` but no later than `lastStart`, nearest
   * first, then the NEIGHBOURS starting before it, nearest first.
   */
  neighbours(c: Cue, lastStart: number, visit: (f: number) => void) {
    const { cues, list } = this;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cues[list[mid]].start < c.start) lo = mid + 1;
      else hi = mid;
    }
    for (
      let k = root(this.up, lo), n = 0;
      k < list.length && n < NEIGHBOURS && cues[list[k]].start <= lastStart;
      k = root(this.up, k + 1), n++
    )
      visit(list[k]);
    for (let k = root(this.down, lo) - 1, n = 0; k >= 0 && n < NEIGHBOURS; k = root(this.down, k) - 1, n++) visit(list[k]);
  }
}

function root(parent: Int32Array, k: number): number {
  let r = k;
  while (parent[r] !== r) r = parent[r];
  while (parent[k] !== r) {
    const next = parent[k];
    parent[k] = r;
    k = next;
  }
  return r;
}

/**
 * One round of rounds 2 and 3. First every unmatched `to` cue lists the pairs it could make with its neighbours, and
 * the best pairs over the whole track are taken first; then, for cues piled deeper than NEIGHBOURS whose neighbours
 * were all taken, each `to` cue still unmatched, in time order, takes its best pair among the neighbours left.
 */
function matchRound(
  b: readonly Cue[],
  bOrder: readonly number[],
  partnerOfTo: Int32Array,
  poolOf: (t: number) => Pool | undefined,
  lastStart: (c: Cue) => number,
  consider: (f: number, t: number) => Candidate | null,
  byTime: (x: Candidate, y: Candidate) => number,
  pair: (f: number, t: number) => void,
) {
  const order = (x: Candidate, y: Candidate) => x.primary - y.primary || x.startGap - y.startGap || x.endGap - y.endGap || byTime(x, y);
  const candidates: Candidate[] = [];
  for (const t of bOrder) {
    if (partnerOfTo[t] >= 0) continue;
    poolOf(t)?.neighbours(b[t], lastStart(b[t]), (f) => {
      const c = consider(f, t);
      if (c) candidates.push(c);
    });
  }
  candidates.sort(order);
  const taken = new Set<number>();
  for (const c of candidates) {
    if (taken.has(c.f) || partnerOfTo[c.t] >= 0) continue;
    taken.add(c.f);
    poolOf(c.t)!.remove(c.f);
    pair(c.f, c.t);
  }
  for (const t of bOrder) {
    if (partnerOfTo[t] >= 0) continue;
    const pool = poolOf(t);
    let best = null as Candidate | null;
    pool?.neighbours(b[t], lastStart(b[t]), (f) => {
      const c = consider(f, t);
      if (c && (!best || order(c, best) < 0)) best = c;
    });
    if (best) {
      const { f } = best;
      pool!.remove(f);
      pair(f, t);
    }
  }
}
