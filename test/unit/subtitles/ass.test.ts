import { describe, expect, it } from "vitest";
import { looksLikeAss, readAss, writeAss } from "../../../src/domain/subtitles/ass";
import { SUBTITLE_LIMITS, SubtitleError } from "../../../src/domain/subtitles/cue";
import { refused } from "./refused";
import { fastest } from "../../helpers/timing";

const EVENTS_FORMAT = "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text";
const V4_PLUS_STYLES = [
  "[V4+ Styles]",
  "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
  "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1",
  "Style: Thoughts,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,-1,0,0,100,100,0,0,1,2,2,2,10,10,10,1",
];

/** A v4+ script around the given event lines: [Events] on line 9, the first event on line 11. */
function script(...events: string[]): string {
  return ["[Script Info]", "ScriptType: v4.00+", "", ...V4_PLUS_STYLES, "", "[Events]", EVENTS_FORMAT, ...events].join("\n") + "\n";
}
const dialogue = (text: string, start = "0:00:01.00", end = "0:00:02.00", style = "Default") =>
  `Dialogue: 0,${start},${end},${style},,0,0,0,,${text}`;
/** The stored text of a one-cue script whose cue has the given Dialogue text. */
const textOf = (text: string, style?: string) => readAss(script(dialogue(text, undefined, undefined, style))).cues[0]?.text;

const refusal = (text: string) => refused(() => readAss(text));

describe("readAss: structure", () => {
  it("reads Dialogue lines as cues with their position, line, times and text (Text keeps its commas)", () => {
    const out = readAss(
      script(dialogue("Hello, world, again", "0:00:01.50", "0:00:03.25"), dialogue("Two\\Nlines", "1:02:03.04", "1:02:05.00")),
    );
    expect(out.cues).toEqual([
      { index: 1, line: 11, startMs: 1500, endMs: 3250, text: "Hello, world, again" },
      { index: 2, line: 12, startMs: 3_723_040, endMs: 3_725_000, text: "Two\nlines" },
    ]);
    expect(out.notes).toEqual([]);
  });

  it("reads SSA v4 (Marked=, [V4 Styles], `;` comments, a `*` style, unknown sections and lines), CRLF and a BOM", () => {
    const ssa = [
      "\uFEFF[Script Info]",
      "; written by hand",
      "Title: test",
      "Something else entirely",
      "ScriptType: v4.00",
      "",
      "[Notes]",
      "Dialogue: Marked=0,0:00:09.00,0:00:10.00,Default,,0000,0000,0000,,not an event",
      "",
      "[V4 Styles]",
      "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding",
      "Style: Default,Verdana,24,16777215,65535,65535,0,0,0,1,2,1,2,20,20,20,0,0",
      "",
      "[Events]",
      "Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
      "Dialogue: Marked=0,0:01:10.00,0:01:12.06,*Default,Ann,0010,0020,0030,fx,{\\pos(320,500)}(door creaks)",
      "Something else entirely",
      "; a comment",
      "Dialogue: Marked=1,0:02:00.10,0:02:03.20,*Default,Bob,0000,0000,0000,,WOMAN:\\nWhere are the keys?",
    ].join("\r\n");
    const out = readAss(ssa);
    expect(out.cues).toEqual([
      { index: 1, line: 16, startMs: 70_000, endMs: 72_060, text: "(door creaks)" },
      { index: 2, line: 19, startMs: 120_100, endMs: 123_200, text: "WOMAN:\nWhere are the keys?" },
    ]);
    expect(out.notes).toEqual([
      "1 line in [Events] that is not Dialogue, Comment or Format skipped (first on line 17)",
      "the soft break \\n read as a line break on 1 cue",
      "override tags other than italic, bold, underline, strike-out and colour dropped on 1 cue (\\pos)",
    ]);
  });

  it("uses the v4+ field order when [Events] has no Format line, and follows a Format line's own order", () => {
    const noFormat = "[Script Info]\n\n[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,a, b\n";
    expect(readAss(noFormat).cues).toEqual([{ index: 1, line: 4, startMs: 1000, endMs: 2000, text: "a, b" }]);
    const custom = "[Events]\nFormat: Start, End, Style, Text\nDialogue: 0:00:03.00, 0:00:04.00 ,Default,x, y\n";
    expect(readAss(custom).cues).toEqual([{ index: 1, line: 3, startMs: 3000, endMs: 4000, text: "x, y" }]);
    const reordered = "[Events]\nFormat: Layer, Style, End, Start, Text\nDialogue: 0,Default,0:00:06.00,0:00:05.00,z\n";
    expect(readAss(reordered).cues[0]).toMatchObject({ startMs: 5000, endMs: 6000, text: "z" });
  });

  it("reads Dialogue lines with no section header at all", () => {
    const out = readAss("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,bare\n");
    expect(out.cues).toEqual([{ index: 1, line: 1, startMs: 1000, endMs: 2000, text: "bare" }]);
    expect(out.notes).toEqual(["1 Dialogue line before any [Events] header read as events"]);
  });

  it("skips [Fonts], [Graphics], [Aegisub Project Garbage] and other sections whatever they hold", () => {
    // Lines shaped like uuencoded font data (characters 0x21-0x60), some starting with "[".
    const font = Array.from({ length: 2000 }, (_, k) =>
      Array.from({ length: 60 }, (_, j) => String.fromCharCode(k % 7 === 0 && j === 0 ? 0x5b : 0x21 + ((k * 31 + j * 7) % 64))).join(""),
    );
    const text = [
      "[Script Info]",
      "ScriptType: v4.00+",
      "[Aegisub Project Garbage]",
      "Active Line: 1",
      "[Fonts]",
      "fontname: Handwritten_0.ttf",
      ...font,
      "[Graphics]",
      "Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,not a cue",
      "",
      "[Events]",
      EVENTS_FORMAT,
      dialogue("Only line.", "0:00:00.00", "0:00:05.00"),
      "[Pictures]",
      "Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,not a cue either",
    ].join("\n");
    expect(readAss(text).cues).toEqual([{ index: 1, line: 2012, startMs: 0, endMs: 5000, text: "Only line." }]);
  });

  it("skips Comment lines and drops Dialogue lines with nothing to show, keeping the others' positions", () => {
    const out = readAss(
      script(
        "Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,a note",
        dialogue("one"),
        dialogue(""),
        dialogue("{\\p1}m 0 0 l 100 0 100 100 0 100{\\p0}"),
        dialogue("two"),
      ),
    );
    expect(out.cues.map((c) => [c.index, c.line, c.text])).toEqual([
      [1, 12, "one"],
      [4, 15, "two"],
    ]);
    expect(out.notes).toEqual([
      "1 Comment line skipped: they are not shown, so not cues",
      "2 Dialogue lines with no text (or only a drawing) dropped",
      "drawings (\\p) dropped on 1 cue",
    ]);
  });

  it("reads times with 1–3 digit fractions as fractions, two-digit hours and no fraction", () => {
    const out = readAss(
      script(
        dialogue("a", "0:00:01.5", "0:00:02.123"),
        dialogue("b", "10:00:00.05", "10:00:01"),
        dialogue("c", " 0:0:3.00", "0:00:04.00 "),
      ),
    );
    expect(out.cues.map((c) => [c.startMs, c.endMs])).toEqual([
      [1500, 2123],
      [36_000_050, 36_001_000],
      [3000, 4000],
    ]);
  });
});

