import { describe, expect, it } from "vitest";
import { SubtitleError } from "../../../src/domain/subtitles/cue";
import {
  decodeSubtitleBytes,
  LANGUAGE_ENCODINGS,
  normalizeEncodingLabel,
  SUPPORTED_ENCODINGS,
  type Decoded,
} from "../../../src/domain/subtitles/decode";
import { ENCODING_FIXTURES } from "../../fixtures/subtitles/encodings";
import { fastest } from "../../helpers/timing";

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const utf8 = (s: string) => new TextEncoder().encode(s);
const SRT = "1\n00:00:01,000 --> 00:00:02,500\nCafé “Déjà vu” — 東京 😀\n";

function utf16(s: string, littleEndian: boolean, bom = true): Uint8Array {
  const out = new Uint8Array((s.length + (bom ? 1 : 0)) * 2);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const unit of [...(bom ? [0xfeff] : []), ...Array.from({ length: s.length }, (_, i) => s.charCodeAt(i))])
    view.setUint16(at++ * 2, unit, littleEndian);
  return out;
}
function utf32(s: string, littleEndian: boolean): Uint8Array {
  const points = [0xfeff, ...Array.from(s, (c) => c.codePointAt(0)!)];
  const out = new Uint8Array(points.length * 4);
  points.forEach((p, i) => new DataView(out.buffer).setUint32(i * 4, p, littleEndian));
  return out;
}
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(SubtitleError);
    return (e as SubtitleError).message;
  }
  throw new Error("expected a refusal");
}
/** Right text or a refusal: anything else is mojibake. */
function rightOrRefused(bytes: Uint8Array, hints: { language?: string }, expected: string): "right" | "refused" {
  let decoded: Decoded;
  try {
    decoded = decodeSubtitleBytes(bytes, hints);
  } catch (e) {
    expect(e).toBeInstanceOf(SubtitleError);
    expect((e as Error).message).toContain("encoding=");
    return "refused";
  }
  expect(decoded.text, `${JSON.stringify(hints)}: ${decoded.encoding} (${decoded.reason})`).toBe(expected);
  return "right";
}

describe("workerd's TextDecoder (the runtime decodes, not Node)", () => {
  it("maps windows-1252 0x80-0x9F to the WHATWG table", () => {
    const text = new TextDecoder("windows-1252").decode(new Uint8Array([0x80, 0x85, 0x92, 0x93, 0x94, 0x96, 0x9c]));
    expect(text).toBe("€…’“”–œ");
    const decoded = decodeSubtitleBytes(new Uint8Array([0x80, 0x20, 0x85, 0x20, 0x93, 0x61, 0x94]), { encoding: "windows-1252" });
    expect(decoded).toMatchObject({ text: "€ … “a”", encoding: "windows-1252", source: "parameter" });
  });

  it("knows every canonical encoding decodeSubtitleBytes may name", () => {
    for (const label of SUPPORTED_ENCODINGS) {
      const name = normalizeEncodingLabel(label)!;
      expect(name, label).toBeTruthy();
      if (!name.startsWith("utf-32")) expect(new TextDecoder(name).encoding, label).toBe(name);
    }
  });
});

