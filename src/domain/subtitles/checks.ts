import { GLOSSARY_RULES, type GlossaryRule } from "../glossary-match";
import { plainText } from "./markup";
import { DEFAULT_FRAME_RATE, lineWidth, minGapMs, profileFor, type LanguageProfile } from "./profiles";

/**
 * The quality checks of a cue (docs/api.md, "Quality checks"; docs/decisions.md, "Quality checks"): named rules, each
 * with its bit in the `checks` mask a cue stores. The order of `CUE_RULES` is the bit order and is stored, so a rule
 * is only ever appended (bit 1 << its position), never reordered or removed.
 */

/** What a rule reads: the cue, the next cue of its track in time order (null for the last) and the track's profile. */
export interface CueContext {
  startMs: number;
  endMs: number;
  /** The cue's lines with styling tags removed. */
  lines: string[];
  next: { startMs: number } | null;
  profile: LanguageProfile;
  frameRate: number;
}

/** A rule a cue breaks: what was measured and the limit it passed, in the rule's unit (docs/api.md, "Quality checks"). */
export interface Finding {
  rule: CueRule;
  value: number;
  limit: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const chars = (lines: string[]) => lines.reduce((n, line) => n + [...line].length, 0);

type Measure = (c: CueContext) => { value: number; limit: number; broken: boolean } | null;

/**
 * The rules by name, in bit order. Each compares in whole numbers where it can, so a cue just inside a limit is never
 * reported for a rounding: `fast_reading` over characters × 1000 against limit × duration, the durations in ms × 6.
 */
const MEASURES = {
  // A zero-length cue has no reading speed: short_duration reports it.
  fast_reading: (c) => {
    const duration = c.endMs - c.startMs;
    if (duration <= 0) return null;
    const n = chars(c.lines);
    return {
      value: round2((n * 1000) / duration),
      limit: c.profile.charsPerSecond,
      broken: n * 1000 > c.profile.charsPerSecond * duration,
    };
  },
  long_lines: (c) => {
    const widest = Math.max(...c.lines.map((line) => lineWidth(line, c.profile)));
    return { value: widest, limit: c.profile.lineChars, broken: widest > c.profile.lineChars };
  },
  many_lines: (c) => ({ value: c.lines.length, limit: c.profile.lines, broken: c.lines.length > c.profile.lines }),
  short_duration: (c) => {
    const duration = c.endMs - c.startMs;
    return { value: duration, limit: round2(c.profile.minDurationMs), broken: duration * 6 < Math.round(c.profile.minDurationMs * 6) };
  },
  long_duration: (c) => {
    const duration = c.endMs - c.startMs;
    return { value: duration, limit: c.profile.maxDurationMs, broken: duration > c.profile.maxDurationMs };
  },
  // The gap after the cue, to the next one's start (negative when they overlap), reported on the earlier cue.
  small_gap: (c) => {
    if (!c.next) return null;
    const gap = c.next.startMs - c.endMs;
    return { value: gap, limit: round2(minGapMs(c.profile, c.frameRate)), broken: gap * c.frameRate < c.profile.gapFrames * 1000 };
  },
} satisfies Record<string, Measure>;

/** The reading rules, measured on the cue and its track alone: the first bits of the mask. */
export type CueRule = keyof typeof MEASURES;
export const CUE_RULES = Object.keys(MEASURES) as CueRule[];

/**
 * Every rule in stored bit order: the reading rules, then the glossary's (bits 64, 128, 256), found with the same
 * segment's texts in the series' term languages (src/domain/subtitles/glossary-checks.ts). Append only.
 */
export type CheckRule = CueRule | GlossaryRule;
export const CHECK_RULES: readonly CheckRule[] = [...CUE_RULES, ...GLOSSARY_RULES];

/** The bit of a rule in the stored mask. */
export const ruleBit = (rule: CheckRule) => 1 << CHECK_RULES.indexOf(rule);

/** The rules a mask holds, in rule order. */
export const rulesOf = (mask: number) => CHECK_RULES.filter((rule) => (mask & ruleBit(rule)) !== 0);

/** The bits of the reading rules and of the glossary's: a glossary change rewrites only the latter of a stored mask. */
export const READING_MASK = CUE_RULES.reduce((mask, rule) => mask | ruleBit(rule), 0);
export const GLOSSARY_MASK = GLOSSARY_RULES.reduce((mask, rule) => mask | ruleBit(rule), 0);
export const isGlossaryRule = (rule: CheckRule): rule is GlossaryRule => (GLOSSARY_RULES as readonly string[]).includes(rule);

export interface CheckedCue {
  startMs: number;
  endMs: number;
  text: string;
}

const contextOf = (cue: CheckedCue, next: CheckedCue | null, profile: LanguageProfile, frameRate: number): CueContext => ({
  startMs: cue.startMs,
  endMs: cue.endMs,
  lines: plainText(cue.text).split("\n"),
  next,
  profile,
  frameRate,
});

/** Every rule `cue` breaks, in rule order, `next` being the track's next cue in time order. */
export function cueFindings(cue: CheckedCue, next: CheckedCue | null, profile: LanguageProfile, frameRate = DEFAULT_FRAME_RATE): Finding[] {
  const c = contextOf(cue, next, profile, frameRate);
  const found: Finding[] = [];
  for (const rule of CUE_RULES) {
    const m = MEASURES[rule](c);
    if (m?.broken) found.push({ rule, value: m.value, limit: m.limit });
  }
  return found;
}

/**
 * What `rule` measures on a cue and its limit, whether broken or not (a stored finding is shown with the measure of
 * today's profile).
 */
export function measure(rule: CueRule, cue: CheckedCue, next: CheckedCue | null, profile: LanguageProfile, frameRate = DEFAULT_FRAME_RATE) {
  const m = MEASURES[rule](contextOf(cue, next, profile, frameRate));
  return { value: m?.value ?? 0, limit: m?.limit ?? 0 };
}

/** The mask of a cue's findings (0: it passes every rule). */
export const checksMask = (findings: readonly Finding[]) => findings.reduce((mask, f) => mask | ruleBit(f.rule), 0);

/**
 * The masks of a track's cues, given in time order (each one's next is the next with text), with the glossary's bits
 * of cue `index` from `glossaryMask` when given. Null for a blank text: it is no cue of the track, and nothing is checked.
 */
export function trackMasks(
  cues: readonly CheckedCue[],
  language: string,
  frameRate = DEFAULT_FRAME_RATE,
  glossaryMask?: (index: number) => number,
): Array<number | null> {
  const profile = profileFor(language);
  const masks: Array<number | null> = new Array(cues.length).fill(null);
  let next: CheckedCue | null = null;
  for (let i = cues.length - 1; i >= 0; i--) {
    if (!cues[i].text.trim()) continue;
    masks[i] = checksMask(cueFindings(cues[i], next, profile, frameRate)) | (glossaryMask?.(i) ?? 0);
    next = cues[i];
  }
  return masks;
}
