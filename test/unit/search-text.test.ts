import { describe, expect, it } from "vitest";
import { containsPhrase, highlights } from "../../src/domain/search-highlight";
import { indexForm, parseQuery, type ParsedQuery } from "../../src/domain/search-text";

import { fastest } from "../helpers/timing";
function parsed(q: string): ParsedQuery {
  const out = parseQuery(q);
  if ("error" in out) throw new Error(`${JSON.stringify(q)} refused: ${out.error}`);
  return out;
}
const terms = (q: string) => parsed(q).terms.map((t) => `${t.kind}:${t.text}`);
/** The marked slices of `text`, to read a test by eye; `highlights` itself is asserted by offsets where they matter. */
const marked = (text: string, q: string) => highlights(text, parsed(q)).map(([s, e]) => text.slice(s, e));

describe("indexForm", () => {
  it("is null for text the tokenizer already reads right: ASCII and accented Latin", () => {
    expect(indexForm("Hello, world! It's 10 o'clock.")).toBeNull();
    expect(indexForm("Café au lait, ÁRBOL, naïve, İstanbul, Łódź, Øresund")).toBeNull();
    expect(indexForm("")).toBeNull();
  });

  it("puts every character of a script without spaces between spaces, once", () => {
    expect(indexForm("사랑해요")).toBe("사 랑 해 요");
    expect(indexForm("I love 東京 tower")).toBe("I love 東 京 tower");
    expect(indexForm("東京に行く。")).toBe("東 京 に 行 く 。");
    expect(indexForm("上海ラブストーリー")).toBe("上 海 ラ ブ ス ト ー リ ー");
    expect(indexForm("왕의 비밀 정원")).toBe("왕 의 비 밀 정 원");
    expect(indexForm("ภาษาไทย")).toBe("ภ า ษ า ไ ท ย");
  });

  it("folds width, ligatures, ß and the combining marks the tokenizer would split words at", () => {
    expect(indexForm("ＡＢＣ 123")).toBe("abc 123");
    expect(indexForm("ｶﾞｷ")).toBe("ガ キ");
    expect(indexForm("ﬁne")).toBe("fine");
    expect(indexForm("Die Straße")).toBe("Die Strasse");
    expect(indexForm("كَتَبَ الوَلَدُ")).toBe("كتب الولد");
    expect(indexForm("cafe\u0301")).toBe("cafe");
    expect(indexForm("Σίσυφος")).toBe("σισυφοσ");
  });
});

describe("parseQuery: grammar", () => {
  it("makes every spaced word required, the last one also a prefix", () => {
    expect(parsed("the weath")).toEqual({
      match: '"the" "weath"*',
      terms: [
        { text: "the", kind: "word" },
        { text: "weath", kind: "prefix" },
      ],
    });
  });

  it("makes text in double quotes a phrase, never a prefix", () => {
    expect(parsed('"good morning"')).toEqual({ match: '"good morning"', terms: [{ text: "good morning", kind: "phrase" }] });
    expect(terms('say "Good  Morning" to')).toEqual(["word:say", "phrase:good morning", "prefix:to"]);
    expect(terms('"I love 東京"')).toEqual(["phrase:i love 東京"]);
    expect(parsed('"I love 東京"').match).toBe('"i love 東 京"');
  });

  it("treats an unclosed quote as words", () => {
    expect(terms('"good morn')).toEqual(["word:good", "prefix:morn"]);
  });

  it("makes a run of unspaced characters one phrase of single characters, one character included", () => {
    expect(parsed("사랑")).toEqual({ match: '"사 랑"', terms: [{ text: "사랑", kind: "run" }] });
    expect(parsed("猫").match).toBe('"猫"');
    expect(terms("사랑 해요")).toEqual(["run:사랑", "run:해요"]);
    expect(terms("I love 東京 tower")).toEqual(["word:i", "word:love", "run:東京", "prefix:tower"]);
    expect(terms("東京tower")).toEqual(["run:東京", "prefix:tower"]);
    expect(parsed("ﾗﾌﾞ").match).toBe('"ラ ブ"');
  });

  it("folds case, accents, width and ß as the index does", () => {
    expect(terms("Café ÁRBOL")).toEqual(["word:cafe", "prefix:arbol"]);
    expect(terms("ＴＯＫＹＯ")).toEqual(["prefix:tokyo"]);
    expect(terms("Straße")).toEqual(["prefix:strasse"]);
    expect(terms("الوَلَدُ")).toEqual(["prefix:الولد"]);
  });
});