describe("legacy encodings chosen from the language, checked by the detector", () => {
  for (const f of ENCODING_FIXTURES) {
    it(`${f.name}: decodes exactly with the language ${f.language}`, () => {
      const decoded = decodeSubtitleBytes(bytesOf(f.base64), { language: f.language });
      expect(decoded.text).toBe(f.expected);
      expect(decoded.encoding).toBe(f.encoding);
      expect(decoded.source).toBe("language");
      expect(decoded.reason).toMatch(
        new RegExp(`^the file is not UTF-8 \\(byte 0x[0-9A-F]{2} at offset \\d+\\); the language ${f.language} suggests `),
      );
    });

    it(`${f.name}: with the wrong language (${f.wrongLanguage}) or none, right or refused, never mojibake`, () => {
      const bytes = bytesOf(f.base64);
      rightOrRefused(bytes, { language: f.wrongLanguage }, f.expected);
      rightOrRefused(bytes, {}, f.expected);
    });
  }

  it("never returns mojibake whatever the language", () => {
    const languages = ["ko", "ja", "zh", "zt", "ru", "uk", "sr", "ar", "fa", "he", "el", "tr", "th", "pl", "cs", "hu", "ro", "lt", "et"];
    languages.push("vi", "en", "fr", "es", "de", "it", "pt-br", "sv", "hi", "xx");
    const outcomes = { right: 0, refused: 0 };
    for (const f of ENCODING_FIXTURES)
      for (const language of languages) outcomes[rightOrRefused(bytesOf(f.base64), { language }, f.expected)]++;
    // Most wrong languages still end right: chardet alone names the encoding when it is confident.
    expect(outcomes.right).toBeGreaterThan(outcomes.refused);
  });

  it("says why: the detector agreeing, a wrong language refused, detection without a language", () => {
    const fixture = (name: string) => ENCODING_FIXTURES.find((f) => f.name === name)!;
    const korean = bytesOf(fixture("ko-euc-kr").base64);
    const agreed = decodeSubtitleBytes(korean, { language: "ko" });
    expect(agreed.reason).toMatch(/the language ko suggests euc-kr, and the detector agrees \(EUC-KR, confidence \d+\)$/);
    expect(agreed.detector).toEqual({ encoding: "EUC-KR", confidence: expect.any(Number) });
    const detected = decodeSubtitleBytes(korean, { language: "ru" });
    expect(detected).toMatchObject({ encoding: "euc-kr", source: "detector", text: fixture("ko-euc-kr").expected });
    expect(detected.reason).toContain("as windows-1251 or koi8-r (suggested by the language ru) it does not read as Russian");
    const thai = bytesOf(fixture("th-windows-874").base64);
    expect(refusal(() => decodeSubtitleBytes(thai, { language: "ru" }))).toMatch(
      /^the file is not UTF-8 \(byte 0x[0-9A-F]{2} at offset \d+\), and as windows-1251 or koi8-r \(suggested by the language ru\) it does not read as Russian; .*send UTF-8 or name the encoding with encoding=$/,
    );
    expect(decodeSubtitleBytes(bytesOf(fixture("zh-gb18030").base64), {})).toMatchObject({ encoding: "gb18030", source: "detector" });
  });

  it("reads Thai dialogue in windows-874 with the language th, though the detector's Thai recogniser does not rank it", () => {
    // windows-874 is TIS-620: Thai U+0E01-U+0E5B at bytes 0xA1-0xFB, ASCII as itself.
    const tis620 = (s: string) => Uint8Array.from(s, (c) => (c >= "\u0e01" && c <= "\u0e5b" ? c.charCodeAt(0) - 0xd60 : c.charCodeAt(0)));
    const lines = [
      "สวัสดีครับ วันนี้อากาศดีมาก",
      "คุณจะไปไหนคะ",
      "ฉันจะไปตลาดกับแม่",
      "เดี๋ยวก่อน! รอฉันด้วย",
      "ขอบคุณมากครับ",
      "ไม่เป็นไร",
      "เราต้องรีบไปแล้ว",
      "พรุ่งนี้เจอกันนะ",
      "ระวังนะ! มีรถมา",
      "ฉันรักเธอ",
      '"อะไรนะ?" เขาถาม',
      "- ใช่\r\n- ไม่ใช่",
      "ราคา 500 บาท",
      "ตอนที่ 1: จุดเริ่มต้น",
      "ผู้หญิงคนนั้นเป็นใคร",
      "ฆ่ามัน!",
      "ฤดูฝนมาถึงแล้ว",
      "ฯลฯ",
      "ๆ",
      "โอ้ พระเจ้า...",
    ];
    const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23).replace(".", ",");
    const text = Array.from(
      { length: 120 },
      (_, k) => `${k + 1}\r\n${clock(k * 3000)} --> ${clock(k * 3000 + 2000)}\r\n${lines[k % 6]}\r\n`,
    ).join("\r\n");
    const decoded = decodeSubtitleBytes(tis620(text), { language: "th" });
    expect(decoded).toMatchObject({ text, encoding: "windows-874", source: "language" });
    expect(decoded.reason).toMatch(/the language th suggests windows-874, and it reads as Thai/);
    // Another language's hint still never gives mojibake.
    for (const language of ["ru", "ko", "en", "ar", "he"]) rightOrRefused(tis620(text), { language }, text);
  });

  it("takes the language's code page alone when a long file has too few non-ASCII bytes for the detector", () => {
    const english = ENCODING_FIXTURES.find((f) => f.name === "en-windows-1252")!;
    const decoded = decodeSubtitleBytes(bytesOf(english.base64), { language: "en" });
    expect(decoded.text.length).toBeGreaterThan(20_000);
    expect(decoded).toMatchObject({ encoding: "windows-1252", source: "language" });
    expect(decoded.text).toContain("He said “hold the door” and left.");
  });

  it("reads region subtags and Viki's codes", () => {
    const big5 = ENCODING_FIXTURES.find((f) => f.name === "zt-big5")!;
    for (const language of ["zt", "zh-TW", "zh_Hant", "zh-hk"])
      expect(decodeSubtitleBytes(bytesOf(big5.base64), { language }), language).toMatchObject({ encoding: "big5", text: big5.expected });
    const french = ENCODING_FIXTURES.find((f) => f.name === "fr-windows-1252")!;
    expect(decodeSubtitleBytes(bytesOf(french.base64), { language: "fr-CA" }).source).toBe("language");
  });

  it("stores Vietnamese composed (windows-1258 writes tones as combining marks)", () => {
    const vi = ENCODING_FIXTURES.find((f) => f.name === "vi-windows-1258")!;
    const text = decodeSubtitleBytes(bytesOf(vi.base64), { language: "vi" }).text;
    expect(text).toBe(text.normalize("NFC"));
    expect(text).toContain("Cảm ơn, tôi khỏe.");
  });

  it("documents the language table", () => {
    expect(LANGUAGE_ENCODINGS.ko).toEqual(["euc-kr"]);
    expect(LANGUAGE_ENCODINGS.ja).toEqual(["shift_jis", "euc-jp"]);
    expect(LANGUAGE_ENCODINGS.zt).toEqual(["big5"]);
    expect(LANGUAGE_ENCODINGS.ru).toEqual(["windows-1251", "koi8-r"]);
    expect(LANGUAGE_ENCODINGS.uk).toEqual(["windows-1251", "koi8-u"]);
    expect(LANGUAGE_ENCODINGS.hu).toEqual(["windows-1250"]);
    expect(LANGUAGE_ENCODINGS.en).toEqual(["windows-1252"]);
  });
});