describe("readAss: refusals", () => {
  it("names the cue and line of a Dialogue line whose times cannot be read", () => {
    const err = refusal(script(dialogue("ok"), "Comment: 0,x,y,Default,,0,0,0,,not read", dialogue("bad", "0:00:0a.00")));
    expect(err).toMatchObject({ cue: 2, line: 13 });
    expect(err.message).toBe('cue 2 (line 13): the start time of this Dialogue line is "0:00:0a.00", not a time like 0:01:02.50');
    expect(refusal(script("Dialogue: 0,0:00:01.00")).message).toBe(
      "cue 1 (line 11): the end time of this Dialogue line is missing, not a time like 0:01:02.50",
    );
  });

  it("refuses a file whose [Events] holds no cue, naming the [Events] line", () => {
    const onlyComments = refusal(script("Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,note"));
    expect(onlyComments).toMatchObject({ cue: undefined, line: 9 });
    expect(onlyComments.message).toBe("line 9: the file holds no cues: it has 1 Comment line and no Dialogue line");
    expect(refusal(script()).message).toBe("line 9: the file holds no cues: its [Events] section has no Dialogue line");
    expect(refusal(script(dialogue("{\\an8}"))).message).toBe("line 9: the file holds no cues: its 1 Dialogue line has no text");
    expect(refusal("[Script Info]\nTitle: x\n").message).toBe("the file holds no cues: no [Events] section with Dialogue lines");
  });

  it(`refuses a Format line of more than ${SUBTITLE_LIMITS.assFields} fields, in a styles section or in [Events], naming its line`, () => {
    const fields = (n: number) =>
      Array.from({ length: n }, (_, k) => (k === 0 ? "Start" : k === 1 ? "End" : k === n - 1 ? "Text" : `F${k}`));
    const most = SUBTITLE_LIMITS.assFields;
    expect(
      readAss(`[Events]\nFormat: ${fields(most).join(", ")}\nDialogue: 0:00:01.00,0:00:02.00${",".repeat(most - 2)}hi\n`).cues,
    ).toEqual([{ index: 1, line: 3, startMs: 1000, endMs: 2000, text: "hi" }]);
    const err = refusal(`[Events]\nFormat: ${fields(most + 1).join(", ")}\n`);
    expect(err).toMatchObject({ line: 2, limit: "assFields", message: `line 2: the Format line names more than ${most} fields` });
    expect(refusal(`[V4+ Styles]\nFormat: Name${", Italic".repeat(most)}\n`)).toMatchObject({ line: 2, limit: "assFields" });
  });

  it("reads style lines against a Format line indexed once: a long Format line and many styles are refused or read at once", () => {
    // 0.72 MiB: a Format line of 60,000 fields and 8,000 Style lines, each of which looked up its fields in the whole
    // Format line (51 s in the import consumer).
    const text = `[V4+ Styles]\nFormat: Name, ${"Italic, ".repeat(60_000)}Underline\n${"Style: S,1,1\n".repeat(8_000)}`;
    expect(fastest(() => expect(refusal(text).limit).toBe("assFields"), { limitMs: 1000 }).ms).toBeLessThan(1000);
  });

  it("refuses an [Events] Format line without Start, End or Text", () => {
    expect(refusal("[Events]\nFormat: Layer, Start, Style, Text\n").message).toBe("line 2: the [Events] Format line names no End field");
  });
});