describe("parseQuery: hostile input", () => {
  it("leaves no FTS5 syntax acting: operators are words, symbols separators", () => {
    expect(parsed("NEAR(a b)").match).toBe('"near" "a" "b"*');
    expect(parsed("a OR b").match).toBe('"a" "or" "b"*');
    expect(parsed("a AND NOT b").match).toBe('"a" "and" "not" "b"*');
    expect(parsed("^a").match).toBe('"a"*');
    expect(parsed("col:a").match).toBe('"col" "a"*');
    expect(parsed("a* -b +c {x y}").match).toBe('"a" "b" "c" "x" "y"*');
    expect(parsed('x"y').match).toBe('"x" "y"*');
    expect(parsed("%00").match).toBe('"00"*');
  });

  it("refuses what has no letter or digit", () => {
    for (const q of ['"', '""', "*", "(", "^", "-", '" * "', "!?", "😀", "\u0301"]) {
      expect(parseQuery(q), q).toEqual({ error: "must contain a letter or a digit" });
    }
  });

  it("refuses empty, too long, lone surrogates and control characters", () => {
    expect(parseQuery("")).toEqual({ error: "must not be empty" });
    expect(parseQuery(" \t\n ")).toEqual({ error: "must not be empty" });
    expect(parseQuery("a".repeat(201))).toEqual({ error: "must be at most 200 characters" });
    expect(parseQuery("😀".repeat(201))).toEqual({ error: "must be at most 200 characters" });
    expect(parseQuery(`  ${"a".repeat(200)}  `)).toHaveProperty("match");
    expect(parseQuery("😀a".repeat(100))).toHaveProperty("match");
    for (const q of ["\uD800", "a\uD800b", "a\uDC00", "\uDC00\uD800"]) {
      expect(parseQuery(q), q).toEqual({ error: "must be valid Unicode (it has a lone surrogate)" });
    }
    for (const q of ["a\u0000b", "a\tb", "a\u001Bb", "a\u007Fb", "a\u0085b"]) {
      expect(parseQuery(q), JSON.stringify(q)).toEqual({ error: "must not contain control characters" });
    }
  });

  it("keeps 200 copies of one CJK character one phrase", () => {
    const q = parsed("猫".repeat(200));
    expect(q.terms).toEqual([{ text: "猫".repeat(200), kind: "run" }]);
    expect(q.match).toBe(`"${Array(200).fill("猫").join(" ")}"`);
  });
});

