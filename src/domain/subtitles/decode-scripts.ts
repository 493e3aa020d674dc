/**
 * What decoded subtitle text should look like, for decode.ts: the `encoding=` labels, the legacy code pages each
 * import language suggests, and the plausibility check that tells a right code page from mojibake.
 */
/** `encoding=` labels → canonical name, after the WHATWG Encoding Standard (iso-8859-1 decodes as windows-1252). */
const LABELS: Record<string, string> = {};
const NAMES =
  "utf-8 utf-16le utf-16be utf-32le utf-32be euc-kr shift_jis euc-jp iso-2022-jp gb18030 gbk big5 koi8-r koi8-u ibm866 " +
  "x-mac-cyrillic windows-874 iso-8859-8-i";
const ALIASES =
  "utf8=utf-8 utf-16=utf-16le utf-32=utf-32le cp949=euc-kr ks_c_5601-1987=euc-kr uhc=euc-kr shift-jis=shift_jis " +
  "sjis=shift_jis windows-31j=shift_jis cp932=shift_jis gb2312=gbk cp936=gbk big5-hkscs=big5 cp950=big5 cp866=ibm866 " +
  "cp874=windows-874 tis-620=windows-874 iso-8859-1=windows-1252 latin1=windows-1252 iso-8859-9=windows-1254";
for (const name of NAMES.split(" ")) LABELS[name] = name;
for (const pair of ALIASES.split(" ")) LABELS[pair.slice(0, pair.indexOf("="))] = pair.slice(pair.indexOf("=") + 1);
for (let n = 1250; n <= 1258; n++) LABELS[`windows-${n}`] = LABELS[`cp${n}`] = `windows-${n}`;
for (const n of [2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16]) LABELS[`iso-8859-${n}`] = `iso-8859-${n}`;

export const SUPPORTED_ENCODINGS: readonly string[] = Object.freeze(Object.keys(LABELS).sort());

export function normalizeEncodingLabel(label: string): string | null {
  return LABELS[label.trim().toLowerCase()] ?? null;
}

// ---- Scripts: what the non-ASCII letters of a language's text may be ----

export type Script = (c: number) => boolean;
export const within = (c: number, a: number, b: number) => c >= a && c <= b;
const letters = (s: string): Script => {
  const set = new Set<number>();
  for (const ch of s + s.toUpperCase()) set.add(ch.charCodeAt(0));
  return (c) => set.has(c);
};
const either =
  (...scripts: Script[]): Script =>
  (c) =>
    scripts.some((s) => s(c));
const CYRILLIC: Script = (c) => within(c, 0x400, 0x52f);
const GREEK: Script = (c) => within(c, 0x370, 0x3ff) || within(c, 0x1f00, 0x1fff);
const ARABIC: Script = (c) => within(c, 0x600, 0x6ff) || within(c, 0x750, 0x77f) || within(c, 0xfb50, 0xfdff) || within(c, 0xfe70, 0xfefe);
const HEBREW: Script = (c) => within(c, 0x590, 0x5ff) || within(c, 0xfb1d, 0xfb4f);
const THAI: Script = (c) => within(c, 0xe00, 0xe7f);
const HAN: Script = (c) => within(c, 0x4e00, 0x9fff) || within(c, 0x3400, 0x4dbf) || within(c, 0xf900, 0xfaff);
const HANGUL: Script = (c) => within(c, 0xac00, 0xd7a3) || within(c, 0x1100, 0x11ff) || within(c, 0x3130, 0x318f);
const KANA: Script = (c) => within(c, 0x3040, 0x30ff) || within(c, 0x31f0, 0x31ff);
const WESTERN = letters("àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿßœšžƒ");
const CENTRAL = letters("áäâăąćčďđéęëěíîĺľłńňóôöőŕřśşšţťúůüűýźżžșțç");
const BALTIC = letters("ąčęėįšųūžāēģīķļņõäöüåæøóéśźżćłń");
const TURKISH = either(letters("çğıöşüâîû"), (c) => c === 0x130);
const VIETNAMESE = either(letters("àáâãèéêìíòóôõùúýăđĩũơư"), (c) => within(c, 0x1ea0, 0x1ef9));

