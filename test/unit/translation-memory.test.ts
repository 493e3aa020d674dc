// The translation memory's similarity (docs/api.md, "Translation memory (v4)"): match = round(100 × (1 − edits /
// longer length)) over search's tokens, 100 only for equal normalised texts, 101 with equal neighbours, under 75 dropped.
import { describe, expect, it } from "vitest";
import {
  bestDistinct,
  boundedEditDistance,
  candidateGroups,
  compareMatches,
  contextMatches,
  similarity,
  tmTokens,
} from "../../src/domain/translation-memory";
import { fastest } from "../helpers/timing";

const score = (a: string, b: string) => similarity(tmTokens(a), tmTokens(b));

/** [text, unit, match] per case of the formula: the score is symmetric, so each is checked both ways. */
const SCORES: Record<string, Array<[string, string, number | null]>> = {
  "is 100 for the same text, whatever the case, width, accents and punctuation": [
    ["Previously on Crash Landing", "Previously on Crash Landing", 100],
    ["Previously on Crash Landing", "previously ON crash landing...", 100],
    ["Café au lait!", "CAFE AU LAIT", 100],
    ["ＴＯＫＹＯ tower", "tokyo Tower", 100],
    ["Where are you going?", "Where are you going!", 100],
    ["Straße", "STRASSE", 100],
  ],
  "is 90 for one word in ten changed and 80 for one in five": [
    ["one two three four five six seven eight nine ten", "one two three four five six seven eight nine eleven", 90],
    ["one two three four five six seven eight nine ten", "one two three four five six seven eight nine", 90],
    ["I will see you tomorrow", "I will see you today", 80],
    ["I will see you tomorrow", "I will see you", 80],
  ],
  "is 75 at a quarter of the words changed and null under 75": [
    ["I love you so", "I love you", 75],
    ["I love you so much", "I love you", null],
    ["the cat sat on the mat", "a dog ran in the park", null],
  ],
  // One syllable in ten: 90; one in five: 80; a space does not count (each syllable is a token).
  "counts characters in Korean and Japanese, where words are not spaced": [
    ["사랑해요", "사랑해요", 100],
    ["지난 이야기에서 우리는", "지난 이야기에서 우리가", 90],
    ["사랑 해요", "사랑해요", 100],
    ["정말 고마워요", "정말 고마워", 83],
    ["東京に行きたい", "東京に行きたい", 100],
    ["東京に行きたい", "東京へ行きたい", 86],
    ["東京に行きたい", "大阪に帰りたい", null],
    // Half-width katakana are the full-width ones.
    ["ｶﾌｪに行こう", "カフェに行こう", 100],
  ],
};

describe("similarity", () => {
  for (const [name, cases] of Object.entries(SCORES)) {
    it(name, () => {
      for (const [text, unit, match] of cases) {
        expect(score(text, unit), `${text} / ${unit}`).toBe(match);
        expect(score(unit, text), `${unit} / ${text}`).toBe(match);
      }
    });
  }

  it("cuts text without spaces into characters", () => {
    expect(tmTokens("사랑해요")).toEqual(["사", "랑", "해", "요"]);
  });

  it("is never 100 for texts that differ, however long", () => {
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const edited = [...long.slice(0, 299), "other"];
    expect(similarity(long, long)).toBe(100);
    expect(similarity(long, edited)).toBe(99);
  });

  it("has no match for a text without a letter or a digit", () => {
    expect(tmTokens("...!?")).toEqual([]);
    expect(score("...", "...")).toBeNull();
  });

  it("stays fast at the longest texts: 500 characters against 500", () => {
    const a = "가나다라마바사아자차카타파하".repeat(36).slice(0, 500);
    const b = [...a].reverse().join("");
    const fifty = () => {
      for (let i = 0; i < 50; i++) score(a, b);
    };
    expect(fastest(fifty, { limitMs: 2000 }).ms).toBeLessThan(2000);
    expect(score(a, a)).toBe(100);
  });
});

