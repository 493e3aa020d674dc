/**
 * Random cue lists for the round-trip properties: whole-centisecond times (SSA's unit) up to 10 h, zero-length and
 * overlapping cues, in any order; texts of 1-3 lines in many scripts with `<i> <b> <u>` properly nested.
 */
import fc from "fast-check";
import type { CueInput } from "../../../src/domain/subtitles/cue";

/**
 * Words a subtitle holds: CJK, Arabic and Hebrew (right to left), emoji with ZWJ sequences and skin tones, quotes, and
 * `&`, `<`, `>` that form no tag (a `<` is always followed by a digit, so `< b >` cannot occur), `&amp;` as five
 * characters of text. No `:` between digits, no `{` or `\`, and so no line starting with a digit holds `-->`: such a
 * line is a timing or an SSA override, which no format can carry as text (the corpus has those).
 */
const WORDS = [
  "Hello",
  "well",
  "Don't",
  "“Really?”",
  '"Run!"',
  "'quiet'",
  "l'été",
  "naïve",
  "42",
  "7",
  "東京",
  "你好吗",
  "안녕하세요",
  "ありがとう",
  "مرحبا",
  "بالعالم",
  "שלום",
  "עולם",
  "١٢٣",
  "👍🏽",
  "👩‍👩‍👧",
  "🏳️‍🌈",
  "❤️",
  "🧑🏿‍🚀",
  "😊",
  "Q&A",
  "&amp;",
  "Tom&Jerry",
  "<3",
  "< 5",
  ">",
  "a>b",
  "->",
  "1 < 2",
];
const word = fc.constantFrom(...WORDS);

/**
 * Between words on a line: one space, two (TTML keeps them only with xml:space="preserve"), or none, so two groups
 * of one style can touch (`<i>a</i><i>b</i>`).
 */
const space = fc.constantFrom(" ", " ", " ", "  ", "");

type Tag = "i" | "b" | "u";
const TAGS: Tag[] = ["i", "b", "u"];

/** Words and styled groups on one line; a group starts and ends with a word, and never holds its own tag again. */
function lineContent(depth: number, allowed: Tag[]): fc.Arbitrary<string> {
  const group =
    depth > 0 && allowed.length > 0
      ? fc.constantFrom(...allowed).chain((tag) =>
          lineContent(
            depth - 1,
            allowed.filter((t) => t !== tag),
          ).map((inner) => `<${tag}>${inner}</${tag}>`),
        )
      : word;
  const item = fc.oneof({ weight: 3, arbitrary: word }, { weight: 1, arbitrary: group });
  return fc
    .tuple(fc.array(item, { minLength: 1, maxLength: 4 }), fc.array(space, { minLength: 3, maxLength: 3 }))
    .map(([items, spaces]) => items.map((it, k) => (k === 0 ? it : spaces[k % 3] + it)).join(""));
}

/** A line, sometimes as a dialogue line with a leading dash, sometimes indented. */
const line = (allowed: Tag[]) =>
  fc.tuple(fc.constantFrom("", "", "", "- ", "-", "  "), lineContent(2, allowed)).map(([lead, content]) => lead + content);

/** Between lines: a line end, sometimes after trailing spaces, or around a line of white space only (which goes). */
const lineBreak = fc.constantFrom("\n", "\n", "\n", " \n", "\n   \n", "\n\t\n");

/** 1-3 lines, sometimes all in one tag (italics over two lines is the common case). */
export const cueText: fc.Arbitrary<string> = fc.option(fc.constantFrom(...TAGS), { nil: undefined }).chain((outer) =>
  fc
    .tuple(
      fc.array(line(TAGS.filter((t) => t !== outer)), { minLength: 1, maxLength: 3 }),
      fc.array(lineBreak, { minLength: 2, maxLength: 2 }),
    )
    .map(([lines, breaks]) => {
      const text = lines.map((l, k) => (k === 0 ? l : breaks[k - 1] + l)).join("");
      return outer ? `<${outer}>${text}</${outer}>` : text;
    }),
);

const TEN_HOURS_CS = 3_600_000;

export const cue: fc.Arbitrary<CueInput> = fc
  .tuple(
    fc.integer({ min: 0, max: TEN_HOURS_CS }),
    fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.integer({ min: 1, max: 1_000 }) }),
    cueText,
  )
  .map(([start, length, text]) => ({ startMs: start * 10, endMs: (start + length) * 10, text }));

export const cueList = fc.array(cue, { minLength: 1, maxLength: 50 });

/** Cues with distinct starts: an import stores cues of one start as one segment. */
export const distinctStarts = fc.uniqueArray(cue, { minLength: 1, maxLength: 20, selector: (c) => c.startMs });
