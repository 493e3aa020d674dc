import { describe, expect, it } from "vitest";
import htmlEntities from "webvtt-parser/html-entities.json";
import { type Cue, type CueInput } from "../../../src/domain/subtitles/cue";
import { looksLikeVtt, readVtt, writeVtt } from "../../../src/domain/subtitles/vtt";
import { stored, w3c } from "./reference-parsers";
import { fastest } from "../../helpers/timing";
import { refused } from "./refused";

const refusal = (text: string) => refused(() => readVtt(text));

const cue = (index: number, line: number, startMs: number, endMs: number, text: string): Cue => ({ index, line, startMs, endMs, text });

describe("looksLikeVtt", () => {
  it("finds the signature at the start, after a BOM or blank lines, and nowhere else", () => {
    expect(looksLikeVtt("WEBVTT\n\n00:01.000 --> 00:02.000\nx")).toBe(true);
    expect(looksLikeVtt("\uFEFFWEBVTT - a title")).toBe(true);
    expect(looksLikeVtt("\r\n \nWEBVTT")).toBe(true);
    expect(looksLikeVtt("1\n00:00:01,000 --> 00:00:02,000\nWEBVTT\n")).toBe(false);
    expect(looksLikeVtt("")).toBe(false);
    expect(looksLikeVtt(" ".repeat(2 * 1024 * 1024) + "WEBVTT")).toBe(false);
  });
});