/** A script and, for the CJK languages, the share of letters its own core must reach (kana in Japanese, Hangul in Korean). */
export interface Expect {
  name: string;
  script: Script;
  latin?: boolean;
  core?: Script;
  coreShare?: number;
  /** at most this share of all letters non-ASCII (English: names like Tromsø, São Paulo; not Czech's 8%) */
  density?: number;
  /**
   * The language's code page is the only one its script is written in and the detector cannot vouch for it: text
   * that reads as the script needs no agreement, only no confident rival. Thai: windows-874 (= TIS-620) is all its
   * legacy files use, and chardet scores it by trigrams of written news, which film dialogue often leaves below the
   * noise floor (decode.ts, NOISE), so a Thai file with `language=th` was refused although it read as Thai.
   */
  detectorBlind?: boolean;
}
const KO: Expect = { name: "Korean", script: either(HANGUL, HAN), core: HANGUL, coreShare: 0.5 };
const JA: Expect = { name: "Japanese", script: either(KANA, HAN), core: KANA, coreShare: 0.1 };
const ZH: Expect = { name: "Chinese", script: either(HAN, (c) => within(c, 0x3100, 0x312f)) };
const expect = (name: string, script: Script, latin = false): Expect => ({ name, script, latin });

/**
 * Legacy code pages by import language (lowercase code; `zt` is Viki's Traditional Chinese), tried in order. Serbian
 * is written in both scripts, hence windows-1250 as its second; koi8 lacks the letters of be, mk and sr.
 */
const GROUPS: [string, string[], Expect][] = [
  ["ko", ["euc-kr"], KO],
  ["ja", ["shift_jis", "euc-jp"], JA],
  ["zh zh-cn zh-sg zh-hans", ["gb18030"], ZH],
  ["zt zh-tw zh-hk zh-mo zh-hant", ["big5"], ZH],
  ["ru bg", ["windows-1251", "koi8-r"], expect("Cyrillic", CYRILLIC)],
  ["uk", ["windows-1251", "koi8-u"], expect("Cyrillic", CYRILLIC)],
  ["be mk", ["windows-1251"], expect("Cyrillic", CYRILLIC)],
  ["sr", ["windows-1251", "windows-1250"], expect("Serbian", either(CYRILLIC, letters("čćđšž")))],
  ["ar fa ur", ["windows-1256"], expect("Arabic script", ARABIC)],
  ["he iw", ["windows-1255"], expect("Hebrew", HEBREW)],
  ["el", ["windows-1253"], expect("Greek", GREEK)],
  ["tr", ["windows-1254"], expect("Turkish", TURKISH)],
  ["az", ["windows-1254"], expect("Azerbaijani", either(TURKISH, letters("ə")))],
  ["th", ["windows-874"], { ...expect("Thai", THAI), detectorBlind: true }],
  ["pl", ["windows-1250"], expect("Polish", letters("ąćęłńóśźż"))],
  ["cs", ["windows-1250"], expect("Czech", letters("áčďéěíňóřšťúůýž"))],
  ["sk", ["windows-1250"], expect("Slovak", letters("áäčďéíĺľňóôŕšťúýž"))],
  ["hu", ["windows-1250"], expect("Hungarian", letters("áéíóöőúüű"))],
  ["sl hr bs sr-latn", ["windows-1250"], expect("Latin (South Slavic)", letters("čćđšžéáíóú"))],
  ["ro", ["windows-1250"], expect("Romanian", letters("ăâîșțşţ"))],
  ["sq", ["windows-1250"], expect("Albanian", letters("çë"))],
  ["lt", ["windows-1257"], expect("Lithuanian", letters("ąčęėįšųūž"))],
  ["lv", ["windows-1257"], expect("Latvian", letters("āčēģīķļņšūž"))],
  ["et", ["windows-1257"], expect("Estonian", letters("äöõüšž"))],
  ["vi", ["windows-1258"], expect("Vietnamese", VIETNAMESE)],
];
/**
 * windows-1252 languages with the accented letters each writes, so Czech or Lithuanian bytes read as windows-1252
 * (ø for ř, ð for š) do not pass for French. English and the languages without accents take any Western letter in
 * names, but few of them.
 */
