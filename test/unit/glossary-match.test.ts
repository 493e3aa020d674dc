// The glossary matcher (src/domain/glossary-match.ts; docs/decisions.md, "Glossary"): Korean names with their
// particles, languages without spaces, whole words in spaced languages (accented Latin, Arabic, Hebrew), and the
// findings a series' glossary gives on one translated cue.
import { describe, expect, it } from "vitest";
import { type GlossaryTermInput, glossaryFindings, matchForm, termOccurs } from "../../src/domain/glossary-match";

const ko = { language: "ko", caseSensitive: false };
const en = { language: "en", caseSensitive: false };

/** 50 Korean names, each with a longer name or word that starts with it and must not hold it. */
const KOREAN_NAMES: [string, string][] = [
  ["윤세리", "윤세리나"],
  ["리정혁", "리정혁진"],
  ["서단", "서단비"],
  ["구승준", "구승준호"],
  ["김민", "김민수"],
  ["박지", "박지성"],
  ["이준", "이준기"],
  ["최수", "최수빈"],
  ["정호", "정호연"],
  ["강동", "강동원"],
  ["조인", "조인성"],
  ["윤아", "윤아름"],
  ["한효", "한효주"],
  ["송혜", "송혜교"],
  ["전지", "전지현"],
  ["공유", "공유진"],
  ["현빈", "현빈우"],
  ["손예진", "손예진영"],
  ["김수현", "김수현준"],
  ["배수지", "배수지민"],
  ["이민호", "이민호준"],
  ["박보검", "박보검사"],
  ["남주혁", "남주혁신"],
  ["김태리", "김태리본"],
  ["유인나", "유인나무"],
  ["정해인", "정해인생"],
  ["이광수", "이광수박"],
  ["하지원", "하지원서"],
  ["송중기", "송중기억"],
  ["박서준", "박서준비"],
  ["김고은", "김고은행"],
  ["이성경", "이성경찰"],
  ["서현진", "서현진주"],
  ["신세경", "신세경제"],
  ["임시완", "임시완성"],
  ["안효섭", "안효섭씨름"],
  ["김지원", "김지원숭"],
  ["이종석", "이종석탄"],
  ["문채원", "문채원장"],
  ["장나라", "장나라별"],
  ["천송이", "천송이삭"],
  ["도민준", "도민준수"],
  ["차은상", "차은상자"],
  ["김탄", "김탄소"],
  ["구준표", "구준표범"],
  ["금잔디", "금잔디밭"],
  ["오수", "오수정"],
  ["소지섭", "소지섭섭"],
  ["나희도", "나희도시"],
  ["백이진", "백이진짜"],
];

const PARTICLE_FORMS = ["가", "는", "의", "에게", "한테", "를", "와", "도", "만", "씨", "에게는", "야", "이다", "한테서도"];

describe("Korean: a name with its particles, and no false positive", () => {
  it("has 50 distinct names", () => {
    expect(new Set(KOREAN_NAMES.map(([n]) => n)).size).toBe(50);
  });

  it.each(KOREAN_NAMES)("%s holds with every particle, alone and in a sentence", (name) => {
    expect(termOccurs(name, name, ko)).toBe(true);
    for (const p of PARTICLE_FORMS) {
      expect(termOccurs(`${name}${p}`, name, ko), `${name}${p}`).toBe(true);
      expect(termOccurs(`어제 ${name}${p} 왔어요.`, name, ko), `어제 ${name}${p} 왔어요.`).toBe(true);
    }
    expect(termOccurs(`"${name}!"`, name, ko)).toBe(true);
    expect(termOccurs(`${name}\n잘 지냈어?`, name, ko)).toBe(true);
  });

  it.each(KOREAN_NAMES)("%s is not in %s, nor after another syllable, nor glued to Latin", (name, longer) => {
    expect(termOccurs(longer, name, ko)).toBe(false);
    expect(termOccurs(`오늘 ${longer}가 왔다`, name, ko)).toBe(false);
    expect(termOccurs(`조${name}가 왔다`, name, ko)).toBe(false);
    expect(termOccurs(`${name}abc`, name, ko)).toBe(false);
  });

  it("a given name is not found inside the full name", () => {
    expect(termOccurs("윤세리가 왔다", "세리", ko)).toBe(false);
    expect(termOccurs("세리가 왔다", "세리", ko)).toBe(true);
  });

  it("a Latin term in Korean text takes particles too", () => {
    expect(termOccurs("BTS가 왔다", "BTS", ko)).toBe(true);
    expect(termOccurs("BTSX가 왔다", "BTS", ko)).toBe(false);
  });
});