describe("readVtt: the file as a browser reads it", () => {
  it("reads header, comments, identifiers, both time forms and settings, with notes", () => {
    const file = [
      "WEBVTT - a title",
      "Kind: captions",
      "",
      "NOTE a comment",
      "over two lines",
      "",
      "STYLE",
      "::cue { color: red }",
      "",
      "REGION",
      "id:r width:40%",
      "",
      "intro",
      "00:01.000 --> 00:02.500 align:start position:10%",
      "Hello",
      "  world  ",
      "",
      "0010:00:00.000 --> 100:00:00.001",
      "Ten hours",
      "",
    ].join("\n");
    expect(readVtt(file)).toEqual({
      cues: [cue(1, 14, 1000, 2500, "Hello\n  world"), cue(2, 18, 36_000_000, 360_000_001, "Ten hours")],
      notes: [
        "header lines after WEBVTT dropped",
        "3 NOTE, STYLE or REGION blocks skipped",
        "cue settings after the end time dropped on 1 timing line",
        "1 cue identifier dropped",
      ],
    });
  });

  it("ends a cue at a line holding -->, reads CR and CRLF, a BOM, NUL and no final newline", () => {
    const file = "\uFEFFWEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\none\r00:02.000 --> 00:03.000\ntwo\0\n\n00:03.000-->00:04.000";
    expect(readVtt(file).cues).toEqual([cue(1, 3, 1000, 2000, "one"), cue(2, 5, 2000, 3000, "two\uFFFD"), cue(3, 8, 3000, 4000, "")]);
  });

  it("reads a timing line right after the signature, drops white-space blocks and notes stray text blocks", () => {
    const file = "WEBVTT\n00:01.000 --> 00:02.000\na\n\n   \n\t\n\nstray\ntext\n\n7\n8\n00:03.000 --> 00:04.000\nb\n\n\t\t\n";
    const out = readVtt(file);
    expect(out.cues).toEqual([cue(1, 2, 1000, 2000, "a"), cue(2, 13, 3000, 4000, "b")]);
    expect(out.notes).toEqual(["2 blocks without a timing line dropped, as a browser drops them (lines 8, 11)"]);
  });

  it("keeps <i> <b> <u>, drops other nodes cleanly and nests as the WebVTT tree does", () => {
    const text = [
      "<v.loud Mary>Hi</v> <i.x>there</i>",
      "<c.yellow><b>bold</b></c> <u>u</u> <I>upper</I>",
      "<ruby>漢<rt>kan</rt></ruby> <lang en>word</lang> a<00:00:01.500>b",
      "<i>a<b>b</i>c</b>d",
      "<b>open",
    ].join("\n");
    const out = readVtt(`WEBVTT\n\n00:00.000 --> 00:05.000\n${text}\n`);
    // `</i>` while <b> is open is ignored, so "c" is bold too and the italic runs to the end.
    expect(out.cues[0].text).toBe("Hi <i>there</i>\n<b>bold</b> <u>u</u> upper\n漢kan word ab\n<i>a<b>bc</b>d\n<b>open</b></i>");
    expect(out.notes).toEqual([
      "<v> voice spans dropped (their text kept, the speaker's name not) in 1 cue",
      "class, language and ruby tags and karaoke timestamps dropped (their text kept) in 1 cue",
    ]);
  });

  it("unescapes character references as HTML does, keeping unknown ones as written", () => {
    const text =
      "&amp; &lt;&gt; a&nbsp;b &lrm;&rlm; &#65;&#x42;&#x1F600; &#150; &#0; &eacute;&hellip; &bogus; AT&T &notit &notin; &copy 2024 &amp";
    const out = readVtt(`WEBVTT\n\n00:00.000 --> 00:01.000\n${text}\n`);
    expect(out.cues[0].text).toBe("& <> a\u00a0b \u200e\u200f AB😀 – \uFFFD é… &bogus; AT&T ¬it &notin; © 2024 &");
    expect(out.notes).toEqual(["2 character references not known here kept as written"]);
  });

  it("decodes every named reference it knows as HTML's table does", () => {
    const table = htmlEntities as Record<string, string>;
    const names = Object.keys(table);
    expect(names.length).toBeGreaterThan(2000);
    // Each reference between "x" and " x" (a space ends a name written without ";"), one cue per hour.
    const body = names.map((n, k) => `\n${k}:00:00.000 --> ${k}:00:00.500\nx${n} x`).join("\n");
    const cues = readVtt(`WEBVTT\n${body}\n`).cues;
    expect(cues).toHaveLength(names.length);
    const decoded = names.filter((n, k) => {
      if (cues[k].text === `x${table[n]} x`) return true;
      expect(cues[k].text).toBe(`x${n} x`);
      return false;
    });
    expect(decoded).toEqual(expect.arrayContaining(["&amp;", "&lt;", "&gt;", "&nbsp;", "&lrm;", "&rlm;", "&eacute;", "&yuml;", "&mdash;"]));
    expect(decoded.filter((n) => n.endsWith(";")).length).toBeGreaterThanOrEqual(135);
    // Every name HTML reads without ";" (Latin-1 and a few more), and only those.
    expect(decoded.filter((n) => !n.endsWith(";"))).toEqual(names.filter((n) => !n.endsWith(";")));
  });

  it("reads as SubRip does the timings a browser drops (no fraction, 2-digit fraction, comma), with a note", () => {
    const file = "WEBVTT\n\n1\n00:01:39 --> 00:01:41.04 region:x\na\n\n00:02:04,5 --> 00:02:07.12\nb\n\n00:02:08.000 --> 00:02:09.000\nc\n";
    const out = readVtt(file);
    // Digits after the seconds are whole milliseconds, as the SubRip reader (and FFmpeg's WebVTT reader) takes them.
    expect(out.cues).toEqual([cue(1, 4, 99_000, 101_004, "a"), cue(2, 7, 124_005, 127_012, "b"), cue(3, 10, 128_000, 129_000, "c")]);
    expect(out.notes).toContain(
      "2 timings not in WebVTT form (no milliseconds, 1-2 digits of them, a comma) read as SubRip reads them, where a browser drops the cue (lines 4, 7)",
    );
  });

  it("refuses a file without the signature, naming line 1", () => {
    for (const text of ["1\n00:00:01,000 --> 00:00:02,000\nx\n", "WEBVTTX\n", "\nWEBVTT\n", "webvtt\n", ""]) {
      const err = refusal(text);
      expect(err).toMatchObject({ cue: undefined, line: 1 });
      expect(err.message).toMatch(/^line 1: a WebVTT file starts with "WEBVTT"/);
    }
    expect(readVtt("WEBVTT").cues).toEqual([]);
    expect(readVtt("WEBVTT\t\n").cues).toEqual([]);
  });

  it("skips a block whose timing line it cannot read, as a browser does, and reports it with its cue and line", () => {
    const ok = "WEBVTT\n\n00:01.000 --> 00:02.000\nok\n\n";
    const out = readVtt(`${ok}2\n00:03.000 --> soon\nlost\n\n00:04.000 --> 00:05.000\nshown\n`);
    expect(out.cues).toEqual([cue(1, 3, 1000, 2000, "ok"), cue(3, 10, 4000, 5000, "shown")]);
    expect(out.skipped).toEqual({
      count: 1,
      blocks: [{ cue: 2, line: 7, reason: 'the timing line "00:03.000 --> soon" is not "hh:mm:ss.ttt --> hh:mm:ss.ttt"' }],
    });
    // An arrow inside cue text starts a new block, which a browser drops; so is a minute or second of 60.
    expect(readVtt(`${ok}00:03.000 --> 00:04.000\nx\ny --> z\n`).skipped?.blocks).toEqual([
      { cue: 3, line: 8, reason: 'the timing line "y --> z" is not "hh:mm:ss.ttt --> hh:mm:ss.ttt"' },
    ]);
    expect(readVtt(`${ok}00:60.000 --> 00:61.000\nx\n`)).toMatchObject({ cues: [cue(1, 3, 1000, 2000, "ok")], skipped: { count: 1 } });
    // A comment holding an arrow is still a comment: nothing skipped.
    const comments = readVtt(`${ok}NOTE a --> b\n\nNOTE\nc --> d\n`);
    expect(comments.cues).toEqual([cue(1, 3, 1000, 2000, "ok")]);
    expect(comments.skipped).toBeUndefined();
  });

  it("refuses a file with no readable cue, naming the first block it skipped", () => {
    const bad = refusal("WEBVTT\n\n1\n00:03.000 --> soon\nlost\n\n00:04:00.000 -> 00:05:00.000\nlost too\n");
    expect(bad).toMatchObject({ cue: 1, line: 4 });
    expect(bad.message).toBe('cue 1 (line 4): the timing line "00:03.000 --> soon" is not "hh:mm:ss.ttt --> hh:mm:ss.ttt"');
  });

  it("lists at most the first ten skipped blocks, and counts them all", () => {
    const file = `WEBVTT\n\n00:00.000 --> 00:01.000\nok\n${Array.from({ length: 30 }, (_, k) => `\n00:${k}.000 --> x\nbad\n`).join("")}`;
    const { skipped } = readVtt(file);
    expect(skipped?.count).toBe(30);
    expect(skipped?.blocks.map((b) => b.cue)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("agrees with the W3C parser on hand-written spec-valid files: cue count, times and text", () => {
    const files = [
      "WEBVTT\n\n00:00.000 --> 00:01.000\nOne\n\n00:01.000 --> 00:02.000\n<i>Two</i>\n",
      "WEBVTT Title\n\nNOTE x\n\n1\n00:00:00.500 --> 00:00:07.000 line:0 align:start\n- A &amp; B\n- <b>C</b>\n\ncue-two\n01:00:00.000 --> 01:00:01.000\n<v Roger>Yes</v>\n",
      "WEBVTT\n\nSTYLE\n::cue(.red) { color: red }\n\n00:01.000 --> 00:04.000\n<c.red>red</c> &lt;tag&gt;\n\n00:02.000 --> 00:03.000\n<ruby>東<rt>とう</rt></ruby><lang ja>京</lang>\n",
      "WEBVTT\n\n100:00:00.000 --> 100:00:01.000\nlong\n\n999:59:59.998 --> 999:59:59.999\n<00:00:00.000>k<u>a</u>\n",
      `WEBVTT\n\n${Array.from({ length: 300 }, (_, k) => `${k}\n${k}:00:00.000 --> ${k}:30:00.000\ncue ${k}\n`).join("\n")}`,
    ];
    for (const file of files) {
      const oracle = w3c(file);
      const ours = readVtt(file).cues;
      expect(ours.length).toBe(oracle.cues.length);
      ours.forEach((c, k) => {
        expect(c.startMs).toBe(Math.round(oracle.cues[k].startTime * 1000));
        expect(c.endMs).toBe(Math.round(oracle.cues[k].endTime * 1000));
        expect(c.text).toBe(stored(oracle.cues[k].tree.children));
      });
    }
  });
});

describe("writeVtt", () => {
  it("writes the signature, hh:mm:ss.mmm timings and cue text", () => {
    const cues: CueInput[] = [
      { startMs: 1000, endMs: 2500, text: "<i>Hello</i>\nworld" },
      { startMs: 3_600_000 * 123 + 4, endMs: 3_600_000 * 123 + 5, text: "late" },
    ];
    expect(writeVtt(cues)).toBe("WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<i>Hello</i>\nworld\n\n123:00:00.004 --> 123:00:00.005\nlate\n");
    expect(writeVtt([])).toBe("WEBVTT\n");
  });

  it("escapes & < >, drops <s>, <font> and override blocks, never leaves a blank line or an arrow", () => {
    const text = '{\\an8}A --> B & <C>\n<font color="red">red</font> <s>gone</s> <b>bold\n{\\pos(1,2)}\n \nend</b>\r\rx';
    expect(writeVtt([{ startMs: 0, endMs: 1000, text }])).toBe(
      "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nA --&gt; B &amp; &lt;C&gt;\nred gone <b>bold\nend</b>\nx\n",
    );
  });

  it("writes a zero-length cue 1 ms long: WebVTT wants the end after the start, and the W3C parser refuses it otherwise", () => {
    const file = writeVtt([
      { startMs: 1000, endMs: 1000, text: "flash" },
      { startMs: 2000, endMs: 3000, text: "normal" },
    ]);
    expect(file).toBe("WEBVTT\n\n00:00:01.000 --> 00:00:01.001\nflash\n\n00:00:02.000 --> 00:00:03.000\nnormal\n");
    expect(w3c(file).errors).toEqual([]);
  });

  it("orders cues by start time, keeping the given order for equal starts", () => {
    const out = writeVtt([
      { startMs: 2000, endMs: 3000, text: "b" },
      { startMs: 0, endMs: 1000, text: "a1" },
      { startMs: 0, endMs: 500, text: "a2" },
    ]);
    expect(readVtt(out).cues.map((c) => c.text)).toEqual(["a1", "a2", "b"]);
  });
});

/** Cues a hostile uploader could store: arrows, markup look-alikes, entities, scripts, empty and overlapping cues. */
function hostileCues(count: number, seed: number): CueInput[] {
  const pieces = [
    "-->",
    "--",
    ">",
    "<",
    "&",
    "&amp;",
    "&lt;",
    "&#65;",
    "<i>",
    "</i>",
    "<b>",
    "</b>",
    "<u>",
    "</u>",
    "<s>",
    "</s>",
    '<font color="#ff0000">',
    "</font>",
    "<v Mary>",
    "</c>",
    "<00:00:01.000>",
    "{\\an8}",
    "{\\i1}",
    "\n",
    "\n",
    " ",
    "\t",
    "\u00a0",
    "NOTE",
    "WEBVTT",
    "00:00:01.000 --> 00:00:02.000",
    "漢字かな",
    "한국어",
    "שלום",
    "مرحبا",
    "\u202b",
    "\u200f",
    "😀",
    "👩‍👩‍👧",
    "x",
    "Word",
    "\r",
  ];
  let state = seed;
  const next = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
  return Array.from({ length: count }, (_, k) => {
    const startMs = k * 1000 + next(3) * 400;
    const endMs = next(5) === 0 ? startMs : startMs + next(4000);
    const text = Array.from({ length: next(12) }, () => pieces[next(pieces.length)]).join("");
    return { startMs, endMs, text };
  });
}

describe("writeVtt, checked by the W3C parser inside workerd", () => {
  const samples: CueInput[] = [
    { startMs: 0, endMs: 0, text: "zero length" },
    { startMs: 0, endMs: 5000, text: "overlaps the next" },
    { startMs: 1000, endMs: 2000, text: "a --> b <c> & d &amp;" },
    { startMs: 2000, endMs: 3000, text: "<i>unclosed" },
    { startMs: 3000, endMs: 4000, text: "</b>stray close<u>" },
    { startMs: 4000, endMs: 5000, text: "中文字幕\nעברית ومرحبا\n😀👍🏽" },
    { startMs: 5000, endMs: 6000, text: "" },
    { startMs: 6000, endMs: 7000, text: "<i>\n</i>" },
    ...hostileCues(500, 7).map((c) => ({ ...c, startMs: c.startMs + 10_000, endMs: c.endMs + 10_000 })),
  ];

  it("reads every written file with no error and the same cues, a zero-length cue 1 ms long", () => {
    const file = writeVtt(samples);
    // Shape: the signature, then one block per cue, each a timing line and non-blank text lines; "-->" only in timings.
    const blocks = file.slice(0, -1).split("\n\n");
    expect(blocks).toHaveLength(samples.length + 1);
    expect(blocks[0]).toBe("WEBVTT");
    for (const block of blocks.slice(1)) {
      const [timing, ...text] = block.split("\n");
      expect(timing).toMatch(/^\d{2,}:\d{2}:\d{2}\.\d{3} --> \d{2,}:\d{2}:\d{2}\.\d{3}$/);
      for (const line of text) {
        expect(line.trim()).not.toBe("");
        expect(line).not.toContain("-->");
        expect(line).not.toContain("\r");
      }
    }
    const oracle = w3c(file);
    // WebVTT syntax wants end > start: a zero-length cue is written with the smallest length that is valid, 1 ms.
    const sorted = [...samples]
      .sort((a, b) => a.startMs - b.startMs)
      .map((c) => (c.endMs === c.startMs ? { ...c, endMs: c.startMs + 1 } : c));
    expect(samples.filter((c) => c.startMs === c.endMs).length).toBeGreaterThan(50);
    expect(oracle.errors).toEqual([]);
    // The W3C parser sorts by start, then longest first: compare against our own reading, in file order, by times.
    const ours = readVtt(file).cues;
    expect(ours).toHaveLength(sorted.length);
    ours.forEach((c, k) => expect([c.startMs, c.endMs]).toEqual([sorted[k].startMs, sorted[k].endMs]));
    const key = (s: number, e: number, t: string) => `${s} ${e} ${t}`;
    expect(
      oracle.cues.map((c) => key(Math.round(c.startTime * 1000), Math.round(c.endTime * 1000), stored(c.tree.children))).sort(),
    ).toEqual(ours.map((c) => key(c.startMs, c.endMs, c.text)).sort());
  });

  it("keeps the text: the plain text read back is the stored text's, and the written style survives a round trip", () => {
    const ours = readVtt(writeVtt(samples)).cues;
    const plain = (t: string) =>
      t
        .replace(/<\/?(i|b|u|s)>|<font[^>]*>|<\/font>|\{\\[^}\n]*\}/g, "")
        .split(/\r\n|\r|\n/)
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() !== "")
        .join("\n");
    const sorted = [...samples].sort((a, b) => a.startMs - b.startMs);
    ours.forEach((c, k) => expect(plain(c.text)).toBe(plain(sorted[k].text)));
    expect(ours[2].text).toBe("a --> b <c> & d &amp;");
    expect(readVtt(writeVtt(ours)).cues).toEqual(ours);
  });
});

describe("linear time on 2 MiB inputs", () => {
  const MiB2 = 2 * 1024 * 1024;
  /** The fastest of at most three reads (test/helpers/timing.ts), refusals allowed. */
  const timed = (text: string): number => fastest(() => readVtt(text), { limitMs: 1000, refusals: true }).ms;

  it("reads one pathological 2 MiB line in under a second, whatever it holds", () => {
    const head = "WEBVTT\n\n00:00.000 --> 00:01.000\n";
    const lines = {
      "less-than signs": "<".repeat(MiB2),
      "unclosed tags": "<i>a".repeat(MiB2 / 4),
      "nested tags": "<b>".repeat(MiB2 / 3),
      "alternating tags": "<i>a</i><b>b</b>".repeat(MiB2 / 16),
      "misnested tags": "<i>a<b>b</i>c</b>".repeat(MiB2 / 18),
      "ruby and voices": "<ruby>a<rt>b</rt></ruby><v x>".repeat(MiB2 / 30),
      ampersands: "&".repeat(MiB2),
      "long names": ("&" + "a".repeat(40)).repeat(MiB2 / 41),
      "numeric references": "&#" + "9".repeat(MiB2),
      "escaped brackets": "&lt;".repeat(MiB2 / 4),
      "spaces and separators": " ".repeat(MiB2 / 2) + "a\u2028a".repeat(MiB2 / 6),
    };
    const figures: string[] = [];
    for (const [name, line] of Object.entries(lines)) {
      const ms = timed(head + line);
      figures.push(`${name} ${Math.round(ms)} ms`);
      expect(ms, name).toBeLessThan(1000);
    }
    const timings = {
      "digits and colons": "0".repeat(MiB2 / 2) + ":00:00.000 --> " + "0:".repeat(MiB2 / 4),
      arrows: "-->".repeat(MiB2 / 3),
      "spaces before the arrow": "00:00.000" + " ".repeat(MiB2) + "x-->",
    };
    Object.assign(timings, { "empty lines": "\n".repeat(MiB2), "one comment block": "NOTE x\n".repeat(MiB2 / 7) });
    for (const [name, line] of Object.entries(timings)) {
      const ms = timed(`WEBVTT\n\n${line}\ntext\n`);
      figures.push(`${name} ${Math.round(ms)} ms`);
      expect(ms, name).toBeLessThan(1000);
    }
    console.log(`WebVTT reader, 2 MiB lines: ${figures.join(", ")}`);
  });

  it("reads 2 MiB files of 78,000 to 95,000 cues in under a second", () => {
    const time = (k: number) =>
      `${String(Math.floor(k / 60000) % 60).padStart(2, "0")}:${String(Math.floor(k / 1000) % 60).padStart(2, "0")}.${String(k % 1000).padStart(3, "0")}`;
    // Cues as usually written, and the densest form: timing lines alone, each ending the cue before it.
    const shapes = { usual: (k: number) => `\n${time(k)} --> ${time(k + 1)}\nx\n`, dense: (k: number) => `${time(k)}-->${time(k + 1)}\n` };
    for (const [shape, cue] of Object.entries(shapes)) {
      const parts = ["WEBVTT\n"];
      let size = 7;
      let k = 0;
      for (; size + 30 < MiB2; k++) {
        parts.push(cue(k));
        size += parts[parts.length - 1].length;
      }
      const file = parts.join("");
      expect(file.length).toBeLessThanOrEqual(MiB2);
      const { ms, out } = fastest(() => readVtt(file), { limitMs: 1000 });
      expect(out.cues).toHaveLength(k);
      expect(out.cues[k - 1]).toMatchObject({ index: k, startMs: (k - 1) % 3_600_000, endMs: k % 3_600_000 });
      expect(k).toBeGreaterThan(75_000);
      console.log(`WebVTT reader, 2 MiB file of ${k} cues (${shape}): ${Math.round(ms)} ms`);
      expect(ms).toBeLessThan(1000);
    }
  });
});