describe("byte order marks and UTF", () => {
  it("reads UTF-8 with and without a BOM, and pure ASCII as UTF-8", () => {
    expect(decodeSubtitleBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(SRT)]), {})).toMatchObject({
      text: SRT,
      encoding: "utf-8",
      source: "bom",
    });
    expect(decodeSubtitleBytes(utf8(SRT), { language: "ru" })).toMatchObject({ text: SRT, encoding: "utf-8", source: "utf-8" });
    const ascii = "1\n00:00:01,000 --> 00:00:02,000\nHello\n";
    expect(decodeSubtitleBytes(utf8(ascii), { language: "ko" })).toEqual({
      text: ascii,
      encoding: "utf-8",
      source: "utf-8",
      reason: "the file is valid UTF-8",
    });
    expect(decodeSubtitleBytes(new Uint8Array(), {})).toMatchObject({ text: "", encoding: "utf-8", source: "utf-8" });
  });

  it("reads UTF-16 LE/BE and UTF-32 LE/BE under their BOM (FF FE 00 00 is UTF-32 LE)", () => {
    expect(decodeSubtitleBytes(utf16(SRT, true), {})).toMatchObject({ text: SRT, encoding: "utf-16le", source: "bom" });
    expect(decodeSubtitleBytes(utf16(SRT, false), {})).toMatchObject({ text: SRT, encoding: "utf-16be", source: "bom" });
    const le32 = utf32(SRT, true);
    expect([...le32.subarray(0, 4)]).toEqual([0xff, 0xfe, 0, 0]);
    expect(decodeSubtitleBytes(le32, {})).toMatchObject({ text: SRT, encoding: "utf-32le", source: "bom" });
    expect(decodeSubtitleBytes(utf32(SRT, false), {})).toMatchObject({ text: SRT, encoding: "utf-32be", source: "bom" });
  });

  it("refuses broken UTF-16, UTF-32 and UTF-8 under a BOM, naming the problem", () => {
    expect(refusal(() => decodeSubtitleBytes(utf16(SRT, true).subarray(0, 41), {}))).toMatch(
      /UTF-16 LE, but it has an odd number of bytes \(41\)/,
    );
    const lone = utf16("ab\ud800cd", false);
    expect(refusal(() => decodeSubtitleBytes(lone, {}))).toMatch(/UTF-16 BE, but it holds an unpaired surrogate at byte offset 6/);
    const bad32 = utf32("abc", true);
    new DataView(bad32.buffer).setUint32(8, 0x110000, true);
    expect(refusal(() => decodeSubtitleBytes(bad32, {}))).toMatch(
      /UTF-32 LE, but it holds 0x00110000 at byte offset 8, which is not a Unicode code point/,
    );
    expect(refusal(() => decodeSubtitleBytes(utf32("ab", false).subarray(0, 10), {}))).toMatch(/UTF-32 BE, but its length \(10 bytes\)/);
    expect(refusal(() => decodeSubtitleBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xc3, 0x28]), {}))).toMatch(
      /byte offset 4 is not valid UTF-8/,
    );
  });

  it("recognises UTF-16 without a BOM by its zero bytes", () => {
    expect(decodeSubtitleBytes(utf16(SRT, true, false), {})).toMatchObject({ text: SRT, encoding: "utf-16le", source: "detector" });
  });
});