describe("readAss: text", () => {
  it("turns \\N and \\n into line breaks and \\h into a no-break space, trimming the spaces libass does not show", () => {
    expect(textOf("  Captain, {\\kf40}we are \\Nnearly at the \\ndock.  ")).toBe("Captain, we are\nnearly at the\ndock.");
    expect(textOf("\\h\\hindented\\N\\N\\Nlast")).toBe("\u00a0\u00a0indented\nlast");
    expect(textOf("a\\\\Nb \\x")).toBe("a\\\nb \\x");
  });

  it("maps italic, bold, underline and strike-out overrides to tags, balanced", () => {
    expect(textOf("– {\\i1}Carpe diem{\\i0}.")).toBe("– <i>Carpe diem</i>.");
    expect(textOf("{\\b1}bold{\\b0} {\\b700}heavy{\\b400} {\\u1}under{\\u0} {\\s1}struck")).toBe(
      "<b>bold heavy</b> <u>under</u> <s>struck</s>",
    );
    expect(textOf("{\\i1\\b1}both\\Nlines{\\i0} end")).toBe("<b><i>both\nlines</i> end</b>");
    expect(textOf("{\\i1}open\\N{\\i0}\\Nclosed")).toBe("<i>open</i>\nclosed");
    expect(textOf("{\\b1 }spaced{\\b 0} {\\be1\\shad2\\bord3\\iclip(0,0,1,1)}plain")).toBe("<b>spaced</b> plain");
  });

  it("keeps \\c and \\1c colours as <font color>, and resets with \\c and \\r", () => {
    expect(textOf("{\\c&H0000FF&}red{\\c} plain {\\1c&H00FF00&}green")).toBe(
      '<font color="#ff0000">red</font> plain <font color="#00ff00">green</font>',
    );
    expect(textOf("{\\i1\\c&HFFFFFF&}a{\\r}b")).toBe('<i><font color="#ffffff">a</font></i>b');
  });

  it("applies a style's italic, and \\r or \\i back to it", () => {
    expect(textOf("thinking {\\i0}aloud{\\i} again", "Thoughts")).toBe("<i>thinking</i> aloud <i>again</i>");
    expect(textOf("a {\\rThoughts}b{\\r} c")).toBe("a <i>b</i> c");
    expect(textOf("*starred", "*Thoughts")).toBe("<i>*starred</i>");
    expect(textOf("unknown style", "Nope")).toBe("unknown style");
  });

  it("drops every other override, comment blocks and drawings without debris", () => {
    const text =
      "{\\an8\\pos(10,20)\\fad(200,200)\\blur3\\fnArial Black\\t(0,500,\\i1\\fscx120)\\clip(0,0,10,10)}top{note to self} {\\k20}ka{\\kf30}ra";
    expect(textOf(text)).toBe("top kara");
    const out = readAss(script(dialogue(text)));
    expect(out.notes).toEqual([
      "override tags other than italic, bold, underline, strike-out and colour dropped on 1 cue (\\an, \\pos, \\fad, \\blur, \\fn, \\t, \\clip, {comment})",
    ]);
    expect(textOf("{\\p1}m 0 0 l 100 0 100 100{\\p0}sign {\\p2}m 1 1 b 2 2 3 3 4 4")).toBe("sign");
  });

  it("keeps a `{` that no `}` closes and a lone `}` as text, as libass shows them", () => {
    expect(textOf("a { b")).toBe("a { b");
    expect(textOf("a } b {\\i1}c")).toBe("a } b <i>c</i>");
  });
});