describe("languages without spaces: any substring", () => {
  const ja = { language: "ja", caseSensitive: false };
  const zh = { language: "zh-Hans", caseSensitive: false };
  it("Japanese names with particles and honorifics", () => {
    expect(termOccurs("田中さんは来ました", "田中", ja)).toBe(true);
    expect(termOccurs("これは山田太郎の本です", "山田太郎", ja)).toBe(true);
    expect(termOccurs("サクラちゃんが好き", "サクラ", ja)).toBe(true);
    expect(termOccurs("山本さん", "山田", ja)).toBe(false);
  });
  it("Japanese width and voicing: half-width katakana matches full width, ブ is not フ", () => {
    expect(termOccurs("ｻｸﾗが好き", "サクラ", ja)).toBe(true);
    expect(termOccurs("ブラウンさん", "フラウン", ja)).toBe(false);
  });
  it("Chinese names", () => {
    expect(termOccurs("我是李明，你好", "李明", zh)).toBe(true);
    expect(termOccurs("王小明的朋友", "王小明", zh)).toBe(true);
    expect(termOccurs("我是李华", "李明", zh)).toBe(false);
  });
  it("a Latin term in Japanese text is still a whole word", () => {
    expect(termOccurs("Annさん", "Ann", ja)).toBe(true);
    expect(termOccurs("Anneさん", "Ann", ja)).toBe(false);
  });
  it("Thai", () => {
    expect(termOccurs("สวัสดีสมชายครับ", "สมชาย", { language: "th", caseSensitive: false })).toBe(true);
  });
});

describe("spaced languages: whole words only", () => {
  it("Ann is not in Anne or Hannah", () => {
    expect(termOccurs("Ann came home.", "Ann", en)).toBe(true);
    expect(termOccurs("Ann's house", "Ann", en)).toBe(true);
    expect(termOccurs("Anne came home.", "Ann", en)).toBe(false);
    expect(termOccurs("Hannah came home.", "Ann", en)).toBe(false);
    expect(termOccurs("(ANN)", "Ann", en)).toBe(true);
  });
  it("case counts only for a case-sensitive term", () => {
    expect(termOccurs("ann came", "Ann", { language: "en", caseSensitive: true })).toBe(false);
    expect(termOccurs("Ann came", "Ann", { language: "en", caseSensitive: true })).toBe(true);
  });
  it("multi-word terms across a line break and repeated spaces", () => {
    expect(termOccurs("Here is Yoon\nSe-ri  now", "Yoon Se-ri", en)).toBe(true);
    expect(termOccurs("Here is Yoon Se-rin", "Yoon Se-ri", en)).toBe(false);
  });
  it("accented Latin letters are letters, and accents fold", () => {
    const es = { language: "es", caseSensitive: false };
    expect(termOccurs("José llegó", "Jose", es)).toBe(true);
    expect(termOccurs("Josép llegó", "José", es)).toBe(false);
    expect(termOccurs("Ésa es Renée", "Renee", { language: "fr", caseSensitive: false })).toBe(true);
    expect(termOccurs("Renéel", "Renée", { language: "fr", caseSensitive: false })).toBe(false);
    expect(termOccurs("Zoë", "zoe", en)).toBe(true);
  });
  it("full-width Latin folds to plain", () => {
    expect(termOccurs("ＡＮＮ came", "Ann", en)).toBe(true);
  });
  it("Arabic words, with or without harakat", () => {
    const ar = { language: "ar", caseSensitive: false };
    expect(termOccurs("مرحبا محمد كيف حالك", "محمد", ar)).toBe(true);
    expect(termOccurs("مرحبا مُحَمَّد", "محمد", ar)).toBe(true);
    expect(termOccurs("مرحبا محمدون", "محمد", ar)).toBe(false);
    expect(termOccurs("أحمد، تعال", "أحمد", ar)).toBe(true);
  });
  it("Hebrew words", () => {
    const he = { language: "he", caseSensitive: false };
    expect(termOccurs("שלום דוד, מה שלומך", "דוד", he)).toBe(true);
    expect(termOccurs("שלום דודי", "דוד", he)).toBe(false);
  });
  it("hostile terms are text", () => {
    expect(termOccurs("a.*b", ".*", en)).toBe(true);
    expect(termOccurs("ab", ".*", en)).toBe(false);
    expect(termOccurs("x'; DROP TABLE glossary_terms; --", "DROP TABLE", en)).toBe(true);
    expect(termOccurs("anything", "", en)).toBe(false);
  });
  it("the match form collapses whitespace and folds", () => {
    expect(matchForm("  Ｙoon \r\n Se-ri ", false)).toBe("yoon se-ri");
    expect(matchForm("Yoon", true)).toBe("Yoon");
  });
});

