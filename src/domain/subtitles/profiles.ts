/**
 * The reading guides of a subtitle track by its language (docs/api.md, "Quality checks"): one table, one row a
 * language, from the Netflix Timed Text Style Guides (the general requirements and each language's guide). A language
 * with a subtag (`pt-br`, `zh-tw`) takes its primary language's row; a language with no row takes `DEFAULT_PROFILE`.
 */
export interface LanguageProfile {
  /** Characters a second, over the cue's characters (line breaks and styling tags not counted). */
  charsPerSecond: number;
  /** Characters a line, counted by `lineWidth` (half for Latin characters when `halfWidthLatin`). */
  lineChars: number;
  /** Whether Latin letters, digits, spaces and punctuation count half a character on a line (Korean, Chinese, Japanese). */
  halfWidthLatin: boolean;
  lines: number;
  /** Shortest and longest duration of a cue, milliseconds (5/6 s and 7 s in every guide). */
  minDurationMs: number;
  maxDurationMs: number;
  /** Frames between consecutive cues, at the video's frame rate. */
  gapFrames: number;
  /** Where the figures come from, as docs/api.md states it. */
  source: string;
}

/** Every guide's duration and gap: 5/6 s to 7 s, 2 frames (Netflix, "Timed Text Style Guide: General Requirements"). */
const COMMON = { lines: 2, minDurationMs: 5000 / 6, maxDurationMs: 7000, gapFrames: 2 } as const;
const LATIN = { ...COMMON, lineChars: 42, halfWidthLatin: false } as const;

/**
 * The frame rate a gap is counted at when the video's is unknown: videos carry no frame rate here, so always this
 * (docs/decisions.md, "Quality checks").
 */
export const DEFAULT_FRAME_RATE = 24;

/** Languages with no row of their own: 17 characters a second, 42 a line (the general requirements' adult figures). */
export const DEFAULT_PROFILE: LanguageProfile = { ...LATIN, charsPerSecond: 17, source: "Netflix general requirements" };

/** The one home of the profiles, by primary language subtag. */
export const LANGUAGE_PROFILES: Readonly<Record<string, LanguageProfile>> = {
  // The English guide gives 17 to 20 for adult content; 20 is the limit, so only what passes every adult figure is reported.
  en: { ...LATIN, charsPerSecond: 20, source: "Netflix English (USA) Timed Text Style Guide, adult programs" },
  ko: { ...COMMON, charsPerSecond: 12, lineChars: 16, halfWidthLatin: true, source: "Netflix Korean Timed Text Style Guide" },
  zh: {
    ...COMMON,
    charsPerSecond: 9,
    lineChars: 16,
    halfWidthLatin: true,
    source: "Netflix Chinese (Simplified and Traditional) Timed Text Style Guides",
  },
  ja: { ...COMMON, charsPerSecond: 4, lineChars: 13, halfWidthLatin: true, source: "Netflix Japanese Timed Text Style Guide" },
};

/** The profile of a track's language: its own row, its primary language's (`zh-tw` → `zh`), else the default. */
export function profileFor(language: string): LanguageProfile {
  const primary = language.toLowerCase().split("-")[0];
  return Object.hasOwn(LANGUAGE_PROFILES, primary) ? LANGUAGE_PROFILES[primary] : DEFAULT_PROFILE;
}

/**
 * Below U+0250: Basic Latin (letters, digits, space, ASCII punctuation), Latin-1 and Latin Extended-A and -B, the
 * characters the Korean, Chinese and Japanese guides count as half a character on a line.
 */
const isHalfWidth = (codePoint: number) => codePoint < 0x250;

/** A line's width by the profile: characters, each Latin one half when the profile says so. */
export function lineWidth(line: string, profile: Pick<LanguageProfile, "halfWidthLatin">): number {
  let width = 0;
  for (const ch of line) width += profile.halfWidthLatin && isHalfWidth(ch.codePointAt(0)!) ? 0.5 : 1;
  return width;
}

/** The shortest gap between two cues at `frameRate`, milliseconds. */
export const minGapMs = (profile: Pick<LanguageProfile, "gapFrames">, frameRate = DEFAULT_FRAME_RATE) =>
  (profile.gapFrames * 1000) / frameRate;