describe("looksLikeAss", () => {
  it("recognises a script by its first lines only", () => {
    expect(looksLikeAss("\uFEFF[Script Info]\nTitle: x\n")).toBe(true);
    expect(looksLikeAss("\n\n[Events]\n")).toBe(true);
    expect(looksLikeAss("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,x")).toBe(true);
    expect(looksLikeAss("Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0,0,0,,x")).toBe(true);
    expect(looksLikeAss("1\n00:00:01,000 --> 00:00:02,000\nDialogue: the play\n")).toBe(false);
    expect(looksLikeAss("WEBVTT\n\n00:01.000 --> 00:02.000\nx\n")).toBe(false);
    expect(looksLikeAss("x\n".repeat(100_000) + "[Script Info]\n")).toBe(false);
  });
});

describe("writeAss", () => {
  it("writes a minimal v4+ script with CRLF line ends", () => {
    const out = writeAss([
      { startMs: 1000, endMs: 2500, text: "Hello, world" },
      { startMs: 3_723_040, endMs: 36_000_000, text: "<i>Two</i>\nlines" },
    ]);
    expect(out.split("\r\n")).toEqual([
      "[Script Info]",
      "ScriptType: v4.00+",
      "PlayResX: 384",
      "PlayResY: 288",
      "WrapStyle: 0",
      "ScaledBorderAndShadow: yes",
      "",
      "[V4+ Styles]",
      "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
      "Style: Default,Arial,16,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1",
      "",
      "[Events]",
      EVENTS_FORMAT,
      "Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,Hello, world",
      "Dialogue: 0,1:02:03.04,10:00:00.00,Default,,0,0,0,,{\\i1}Two{\\i0}\\Nlines",
      "",
    ]);
    expect(out).not.toMatch(/[^\r]\n/);
  });

  it("writes styles as overrides, keeps override tokens and cannot be tricked by braces or backslashes", () => {
    const line = (text: string) =>
      writeAss([{ startMs: 0, endMs: 1000, text }])
        .split("\r\n")[13]
        .slice("Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,".length);
    expect(line("<b>b</b> <u>u</u> <s>s<i>i")).toBe("{\\b1}b{\\b0} {\\u1}u{\\u0} {\\s1}s{\\i1}i{\\i0}{\\s0}");
    expect(line('<font color="#ff8000">a<font color="red">b</font>c</font>d')).toBe("{\\c&H0080FF&}a{\\c&H0000FF&}b{\\c&H0080FF&}c{\\c}d");
    expect(line('<font face="Arial">plain</font>')).toBe("plain");
    expect(line("{\\an8}top")).toBe("{\\an8}top");
    expect(line("{sic} C:\\new\\Names\\home \\x")).toBe("\uff5bsic\uff5d C:\uff3cnew\uff3cNames\uff3chome \\x");
  });

  it("rounds to the nearest centisecond, so touching cues still touch and a short cue keeps some length", () => {
    const times = (startMs: number, endMs: number) =>
      writeAss([{ startMs, endMs, text: "x" }])
        .split("\r\n")[13]
        .split(",")
        .slice(1, 3);
    expect(times(1004, 1005)).toEqual(["0:00:01.00", "0:00:01.01"]);
    expect(times(1005, 2994)).toEqual(["0:00:01.01", "0:00:02.99"]);
    expect(times(1234, 1234)).toEqual(["0:00:01.23", "0:00:01.23"]);
    expect(times(-5, 359_999_999)).toEqual(["0:00:00.00", "100:00:00.00"]);
  });

  it("reads back times past 999 hours, as a WebVTT import may store them", () => {
    const cues = [{ startMs: 3_600_022_860, endMs: 3_600_025_000, text: "late" }];
    expect(readAss(writeAss(cues)).cues.map((c) => [c.startMs, c.endMs])).toEqual([[3_600_022_860, 3_600_025_000]]);
  });

  it("reads back what it writes", () => {
    const cues = [
      { startMs: 0, endMs: 1230, text: '<i>Hi</i>, <b>you</b>\n<font color="#00ff00">green</font> and {curly}' },
      { startMs: 1230, endMs: 4560, text: "plain\nthree\nlines" },
    ];
    expect(readAss(writeAss(cues)).cues).toEqual([
      {
        index: 1,
        line: 14,
        startMs: 0,
        endMs: 1230,
        text: '<i>Hi</i>, <b>you</b>\n<font color="#00ff00">green</font> and \uff5bcurly\uff5d',
      },
      { index: 2, line: 15, startMs: 1230, endMs: 4560, text: "plain\nthree\nlines" },
    ]);
  });
});