const term = (id: number, over: Partial<GlossaryTermInput>): GlossaryTermInput => ({
  id,
  term: "윤세리",
  language: "ko",
  translations: {},
  status: "preferred",
  caseSensitive: false,
  ...over,
});

describe("findings of one translated cue", () => {
  const terms = [
    term(1, { translations: { en: "Yoon Se-ri", es: "Yoon Se-ri" } }),
    term(2, { term: "리정혁", translations: { en: "Ri Jeong-hyeok" } }),
    term(3, { term: "Seri", language: "en", status: "forbidden" }),
    term(4, { term: "iPhone", status: "do_not_translate" }),
    term(5, { term: "바보", status: "forbidden" }),
  ];
  const cue = (source: string, target: string) => ({ source, sourceLanguage: "ko", target, targetLanguage: "en" });

  it("no findings when the translation is there", () => {
    expect(glossaryFindings(cue("윤세리가 왔어요", "Yoon Se-ri is here"), terms)).toEqual([]);
  });
  it("missing_translation when the preferred translation is not in the target", () => {
    expect(glossaryFindings(cue("윤세리에게 말해", "Tell Seri"), terms)).toEqual([
      { rule: "missing_translation", termId: 1, term: "윤세리", text: "target", expected: "Yoon Se-ri" },
      { rule: "forbidden_term", termId: 3, term: "Seri", text: "target" },
    ]);
  });
  it("no finding for a term without a translation into the target language", () => {
    expect(glossaryFindings({ ...cue("리정혁이 왔다", "Hyeok llegó"), targetLanguage: "es" }, terms)).toEqual([]);
  });
  it("do_not_translate_changed when the term is not in the target as written", () => {
    expect(glossaryFindings(cue("iPhone을 샀어", "I bought an iphone"), terms)).toEqual([
      { rule: "do_not_translate_changed", termId: 4, term: "iPhone", text: "target", expected: "iPhone" },
    ]);
    expect(glossaryFindings(cue("iPhone을 샀어", "I bought an iPhone"), terms)).toEqual([]);
  });
  it("forbidden_term in the source", () => {
    expect(glossaryFindings(cue("바보야", "Fool"), terms)).toEqual([{ rule: "forbidden_term", termId: 5, term: "바보", text: "source" }]);
  });
  it("a term inside a longer word finds nothing", () => {
    expect(glossaryFindings(cue("윤세리나가 왔어요", "Serina is here"), terms)).toEqual([]);
  });
});