describe("highlights", () => {
  it("finds words of scripts without spaces anywhere, exactly their characters", () => {
    expect(highlights("사랑해요", parsed("사랑"))).toEqual([[0, 2]]);
    expect(highlights("用户登录", parsed("用户"))).toEqual([[0, 2]]);
    expect(highlights("東京に行く", parsed("東京"))).toEqual([[0, 2]]);
    expect(highlights("猫が好き", parsed("猫"))).toEqual([[0, 1]]);
    expect(highlights("上海ラブストーリー", parsed("ラブ"))).toEqual([[2, 4]]);
    expect(highlights("上海爱情故事", parsed("上海"))).toEqual([[0, 2]]);
    expect(highlights("上海爱情故事", parsed("爱情"))).toEqual([[2, 4]]);
    expect(highlights("上海爱情故事", parsed("上海 故事"))).toEqual([
      [0, 2],
      [4, 6],
    ]);
    expect(highlights("왕의 비밀 정원", parsed("왕"))).toEqual([[0, 1]]);
    expect(highlights("I love 東京 tower", parsed("東京"))).toEqual([[7, 9]]);
    expect(highlights("I love 東京 tower", parsed("love tow"))).toEqual([
      [2, 6],
      [10, 13],
    ]);
    expect(highlights("사랑해요", parsed("랑해요요"))).toEqual([]);
    // A partial match that restarts inside itself.
    expect(highlights("上上上海", parsed("上上海"))).toEqual([[1, 4]]);
    expect(highlights("ab ab ab cd", parsed('"ab ab cd"'))).toEqual([[3, 11]]);
    expect(highlights("ab abab abac", parsed('"ab ab" ab'))).toEqual([
      [0, 2],
      [3, 5],
      [8, 10],
    ]);
  });

  it("merges matches that overlap or touch", () => {
    expect(highlights("上海爱情故事", parsed("上海 爱情"))).toEqual([[0, 4]]);
    expect(highlights("上海爱情故事", parsed("上海爱 海爱情"))).toEqual([[0, 4]]);
  });

  it("matches spaced words whole, the prefix term at the start of a word", () => {
    expect(marked("category dog cat", "cat dog")).toEqual(["dog", "cat"]);
    expect(highlights("the weather is weathered, then", parsed("the weath"))).toEqual([
      [0, 3],
      [4, 9],
      [15, 20],
    ]);
    expect(marked("good morning, good evening morning", '"good morning"')).toEqual(["good morning"]);
    expect(marked("the mornings", '"the morning"')).toEqual([]);
  });

  it("folds case, accents, width and ß as the index does", () => {
    expect(highlights("Café", parsed("cafe"))).toEqual([[0, 4]]);
    expect(highlights("el ARBOL", parsed("árbol"))).toEqual([[3, 8]]);
    expect(highlights("ＴＯＫＹＯ tower", parsed("tokyo"))).toEqual([[0, 5]]);
    expect(highlights("Tokyo", parsed("ＴＯＫＹＯ"))).toEqual([[0, 5]]);
    // ß is "ss" on both sides: "strasse" finds "Straße", and "straße" finds "STRASSE".
    expect(highlights("Die Straße", parsed("strasse"))).toEqual([[4, 10]]);
    expect(highlights("DIE STRASSE", parsed("straße"))).toEqual([[4, 11]]);
    expect(highlights("Die Straße", parsed("strase"))).toEqual([]);
  });

  it("reads right-to-left text as spaced words, Arabic harakat dropped on both sides", () => {
    const arabic = "كَتَبَ الوَلَدُ الدَّرْسَ";
    const word = "الوَلَدُ";
    const at = arabic.indexOf(word);
    expect(highlights(arabic, parsed("الولد"))).toEqual([[at, at + word.length]]);
    expect(highlights("كتب الولد", parsed(word))).toEqual([[4, 9]]);
    expect(highlights("שלום עולם", parsed("עולם"))).toEqual([[5, 9]]);
    expect(highlights("שלום עולם", parsed("עול"))).toEqual([[5, 8]]);
  });

  it("answers code-unit offsets of the original text when folding changes lengths", () => {
    expect(highlights("ﬁne fine", parsed("fine"))).toEqual([
      [0, 3],
      [4, 8],
    ]);
    // A prefix that ends inside a ligature marks the whole ligature.
    expect(highlights("ﬁne", parsed("f"))).toEqual([[0, 1]]);
    expect(highlights("İstanbul", parsed("istanbul"))).toEqual([[0, 8]]);
    expect(highlights("😀😀 café", parsed("cafe"))).toEqual([[5, 9]]);
    expect(highlights("cafe\u0301 ok", parsed("café"))).toEqual([[0, 5]]);
    expect(highlights("𝐀𝐁𝐂 abc", parsed("abc"))).toEqual([
      [0, 6],
      [7, 10],
    ]);
    expect(highlights("👨‍👩‍👧 사랑해", parsed("사랑"))).toEqual([[9, 11]]);
    expect(highlights("ﾗﾌﾞｽﾄｰﾘｰ", parsed("ラブ"))).toEqual([[0, 3]]);
    // Hangul written as conjoining jamo (decomposed, as some systems save it) is the syllables it spells.
    const jamo = "사랑해요".normalize("NFD");
    expect(jamo.length).toBe(9);
    expect(highlights(jamo, parsed("사랑"))).toEqual([[0, 5]]);
    expect(indexForm(jamo)).toBe("사 랑 해 요");
    expect(highlights("ὁ Σίσυφος", parsed("σισυφοσ"))).toEqual([[2, 9]]);
  });
});

