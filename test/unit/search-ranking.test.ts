import { describe, expect, it } from "vitest";
import { SEARCH_MAX_WORDS, matchTier, searchQuery } from "../../src/domain/search";
import { containsEveryTerm, startsWithPhrase, textTokens } from "../../src/domain/search-highlight";
import { matchExpression, parseQuery, type ParsedQuery } from "../../src/domain/search-text";

// v4 title search's use of the search-text module (docs/decisions.md, "Search (v4)"): which terms it keeps, the
// prefix rule of its two forms, and the ranking tiers over folded tokens.
function query(term: string, prefixLast = false): ParsedQuery {
  const q = searchQuery(term, prefixLast);
  if (!q) throw new Error(`${JSON.stringify(term)} has no terms`);
  return q;
}

describe("matchExpression", () => {
  it("is parseQuery's match for the same terms", () => {
    for (const q of ['上海 love "secret garden" ラブ', "gangnam sty", "왕"]) {
      const parsed = parseQuery(q);
      if ("error" in parsed) throw new Error(parsed.error);
      expect(matchExpression(parsed.terms)).toBe(parsed.match);
    }
  });
});

describe("searchQuery", () => {
  it("keeps words whole in the full form and makes the last word a prefix in the short form", () => {
    expect(query("gangnam style").match).toBe('"gangnam" "style"');
    expect(query("gangnam sty", true).match).toBe('"gangnam" "sty"*');
  });

  it("reads a run of unspaced characters as a phrase of single characters, never a prefix", () => {
    expect(query("上海爱情").match).toBe('"上 海 爱 情"');
    expect(query("왕의 비밀", true).match).toBe('"왕 의" "비 밀"');
    expect(query("上海 love", true).match).toBe('"上 海" "love"*');
  });

  it("folds width, case and accents, and reads control characters as spaces", () => {
    expect(query("ＴＯＫＹＯ Café").match).toBe('"tokyo" "cafe"');
    expect(query("zircon\u0000shown").match).toBe('"zircon" "shown"');
  });

  it(`keeps the first ${SEARCH_MAX_WORDS} terms, and has none for a term without letters or digits`, () => {
    expect(query("a b c d e f g h i j").terms.map((t) => t.text)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
    expect(searchQuery("!?!", false)).toBeNull();
    expect(searchQuery("*", true)).toBeNull();
  });
});

describe("ranking tiers", () => {
  const TABLE: Array<[string, string, boolean, ReturnType<typeof matchTier>]> = [
    ["Gangnam Style", "gangnam style", false, "exact"],
    ["Gangnam Beauty", "gangnam", false, "starts"],
    ["Flower of Gangnam", "gangnam", false, "words"],
    ["Flower of Gangnam", "flower of gan", true, "starts"],
    ["Moonlight Bakery", "bakery moonlight", false, "words"],
    ["Moonlight", "moonlight bakery", false, "other"],
    ["上海爱情故事", "上海爱情故事", false, "exact"],
    ["上海爱情故事", "上海", false, "starts"],
    ["上海爱情故事", "爱情", false, "words"],
    ["上海爱情故事", "海上", false, "other"],
    ["上海ラブストーリー", "ラブ", false, "words"],
    ["왕의 비밀 정원", "왕의 비밀 정원", false, "exact"],
    ["왕의 비밀 정원", "왕", true, "starts"],
    ["왕의 비밀 정원", "정원 비밀", false, "words"],
    ["ＴＯＫＹＯ Nights", "tokyo nights", false, "exact"],
    ["Ame\u0301lie in Paris", "AMÉLIE", false, "starts"],
  ];
  for (const [title, term, short, tier] of TABLE) {
    it(`${title} for ${JSON.stringify(term)}${short ? " (c=)" : ""}: ${tier}`, () => {
      expect(matchTier(title, query(term, short))).toBe(tier);
    });
  }

  it("compares tokens as the index holds them", () => {
    expect(textTokens("上海 Love ＴＶ")).toEqual(["上", "海", "love", "tv"]);
    expect(startsWithPhrase("上海爱情故事", query("上海爱"))).toBe(true);
    expect(startsWithPhrase("新上海", query("上海"))).toBe(false);
    expect(containsEveryTerm("新上海", query("上海"))).toBe(true);
    expect(containsEveryTerm("Gangnam Style", query("gangnam sty"))).toBe(false);
    expect(containsEveryTerm("Gangnam Style", query("gangnam sty", true))).toBe(true);
  });
});
