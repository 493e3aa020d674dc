import { GLOSSARY_RULES, type GlossaryRule } from "../glossary-match";
import { CUE_RULES, cueFindings, ruleBit, type CueRule } from "./checks";
import type { Cue } from "./cue";
import { DEFAULT_FRAME_RATE, profileFor } from "./profiles";

/** Cue numbers listed with each count: the first few, enough to find the pattern. */
const QUALITY_EXAMPLES = 5;

/** A count with the first few cue numbers (positions in the file, from 1) it covers. */
export interface QualityCount {
  count: number;
  cues: number[];
}

/**
 * What an import noticed: it informs and refuses nothing (docs/api.md, "The quality report"). The reading rules
 * (`fast_reading` … `small_gap`) are the quality checks of the track's language (docs/api.md, "Quality checks"); the
 * glossary rules are added by the import once the cues are stored (`glossaryReport`), since they read the other
 * languages' texts of the segments the cues land on.
 */
export type QualityReport = {
  reordered: QualityCount;
  zero_length: QualityCount;
  overlaps: QualityCount;
} & Record<CueRule, QualityCount>;

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
 * file) and in time order (`overlaps`: a cue starting before an earlier cue has ended; the checks of `language`, each
 * cue's gap to the next in time order). One pass each, linear.
 */
export function qualityReport(
  fileOrder: readonly Cue[],
  timeOrder: readonly Cue[],
  language: string,
  frameRate = DEFAULT_FRAME_RATE,
): QualityReport {
  const reordered = counter();
  for (let i = 1; i < fileOrder.length; i++) if (fileOrder[i].startMs < fileOrder[i - 1].startMs) reordered.add(fileOrder[i].index);

  const zero = counter();
  const overlaps = counter();
  const rules = Object.fromEntries(CUE_RULES.map((rule) => [rule, counter()])) as Record<CueRule, ReturnType<typeof counter>>;
  const profile = profileFor(language);
  let latestEnd = -1;
  timeOrder.forEach((cue, i) => {
    if (cue.endMs === cue.startMs) zero.add(cue.index);
    if (cue.startMs < latestEnd) overlaps.add(cue.index);
    latestEnd = Math.max(latestEnd, cue.endMs);
    for (const f of cueFindings(cue, timeOrder[i + 1] ?? null, profile, frameRate)) rules[f.rule].add(cue.index);
  });
  return {
    reordered: reordered.c,
    zero_length: zero.c,
    overlaps: overlaps.c,
    ...(Object.fromEntries(CUE_RULES.map((rule) => [rule, rules[rule].c])) as Record<CueRule, QualityCount>),
  };
}

/**
 * The glossary rules' part of an import's report: per rule the stored cues whose mask has it, counted by the file's
 * cue numbers (`index`), in file order.
 */
export function glossaryReport(cues: ReadonlyArray<{ index: number; mask: number }>): Record<GlossaryRule, QualityCount> {
  const rules = Object.fromEntries(GLOSSARY_RULES.map((rule) => [rule, counter()])) as Record<GlossaryRule, ReturnType<typeof counter>>;
  for (const cue of [...cues].sort((a, b) => a.index - b.index))
    for (const rule of GLOSSARY_RULES) if (cue.mask & ruleBit(rule)) rules[rule].add(cue.index);
  return Object.fromEntries(GLOSSARY_RULES.map((rule) => [rule, rules[rule].c])) as Record<GlossaryRule, QualityCount>;
}
