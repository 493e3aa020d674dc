import { describe, expect, it } from "vitest";
import { SUBTITLE_LIMITS } from "../../../src/domain/subtitles/cue";
import { hexColor, parseMarkup, plainText } from "../../../src/domain/subtitles/markup";
import { fastest } from "../../helpers/timing";

describe("parseMarkup", () => {
  it("reads SubRip's styling tags, keeps everything else literal", () => {
    expect(parseMarkup('<i>a</i> <font color="#FF0000">b</font> <true> 3 > 2\n{\\an8}c')).toEqual([
      { kind: "open", tag: "i" },
      { kind: "text", text: "a" },
      { kind: "close", tag: "i" },
      { kind: "text", text: " " },
      { kind: "open", tag: "font", color: "#FF0000" },
      { kind: "text", text: "b" },
      { kind: "close", tag: "font" },
      { kind: "text", text: " <true> 3 > 2" },
      { kind: "newline" },
      { kind: "override", text: "{\\an8}" },
      { kind: "text", text: "c" },
    ]);
  });

  const kinds = (text: string) =>
    parseMarkup(text, { balanced: true })
      .map((t) => (t.kind === "open" ? `<${t.tag}>` : t.kind === "close" ? `</${t.tag}>` : t.kind === "text" ? t.text : "|"))
      .join("");

  it("balances on request: closes what is open, drops stray closes, re-opens across a misnesting", () => {
    expect(kinds("<i>a")).toBe("<i>a</i>");
    expect(kinds("a</b>")).toBe("a");
    expect(kinds("<i>a<b>b</i>c</b>")).toBe("<i>a<b>b</b></i><b>c</b>");
  });

  it("opens a tag inside the same tag once, and keeps at most SUBTITLE_LIMITS.openTags open (deeper opens dropped, their text kept)", () => {
    expect(kinds("<i>a<i>b</i>c</i>d")).toBe("<i>abc</i>d");
    expect(kinds("<b><i>a<b>b</i>c</b>d</b>e")).toBe("<b><i>ab</i>cd</b>e");
    const deep = Array.from({ length: 12 }, (_, k) => `<font color="#00000${k % 10}">${k}`).join("") + "</font>".repeat(12) + "x";
    const balanced = parseMarkup(deep, { balanced: true });
    expect(balanced.filter((t) => t.kind === "open")).toHaveLength(SUBTITLE_LIMITS.openTags);
    expect(balanced.filter((t) => t.kind === "close")).toHaveLength(SUBTITLE_LIMITS.openTags);
    expect(plainText(deep)).toBe("01234567891011x");
    // Fonts 8 to 11 are dropped, and so are the first four closes (theirs): colour 7 runs on to the last close.
    expect(kinds(deep)).toBe(`${[0, 1, 2, 3, 4, 5, 6, 7].map((k) => `<font>${k}`).join("")}891011${"</font>".repeat(8)}x`);
  });

  it("balances in linear time, each tag costing at most openTags tokens: 93,000 characters of unclosed and misnested tags", () => {
    // Cues of one start joined without a limit made texts like this: every close below the unclosed tags closed and
    // re-opened them all, in time (and tokens) quadratic in them (94,000 characters took 15 s to write as WebVTT).
    const text = `<b>${"<i>".repeat(15_000)}${"</b>x<b>".repeat(6_000)}`;
    const { ms, out: tokens } = fastest(() => parseMarkup(text, { balanced: true }), { limitMs: 1000 });
    expect(ms).toBeLessThan(1000);
    const tags = parseMarkup(text).filter((t) => t.kind !== "text").length;
    expect(tokens.length).toBeLessThanOrEqual((2 * SUBTITLE_LIMITS.openTags + 1) * tags + 2 * tags);
  });

  it("plainText drops tags and override blocks", () => {
    expect(plainText("<b>Hi</b> {\\pos(1,2)}there\n<u>you</u>")).toBe("Hi there\nyou");
  });

  it("stays linear on 2 MiB of unclosed brackets and override starts", () => {
    for (const text of ["<".repeat(2 * 1024 * 1024), "{\\".repeat(1024 * 1024), "<a".repeat(1024 * 1024) + ">", "{\\}".repeat(700_000)]) {
      expect(fastest(() => parseMarkup(text, { balanced: true }), { limitMs: 1000 }).ms).toBeLessThan(1000);
    }
  });
});

describe("hexColor", () => {
  it("reads #rrggbb, #rgb, bare hex and the basic names", () => {
    expect(hexColor("#FFAA00")).toBe("ffaa00");
    expect(hexColor("#fa0")).toBe("ffaa00");
    expect(hexColor("00ff00")).toBe("00ff00");
    expect(hexColor("Yellow")).toBe("ffff00");
    expect(hexColor("not-a-colour")).toBeNull();
    expect(hexColor(undefined)).toBeNull();
  });
});