describe("boundedEditDistance", () => {
  it("is the edit distance up to the bound, and bound + 1 past it", () => {
    expect(boundedEditDistance([1, 2, 3], [1, 2, 3], 2)).toBe(0);
    expect(boundedEditDistance([1, 2, 3], [1, 3], 2)).toBe(1);
    expect(boundedEditDistance([1, 2, 3, 4], [4, 3, 2, 1], 4)).toBe(4);
    expect(boundedEditDistance([1, 2, 3, 4], [4, 3, 2, 1], 2)).toBe(3);
    expect(boundedEditDistance([1, 2, 3, 4, 5, 6], [1], 2)).toBe(3);
    expect(boundedEditDistance([], [1, 2], 5)).toBe(2);
  });
});

describe("contextMatches", () => {
  it("compares the neighbours normalised; a missing neighbour is an empty text", () => {
    expect(contextMatches({ previous: "Hello!", next: "Bye." }, { previous: "hello", next: "bye" })).toBe(true);
    expect(contextMatches({ previous: "Hello" }, { previous: "hello", next: null })).toBe(true);
    expect(contextMatches({ next: "" }, { previous: null, next: null })).toBe(true);
    expect(contextMatches({ previous: "Hello" }, { previous: "Goodbye", next: null })).toBe(false);
    expect(contextMatches({}, { previous: "Hello", next: null })).toBe(false);
  });
});

describe("candidateGroups", () => {
  it("deals the distinct tokens into floor(n/4) + 1 groups, a long word first in each", () => {
    expect(candidateGroups(["i", "love", "you"])).toEqual([["love", "you", "i"]]);
    expect(candidateGroups(["the", "weather", "is", "nice", "in", "tokyo", "the"])).toEqual([
      ["weather", "nice", "is"],
      ["tokyo", "the", "in"],
    ]);
    expect(candidateGroups(["사", "랑", "해", "요", "사"])).toEqual([
      ["사", "해"],
      ["랑", "요"],
    ]);
    expect(candidateGroups([])).toEqual([]);
  });

  it("puts every token of a unit with at most floor(n/4) of them missing in some group", () => {
    const tokens = "a b c d e f g h i j k l".split(" ");
    const groups = candidateGroups(tokens);
    expect(groups).toHaveLength(4);
    // Any three missing tokens leave a group whole.
    for (const missing of [
      ["a", "b", "c"],
      ["a", "e", "i"],
      ["d", "h", "l"],
    ]) {
      expect(groups.some((g) => g.every((t) => !missing.includes(t)))).toBe(true);
    }
  });
});

describe("compareMatches", () => {
  it("orders by match, then the series, then the newest, then the id", () => {
    const m = (id: number, match: number, scope: "series" | "catalogue", updatedAt: number) => ({ id, match, scope, updatedAt });
    const sorted = [
      m(1, 90, "catalogue", 5),
      m(2, 90, "series", 1),
      m(3, 101, "catalogue", 1),
      m(4, 90, "series", 3),
      m(5, 90, "series", 3),
    ]
      .sort(compareMatches)
      .map((x) => x.id);
    expect(sorted).toEqual([3, 4, 5, 2, 1]);
  });
});

describe("bestDistinct", () => {
  const m = (id: number, match: number, source: string, target: string, updatedAt = id) => ({
    id,
    match,
    scope: "catalogue" as const,
    updatedAt,
    source,
    target,
  });

  it("keeps each translation of a source once, at its best rank, and the other translations", () => {
    const all = [
      m(1, 100, "지난 이야기", "Previously on"),
      m(2, 100, "지난  이야기!", "Previously on "),
      m(3, 100, "지난 이야기", "Last time on"),
      m(4, 90, "지난 이야기에서", "Previously on"),
    ];
    expect(bestDistinct(all, 5).map((x) => x.id)).toEqual([3, 2, 4]);
    expect(bestDistinct(all, 2).map((x) => x.id)).toEqual([3, 2]);
  });
});