describe("readAss: linear time", () => {
  const MIB2 = 2 * 1024 * 1024;
  /** The fastest of at most three reads (test/helpers/timing.ts) and what it gave. */
  const timed = (text: string) => {
    const { ms, out: outcome } = fastest(
      () => {
        try {
          return `${readAss(text).cues.length} cues`;
        } catch (err) {
          return err instanceof SubtitleError ? "refused" : "crashed";
        }
      },
      { limitMs: 1000 },
    );
    return { ms, outcome };
  };

  it.each([
    ["spaces, then a\\u2028a", " ".repeat(MIB2) + "a\u2028a"],
    ["open braces", "{".repeat(MIB2)],
    ["empty blocks", "{}".repeat(MIB2 / 2)],
    ["unclosed tag starts then one brace", "{\\".repeat(MIB2 / 2) + "}"],
    ["backslashes", "\\".repeat(MIB2)],
    ["no-break spaces", "\\h".repeat(MIB2 / 2)],
    ["alternating italics", "{\\i1}a{\\i0}b".repeat(MIB2 / 12)],
    ["alternating colours", "{\\c&HFF&}a{\\1c&H00FF00&}b{\\c}".repeat(MIB2 / 30)],
    ["one block of open parentheses", "{\\t(" + "(".repeat(MIB2) + "}x"],
    ["a drawing", "{\\p1}" + "m 0 0 l 100 0 ".repeat(MIB2 / 14) + "{\\p0}x"],
    ["commas", ",".repeat(MIB2)],
  ])("one 2 MiB Dialogue text of %s", (_, text) => {
    const { ms, outcome } = timed(script(dialogue(text)));
    expect(outcome).not.toBe("crashed");
    expect(ms).toBeLessThan(1000);
  });

  it.each([
    ["a time of 0s and colons", script("Dialogue: 0," + "0:".repeat(MIB2 / 2) + ",0:00:01.00,x")],
    ["a line with no comma", script("Dialogue: " + "0".repeat(MIB2))],
    ["a header of brackets", "[".repeat(MIB2) + "\n" + script(dialogue("x"))],
    ["a line of spaces", " ".repeat(MIB2) + "\n" + script(dialogue("x"))],
    ["a Format line of Start fields", "[Events]\nFormat: " + "Start, ".repeat(MIB2 / 7) + "End, Text\n"],
  ])("one 2 MiB line: %s", (_, text) => {
    const { ms, outcome } = timed(text);
    expect(outcome).not.toBe("crashed");
    expect(ms).toBeLessThan(1000);
  });

  it("a 2 MiB file of short cues", () => {
    const lines = ["[Events]", "Format: Start, End, Text"];
    let size = 30;
    for (let k = 0; size < MIB2; k++) {
      const cs = k * 3;
      const line = `Dialogue:${Math.floor(cs / 360_000)}:${Math.floor(cs / 6000) % 60}:${Math.floor(cs / 100) % 60}.${cs % 100},9:0:0.0,c${k}`;
      lines.push(line);
      size += line.length + 1;
    }
    const text = lines.join("\n");
    const { ms, out } = fastest(() => readAss(text), { limitMs: 1000 });
    expect(out.cues.length).toBe(lines.length - 2);
    expect(out.cues[60_000]).toEqual({ index: 60_001, line: 60_003, startMs: 1_800_000, endMs: 32_400_000, text: "c60000" });
    expect(ms).toBeLessThan(1000);
  });
});
