import type { Cue } from "./cue";
import { plainText } from "./markup";

/** Reading speed above which a cue is reported (characters per second), and the line and line-count guides. */
const QUALITY_GUIDES = { charsPerSecond: 25, lineChars: 42, lines: 2 } as const;
/** Cue numbers listed with each count: the first few, enough to find the pattern. */
const QUALITY_EXAMPLES = 5;

/** A count with the first few cue numbers (positions in the file, from 1) it covers. */
export interface QualityCount {
  count: number;
  cues: number[];
}

/** What an import noticed: it informs and refuses nothing (docs/api.md, "The quality report"). */
export interface QualityReport {
  reordered: QualityCount;
  zero_length: QualityCount;
  overlaps: QualityCount;
  fast_reading: QualityCount;
  long_lines: QualityCount;
  many_lines: QualityCount;
}

function counter() {
  const c: QualityCount = { count: 0, cues: [] };
  return {
    c,
    add(cue: number) {
      c.count++;
      if (c.cues.length < QUALITY_EXAMPLES) c.cues.push(cue);
    },
  };
}

/** A counted list of cues, for reports of dropped or empty cues elsewhere. */
export function countCues(cues: readonly { index: number }[]): QualityCount {
  const k = counter();
  for (const cue of cues) k.add(cue.index);
  return k.c;
}

/**
 * The report over the cues as read, in file order (`reordered` counts cues that start before the cue before them in the
 * file) and in time order (`overlaps`: a cue starting before an earlier cue has ended). One pass each, linear.
 */
export function qualityReport(fileOrder: readonly Cue[], timeOrder: readonly Cue[]): QualityReport {
  const reordered = counter();
  for (let i = 1; i < fileOrder.length; i++) if (fileOrder[i].startMs < fileOrder[i - 1].startMs) reordered.add(fileOrder[i].index);

  const zero = counter();
  const overlaps = counter();
  const fast = counter();
  const long = counter();
  const many = counter();
  let latestEnd = -1;
  for (const cue of timeOrder) {
    const duration = cue.endMs - cue.startMs;
    if (duration === 0) zero.add(cue.index);
    if (cue.startMs < latestEnd) overlaps.add(cue.index);
    latestEnd = Math.max(latestEnd, cue.endMs);
    const lines = plainText(cue.text).split("\n");
    const chars = lines.reduce((n, line) => n + [...line].length, 0);
    if (duration > 0 && (chars * 1000) / duration > QUALITY_GUIDES.charsPerSecond) fast.add(cue.index);
    if (lines.some((line) => [...line].length > QUALITY_GUIDES.lineChars)) long.add(cue.index);
    if (lines.length > QUALITY_GUIDES.lines) many.add(cue.index);
  }
  return {
    reordered: reordered.c,
    zero_length: zero.c,
    overlaps: overlaps.c,
    fast_reading: fast.c,
    long_lines: long.c,
    many_lines: many.c,
  };
}