describe("containsPhrase", () => {
  it("is true only when the whole query appears contiguously, in order", () => {
    expect(containsPhrase("I said Good Morning to you", parsed("good morning"))).toBe(true);
    expect(containsPhrase("good, morning", parsed("good morning"))).toBe(true);
    expect(containsPhrase("morning good", parsed("good morning"))).toBe(false);
    expect(containsPhrase("good sunny morning", parsed("good morning"))).toBe(false);
    expect(containsPhrase("the weather", parsed("the weath"))).toBe(true);
    expect(containsPhrase("weather the", parsed("the weath"))).toBe(false);
    expect(containsPhrase("上海爱情故事", parsed("海爱"))).toBe(true);
    expect(containsPhrase("上海爱情故事", parsed("海 情"))).toBe(false);
    expect(containsPhrase("I love 東京 tower", parsed('love "東京 tower"'))).toBe(true);
  });
});

/** Ten thousand different Han characters: nothing a remembered fold can spare. */
const DISTINCT_CJK = Array.from({ length: 10_000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");

describe("pathological input, each call under 50 ms", () => {
  const cases: Array<[string, () => unknown]> = [
    ["10,000-character query", () => expect(parseQuery("a".repeat(10_000))).toEqual({ error: "must be at most 200 characters" })],
    ["10,000 quotes", () => expect(parseQuery('"'.repeat(10_000))).toHaveProperty("error")],
    ["10,000 lone surrogates", () => expect(parseQuery("\uD800".repeat(10_000))).toHaveProperty("error")],
    ["200 quotes and letters", () => parsed('"a'.repeat(100))],
    ["200 one-letter words", () => parsed("a ".repeat(100))],
    ["200 combining marks on one letter", () => parsed(`e${"\u0301".repeat(199)}`)],
    ["a 200-character run in 10,000 of the same", () => highlights("猫".repeat(10_000), parsed("猫".repeat(200)))],
    ["100 words in 10,000 words", () => highlights("a ".repeat(10_000), parsed("a ".repeat(100)))],
    ["a near miss repeated", () => highlights("ab".repeat(5_000), parsed("ab".repeat(99) + "c"))],
    ["10,000 combining marks", () => highlights(`e${"\u0301".repeat(10_000)}`, parsed("e"))],
    ["phrase search in 10,000 words", () => containsPhrase("a ".repeat(10_000), parsed("a ".repeat(99) + "b"))],
    ["index form of 10,000 CJK", () => expect(indexForm("猫".repeat(10_000))?.length).toBe(19_999)],
    ["10,000 different CJK characters", () => highlights(DISTINCT_CJK, parsed("\u4E00\u4E01 \u6000"))],
    ["index form of 10,000 different CJK characters", () => indexForm(DISTINCT_CJK)],
    ["index form of 10,000 marks", () => indexForm(`ك${"\u064E".repeat(10_000)}`)],
  ];

  it.each(cases)("%s", (_name, work) => {
    expect(fastest(work, { limitMs: 50 }).ms).toBeLessThan(50);
  });

  it("has a clock that moves while a call runs (so the figures above mean something)", () => {
    const started = performance.now();
    let spin = 0;
    while (performance.now() - started < 5 && spin < 1e9) spin++;
    expect(performance.now() - started).toBeGreaterThanOrEqual(5);
  });
});