GROUPS.push(["en id ms tl fil sw la", ["windows-1252"], { name: "Latin", script: WESTERN, density: 0.03 }]);
const WESTERN_LETTERS =
  "fr:àâæçéèêëîïôœùûüÿ es:áéíóúüñ de:äöüßé it:àèéìíîòóùú pt:áâãàçéêíóôõúü " +
  "nl:áéíóúàèëïöüçêâîôû sv:åäöé da,no,nb,nn:æøåéóô fi:äöåšž is:áðéíóúýþæö ga:áéíóú ca:àçèéíïòóúü eu,gl:áéíóúñü " +
  "af:áéèêëíîïóôöúûüý cy:âêîôûäëïöüáéíóúàèìòù lb:äëéüèöâ oc:àèéíòóúçüï br:âêîôûùñüë fo:áíóúýæøð rm:àèéìòù wa:âåçèéêëîôû";
for (const group of WESTERN_LETTERS.split(" ")) {
  const [codes, chars] = group.split(":");
  GROUPS.push([codes.split(",").join(" "), ["windows-1252"], expect("Latin", letters(chars))]);
}
const BY_LANGUAGE = new Map<string, { encodings: string[]; expect: Expect }>();
for (const [codes, encodings, exp] of GROUPS) for (const code of codes.split(" ")) BY_LANGUAGE.set(code, { encodings, expect: exp });

export const LANGUAGE_ENCODINGS: Readonly<Record<string, readonly string[]>> = Object.freeze(
  Object.fromEntries([...BY_LANGUAGE].map(([code, v]) => [code, Object.freeze([...v.encodings])])),
);

/** What a code page's text should read as when chardet alone names it (no usable language). */
export function expectedFor(encoding: string): Expect | undefined {
  if (encoding === "euc-kr") return KO;
  if (encoding === "shift_jis" || encoding === "euc-jp" || encoding === "iso-2022-jp") return JA;
  if (encoding === "gb18030" || encoding === "gbk" || encoding === "big5") return ZH;
  if (/^(windows-1251|koi8-[ru]|iso-8859-5|ibm866|x-mac-cyrillic)$/.test(encoding)) return expect("Cyrillic", CYRILLIC);
  const table: Record<string, Expect> = {
    "windows-1256": expect("Arabic script", ARABIC),
    "windows-1255": expect("Hebrew", HEBREW),
    "windows-1253": expect("Greek", GREEK),
    "windows-874": expect("Thai", THAI),
    "windows-1250": expect("Central European", CENTRAL, true),
    "windows-1252": expect("Western European", WESTERN, true),
    "windows-1254": expect("Turkish", either(WESTERN, TURKISH), true),
    "windows-1257": expect("Baltic", BALTIC, true),
    "windows-1258": expect("Vietnamese", VIETNAMESE, true),
  };
  return table[TWIN[encoding] ?? encoding];
}

/** Code pages that read the same text the same way for agreement (supersets and near twins; koi8 ≠ windows-1251). */
const TWIN: Record<string, string> = {
  "iso-8859-15": "windows-1252",
  "iso-8859-2": "windows-1250",
  "koi8-u": "koi8-r",
  "iso-8859-6": "windows-1256",
  "iso-8859-7": "windows-1253",
  "iso-8859-8": "windows-1255",
  "iso-8859-8-i": "windows-1255",
  "iso-8859-13": "windows-1257",
  gbk: "gb18030",
};
export const family = (encoding: string) => TWIN[encoding] ?? encoding;

// ---- Does decoded text read as the expected script? ----

const ASCII_LETTER = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** Punctuation and symbols: neither for nor against a script (Latin-1 signs, general punctuation, ♪, CJK punctuation). */
const NEUTRAL = (c: number) =>
  within(c, 0xa0, 0xbf) ||
  c === 0xd7 ||
  c === 0xf7 ||
  within(c, 0x2b0, 0x36f) ||
  within(c, 0x2000, 0x2bff) ||
  within(c, 0x3000, 0x303f) ||
  within(c, 0xfe30, 0xfe4f) ||
  within(c, 0xff00, 0xff65) ||
  within(c, 0xd800, 0xdfff) ||
  c === 0xfeff;