describe("encoding=", () => {
  const koi8 = ENCODING_FIXTURES.find((f) => f.name === "ru-koi8-r")!;

  it("decodes with the named encoding when the file is not UTF-8, by label or alias", () => {
    expect(decodeSubtitleBytes(bytesOf(koi8.base64), { encoding: "KOI8-R", language: "ko" })).toMatchObject({
      text: koi8.expected,
      encoding: "koi8-r",
      source: "parameter",
    });
    const cp1251 = ENCODING_FIXTURES.find((f) => f.name === "ru-windows-1251")!;
    expect(decodeSubtitleBytes(bytesOf(cp1251.base64), { encoding: "cp1251" }).text).toBe(cp1251.expected);
    expect(decodeSubtitleBytes(utf16(SRT, false, false), { encoding: "utf-16be" })).toMatchObject({ text: SRT, source: "parameter" });
    // A BOM still decides, and valid UTF-8 stays UTF-8.
    expect(decodeSubtitleBytes(utf16(SRT, true), { encoding: "windows-1252" }).source).toBe("bom");
    expect(decodeSubtitleBytes(utf8(SRT), { encoding: "windows-1252" }).source).toBe("utf-8");
  });

  it("is strict for multi-byte encodings and refuses unsupported labels", () => {
    expect(refusal(() => decodeSubtitleBytes(new Uint8Array([0x41, 0xb0, 0x20]), { encoding: "euc-kr" }))).toMatch(
      /does not decode as euc-kr, the encoding encoding= names/,
    );
    expect(normalizeEncodingLabel("ebcdic")).toBeNull();
    expect(normalizeEncodingLabel(" ISO-8859-1 ")).toBe("windows-1252");
    expect(normalizeEncodingLabel("gb2312")).toBe("gbk");
    expect(SUPPORTED_ENCODINGS).toContain("shift_jis");
    expect(SUPPORTED_ENCODINGS.every((l) => l === l.toLowerCase())).toBe(true);
    expect(refusal(() => decodeSubtitleBytes(utf8("x"), { encoding: "ebcdic" }))).toMatch(/encoding=ebcdic is not a supported encoding/);
  });
});

describe("2 MiB in under a second", () => {
  const twoMiB = (one: Uint8Array) => {
    const out = new Uint8Array(2 * 1024 * 1024);
    for (let at = 0; at < out.length; at += one.length) out.set(one.subarray(0, Math.min(one.length, out.length - at)), at);
    return out;
  };
  for (const [name, language] of [
    ["ru-windows-1251", "ru"],
    ["ru-windows-1251", "ko"],
    ["ko-euc-kr", "ru"],
    ["zh-gb18030", undefined],
  ] as const) {
    it(`${name} with language ${language ?? "none"}`, () => {
      const f = ENCODING_FIXTURES.find((x) => x.name === name)!;
      const bytes = twoMiB(bytesOf(f.base64));
      const { ms, out: decoded } = fastest(() => decodeSubtitleBytes(bytes, { language }), { limitMs: 1000 });
      console.log(`decode ${name} (2 MiB, language ${language ?? "none"}): ${Math.round(ms)} ms`);
      expect(decoded.encoding).toBe(f.encoding);
      expect(ms).toBeLessThan(1000);
    });
  }

  it("2 MiB of high bytes that every single-byte page decodes, for a language with two candidates", () => {
    let seed = 7;
    const bytes = Uint8Array.from({ length: 2 * 1024 * 1024 }, () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % 7 === 0 ? 0x20 : 0xc0 + (seed % 63);
    });
    for (const language of ["sr", "ja", undefined]) {
      const { ms } = fastest(() => expect(rightOrRefused(bytes, { language }, "(never this)")).toBe("refused"), { limitMs: 1000 });
      console.log(`refuse 2 MiB of random letters (language ${language ?? "none"}): ${Math.round(ms)} ms`);
      expect(ms).toBeLessThan(1000);
    }
  });

  it("bytes no decoder likes (every value, repeated) are refused quickly", () => {
    const bytes = twoMiB(Uint8Array.from({ length: 256 }, (_, i) => 255 - i));
    const { ms } = fastest(() => expect(refusal(() => decodeSubtitleBytes(bytes, { language: "ja" }))).toContain("encoding="), {
      limitMs: 1000,
    });
    console.log(`refuse 2 MiB of every byte value: ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(1000);
  });
});
