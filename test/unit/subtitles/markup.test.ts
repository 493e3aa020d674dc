import { describe, expect, it } from "vitest";
import { hexColor, parseMarkup, plainText } from "../../../src/domain/subtitles/markup";

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

  it("balances on request: closes what is open, drops stray closes, re-opens across a misnesting", () => {
    const kinds = (text: string) =>
      parseMarkup(text, { balanced: true })
        .map((t) => (t.kind === "open" ? `<${t.tag}>` : t.kind === "close" ? `</${t.tag}>` : t.kind === "text" ? t.text : "|"))
        .join("");
    expect(kinds("<i>a")).toBe("<i>a</i>");
    expect(kinds("a</b>")).toBe("a");
    expect(kinds("<i>a<b>b</i>c</b>")).toBe("<i>a<b>b</b></i><b>c</b>");
  });

  it("plainText drops tags and override blocks", () => {
    expect(plainText("<b>Hi</b> {\\pos(1,2)}there\n<u>you</u>")).toBe("Hi there\nyou");
  });

  it("stays linear on 2 MiB of unclosed brackets and override starts", () => {
    for (const text of ["<".repeat(2 * 1024 * 1024), "{\\".repeat(1024 * 1024), "<a".repeat(1024 * 1024) + ">", "{\\}".repeat(700_000)]) {
      const started = Date.now();
      parseMarkup(text, { balanced: true });
      expect(Date.now() - started).toBeLessThan(1000);
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