const LETTERISH = (c: number) => ASCII_LETTER(c) || (c >= 0xc0 && !NEUTRAL(c));
/** Latin-1 signs that may touch a word (French «», Spanish ¡¿, 20°C, m², don´t, l·l); others touching a letter are mojibake. */
const QUIET = "\u00a0\u00aa\u00ad\u00b0\u00b4\u00b5\u00b7\u00ba";
const AFTER_LETTER = "»²®";
const BEFORE_LETTER = "«¡¿£";
/** Signs that only mojibake glues to letters: Latin-1's, math, box drawing and blocks (what koi8 and cp866 hold). */
const SIGN = (c: number) => c <= 0xbf || within(c, 0x2200, 0x23ff) || within(c, 0x2500, 0x25ff);

const UPPER = 1;
const LOWER = 2;
/** Case of the letters below U+2000 (Latin, Greek, Cyrillic: the scripts with case), computed once. */
let cases: Uint8Array | null = null;
function letterCase(c: number): number {
  if (!(c < 0x2000)) return 0;
  if (!cases) {
    cases = new Uint8Array(0x2000);
    for (let k = 0x41; k < 0x2000; k++) {
      const ch = String.fromCharCode(k);
      cases[k] = ch !== ch.toLowerCase() ? UPPER : ch !== ch.toUpperCase() ? LOWER : 0;
    }
  }
  return cases[c];
}

/**
 * The plausibility check for legacy code pages: no C1 control, no U+FFFD; at least 90% of the non-ASCII letters in
 * the expected script; signs glued to letters (ł read as ³) rare; non-Latin letters rarely glued to ASCII letters;
 * case rarely flipping inside a word (windows-1251 read as koi8-r); for Korean and Japanese, their own core share.
 */
export function readsAs(text: string, exp: Expect): boolean {
  let counted = 0;
  let inScript = 0;
  let odd = 0;
  let core = 0;
  let glued = 0;
  let cased = 0;
  let flips = 0;
  let ascii = 0;
  if (/[\u0080-\u009f\ufffd]/.test(text)) return false;
  // 100,000 letters tell the script as well as a million (a 2 MiB Korean file): stop there.
  for (let i = 0; i < text.length && counted < 100_000; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xa0) {
      if (ASCII_LETTER(c)) ascii++;
      continue;
    }
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(i + 1);
    if (NEUTRAL(c)) {
      if (!SIGN(c) || QUIET.includes(text[i])) continue;
      const b = LETTERISH(before);
      const a = LETTERISH(after);
      if ((b && a) || (b && !AFTER_LETTER.includes(text[i])) || (a && !BEFORE_LETTER.includes(text[i]))) {
        counted++;
        odd++;
      }
      continue;
    }
    counted++;
    if (exp.script(c)) inScript++;
    if (exp.core?.(c)) core++;
    if (c >= 0x370 && !within(c, 0x1e00, 0x1eff) && (ASCII_LETTER(before) || ASCII_LETTER(after))) glued++;
    const kind = letterCase(c);
    if (kind) {
      cased++;
      if (kind === UPPER && letterCase(before) === LOWER) flips++;
    }
  }
  if (counted === 0) return true;
  return (
    inScript >= 0.9 * counted &&
    odd <= 1 + 0.02 * counted &&
    glued <= 0.1 * counted &&
    (cased < 20 || flips <= 0.05 * cased) &&
    (!exp.core || counted < 20 || core >= (exp.coreShare ?? 0) * counted) &&
    (!exp.density || counted <= exp.density * (counted + ascii))
  );
}

export function languageName(code: string, exp: Expect): string {
  try {
    const name = new Intl.DisplayNames(["en"], { type: "language" }).of(code);
    if (name && name.toLowerCase() !== code) return name;
  } catch {
    // an unknown code: the script's name says enough
  }
  return exp.name;
}

export function lookupLanguage(language: string): [string, { encodings: string[]; expect: Expect }] | null {
  const code = language.trim().toLowerCase().split("_").join("-");
  const tags = code.split("-");
  if (tags[0] === "zh" && tags.some((t) => t === "hant" || t === "tw" || t === "hk" || t === "mo")) return [code, BY_LANGUAGE.get("zt")!];
  const entry = BY_LANGUAGE.get(code) ?? BY_LANGUAGE.get(tags[0]);
  return entry ? [code, entry] : null;
}
