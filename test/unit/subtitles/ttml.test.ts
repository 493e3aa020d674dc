import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { type CueInput } from "../../../src/domain/subtitles/cue";
import { looksLikeTtml, readTtml, writeTtml } from "../../../src/domain/subtitles/ttml/ttml";
import { fastest } from "../../helpers/timing";
import { refused } from "./refused";

const refusal = (text: string) => refused(() => readTtml(text));

/** The cues without their positions, for comparing times and text. */
const timed = (text: string) => readTtml(text).cues.map(({ startMs, endMs, text }) => ({ startMs, endMs, text }));

const TT = `<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"`;
/** A document around `body`, with `params` on `<tt>`. */
const doc = (body: string, params = "") => `${TT}${params}><body><div>${body}</div></body></tt>`;

describe("readTtml: documents as writers make them", () => {
  it("reads a streaming-service file: ticks, xml:space preserve, italic spans by style, <br/>", () => {
    const text = [
      `<?xml version="1.0" encoding="UTF-8" standalone="no"?>`,
      `<tt xmlns:tt="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling" ttp:tickRate="10000000" ttp:timeBase="media" xmlns="http://www.w3.org/ns/ttml">`,
      `<head><ttp:profile use="http://example.com/profile"/><styling>`,
      `<style tts:color="white" tts:fontSize="100%" xml:id="s1"/>`,
      `<style tts:color="white" tts:fontStyle="italic" xml:id="s1_1"/>`,
      `</styling><layout><region tts:displayAlign="after" xml:id="bottom"/></layout></head>`,
      `<body><div xml:space="preserve">`,
      `<p begin="79249170t" end="120119999t" region="bottom" style="s1" xml:id="c0">A SERIES</p>`,
      `<p begin="134304170t" end="158908750t" region="bottom" style="s1" xml:id="c1"><span style="s1_1">I always loved</span><br/><span style="s1_1">washing.</span></p>`,
      `<p begin="170590420t" end="186856670t" region="bottom" style="s1" xml:id="c2">Mixed <span style="s1_1">style</span>, it's fine.</p>`,
      `</div></body></tt>`,
    ].join("\n");
    expect(readTtml(text)).toEqual({
      cues: [
        // 7,924.917 ms and 12,011.9999 ms: rounded to the nearest millisecond
        { index: 1, line: 8, startMs: 7925, endMs: 12012, text: "A SERIES" },
        { index: 2, line: 9, startMs: 13430, endMs: 15891, text: "<i>I always loved</i>\n<i>washing.</i>" },
        { index: 3, line: 10, startMs: 17059, endMs: 18686, text: "Mixed <i>style</i>, it's fine." },
      ],
      notes: [],
    });
  });

  it("reads TTAF 2006/10 with SMPTE frames, indented content collapsed, <tt:br/>, nested spans and region styles", () => {
    const text = `<tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:tt="http://www.w3.org/2006/10/ttaf1" xmlns:tts="http://www.w3.org/2006/10/ttaf1#styling" xmlns:ttp="http://www.w3.org/2006/10/ttaf1#parameter" ttp:timeBase="smpte" ttp:frameRate="25" ttp:frameRateMultiplier="1:1">
    <head>
        <metadata><ttm:title>Title</ttm:title></metadata>
        <styling>
            <style xml:id="s0" tts:color="white" tts:fontStyle="normal"/>
        </styling>
        <layout>
            <region xml:id="r0" tt:style="s0" tt:color="blue"/>
            <region xml:id="r1"><style tts:fontStyle="italic"/><style tts:origin="10% 10%"/></region>
        </layout>
    </head>
    <body>
        <div>
            <p begin="00:02:04.080" end="00:02:07.120" region="r0">
                MAN:
                <tt:br/>
                How did we <span style="s0" color="green">end up</span> here?
            </p>
            <p begin="00:02:31.400" end="00:02:33:11" region="r1">
                <span>(computer playing</span>
                <tt:br/>
                <span tts:fontWeight="bold">electronic</span> melody)
            </p>
        </div>
    </body>
</tt>`;
    expect(readTtml(text).cues).toEqual([
      { index: 1, line: 14, startMs: 124_080, endMs: 127_120, text: "MAN:\nHow did we end up here?" },
      // 00:02:33:11 at 25 fps = 153.44 s; region r1's nested style makes the cue italic
      { index: 2, line: 19, startMs: 151_400, endMs: 153_440, text: "<i>(computer playing\n<b>electronic</b> melody)</i>" },
    ]);
  });

  it("reads offset times, chained styles, comments, and two <p> with the same begin as two cues", () => {
    const text = `<tt xml:lang="" xmlns="http://www.w3.org/ns/ttml">
  <head>
    <styling xmlns:tts="http://www.w3.org/ns/ttml#styling">
      <!-- s1: the default -->
      <style xml:id="s1" tts:color="white" tts:fontSize="22px"/>
      <style xml:id="s2" style="s1" tts:color="yellow"/>
      <style xml:id="s2Left" style="s2" tts:textAlign="start" />
    </styling>
    <layout xmlns:tts="http://www.w3.org/ns/ttml#styling">
      <region xml:id="area" style="s1" tts:backgroundColor="black"/>
    </layout>
  </head>
  <body region="area">
    <div>
      <p begin="0.76s" end="3.45s">
        It seems a paradox,
      </p>
      <!-- a comment between cues -->
      <p begin="28.0s" end="34.6s" style="s2Left">
        But how is it<br/>
        proved?
      </p>
      <p begin="28.0s" end="34.6s">Thus: <!-- inside --> what we call</p>
    </div>
  </body>
</tt>`;
    expect(readTtml(text).cues).toEqual([
      { index: 1, line: 15, startMs: 760, endMs: 3450, text: "It seems a paradox," },
      { index: 2, line: 19, startMs: 28000, endMs: 34600, text: '<font color="#ffff00">But how is it\nproved?</font>' },
      { index: 3, line: 23, startMs: 28000, endMs: 34600, text: "Thus: what we call" },
    ]);
  });

  it("reads DFXP 2006/04: one-digit clock fields, leading spaces, styles named by id, an empty last <p>", () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<tt xml:lang="es" xmlns="http://www.w3.org/2006/04/ttaf1" xmlns:tts="http://www.w3.org/2006/04/ttaf1#styling">
<head><styling><style id="white" tts:fontWeight="bold" tts:color="#FFFFFF" tts:fontSize="15"/></styling></head>
<body>
<div xml:lang="es">
<p begin="0:0:7.800" end="0:0:11.360" style="white">  Subtitulado para<br />personas sordas</p>
<p begin="0:1:34.640" end="0:1:38.120" style="white">Bueno, señores, muchas<br /> gracias.</p>
<p begin="0:0:0.0" end="0:0:0.0" style="white"></p>
</div>
</body>
</tt>`;
    expect(readTtml(text).cues).toEqual([
      { index: 1, line: 6, startMs: 7800, endMs: 11360, text: "<b>Subtitulado para\npersonas sordas</b>" },
      { index: 2, line: 7, startMs: 94640, endMs: 98120, text: "<b>Bueno, señores, muchas\ngracias.</b>" },
      { index: 3, line: 8, startMs: 0, endMs: 0, text: "" },
    ]);
  });

  it("reads frames at 24 × 1000/1001 fps and a ttm: prefix used without its declaration", () => {
    const text = `<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="24" ttp:frameRateMultiplier="1000 1001">
  <head><metadata><ttm:title>Frames</ttm:title></metadata></head>
  <body><div><p begin="360f" end="424f">First line.</p></div></body>
</tt>`;
    // 424 / (24000 / 1001) s = 17,684.33 ms
    expect(readTtml(text).cues).toEqual([{ index: 1, line: 4, startMs: 15015, endMs: 17684, text: "First line." }]);
  });

  it("counts lines over CRLF, CR and LF alike, after a BOM", () => {
    const body = ["<tt>", "<body><div>", `<p begin="1s" end="2s">a</p>`, "", `<p begin="2s" end="3s">b</p>`, "</div></body></tt>"];
    for (const eol of ["\r\n", "\r", "\n"])
      expect(readTtml(`\ufeff${body.join(eol)}`).cues.map((c) => [c.index, c.line])).toEqual([
        [1, 3],
        [2, 5],
      ]);
  });

  it("reads YouTube's form: character references and <br />", () => {
    expect(
      timed(doc(`<p begin="00:00:25.610" end="00:00:29.180">for this video I&#39;m just<br />going to &quot;focus&quot;</p>`)),
    ).toEqual([{ startMs: 25610, endMs: 29180, text: `for this video I'm just\ngoing to "focus"` }]);
  });
});

describe("readTtml: timing", () => {
  it("reads every form of time expression", () => {
    const cues = timed(
      doc(
        [
          `<p begin="12.3s" end="500ms">a</p>`,
          `<p begin="2h" end="1.5m">b</p>`,
          `<p begin="75f" end="01:02:03.5">c</p>`,
          `<p begin="00:00:01:12.1" end="100t">d</p>`,
          `<p begin="1:2:3" end="10:00:00,25">e</p>`,
        ].join(""),
        ` ttp:frameRate="25" ttp:subFrameRate="2"`,
      ),
    );
    expect(cues.map((c) => [c.startMs, c.endMs])).toEqual([
      [12300, 500],
      [7_200_000, 90_000],
      [3000, 3_723_500],
      // 1 s + 12 frames + 1 of 2 sub-frames at 25 fps; ticks default to frame rate × sub-frame rate = 50/s
      [1500, 2000],
      [3_723_000, 36_000_250],
    ]);
  });

  it("counts ticks at one a second when neither tick rate nor frame rate is given", () => {
    expect(timed(doc(`<p begin="3t" end="4t">x</p>`))[0]).toMatchObject({ startMs: 3000, endMs: 4000 });
  });

  it("adds the begin of <body> and <div> and uses dur; a <p> without end ends with its <div>", () => {
    const text = `${TT}><body begin="10s"><div begin="5s" end="20s"><p begin="1s" dur="2s">a</p><p begin="3s">b</p><p begin="4s" end="30s">c</p></div></body></tt>`;
    const { cues, notes } = readTtml(text);
    expect(cues.map((c) => [c.startMs, c.endMs])).toEqual([
      // the <div> runs 15 s to 30 s: its begin and end both count from the <body>'s begin
      [16000, 18000],
      [18000, 30000],
      [19000, 30000],
    ]);
    expect(notes).toEqual(["cue ends cut to the end of the <div> or <body> holding them (once, first on line 1)"]);
  });

  it("follows a seq container: each child starts after the previous one ends", () => {
    const text = `${TT}><body><div timeContainer="seq"><p dur="1s">a</p><p dur="2s">b</p><p begin="1s" dur="1s">c</p></div></body></tt>`;
    expect(timed(text).map((c) => [c.startMs, c.endMs])).toEqual([
      [0, 1000],
      [1000, 3000],
      [4000, 5000],
    ]);
  });

  it("times a <p> with no end of its own by the spans in it", () => {
    const { cues, notes } = readTtml(doc(`<p><span begin="1s" end="2s">a</span> <span begin="2s" end="3.5s">b</span></p>`));
    expect(cues).toEqual([{ index: 1, line: 1, startMs: 1000, endMs: 3500, text: "a b" }]);
    expect(notes).toEqual(["<p> elements with no end of their own timed by the spans in them (once, first on line 1)"]);
  });
});

describe("readTtml: text", () => {
  it("maps styling to the stored tags, a style turned off inside another, colours but white", () => {
    const text = doc(
      `<p begin="1s" end="2s" tts:fontWeight="bold">a <span tts:fontWeight="normal">b</span> <span tts:fontStyle="oblique">c</span></p>` +
        `<p begin="2s" end="3s"><span tts:textDecoration="underline">u<span tts:textDecoration="lineThrough">s</span></span></p>` +
        `<p begin="3s" end="4s"><span tts:color="rgba(255,0,0,255)">red</span> <span tts:color="#00ff0000">clear</span> <span tts:color="#FFFFFF">white</span> <span tts:color="lime">lime</span></p>`,
    );
    expect(timed(text).map((c) => c.text)).toEqual([
      "<b>a </b>b<b> <i>c</i></b>",
      "<u>u<s>s</s></u>",
      '<font color="#ff0000">red</font> clear white <font color="#00ff00">lime</font>',
    ]);
  });

  it("collapses white space by default, keeps it with xml:space preserve (line feeds are breaks)", () => {
    const text = doc(
      `<p begin="1s" end="2s">\n   one \t two\n   <br/>  three  </p>` +
        `<p begin="2s" end="3s" xml:space="preserve">  one\n  two   three  \n\n</p>` +
        `<p begin="3s" end="4s">a <span tts:fontStyle="italic"> b </span> c</p>`,
    );
    expect(timed(text).map((c) => c.text)).toEqual(["one two\nthree", "  one\n  two   three", "a <i>b </i>c"]);
  });

  it("unescapes the XML entities and character references, keeps CDATA literal and skips comments, PIs and metadata", () => {
    const { cues, notes } = readTtml(
      doc(
        `<p begin="1s" end="2s">&lt;&amp;&gt;&apos;&#x263A;&#9731;<![CDATA[a&amp;b]]><!-- c --><?pi x?><metadata>hidden</metadata> &nbsp; & x</p>`,
      ),
    );
    expect(cues[0].text).toBe("<&>'☺☃a&amp;b &nbsp; & x");
    expect(notes).toEqual([
      "unknown entity references kept as written (once, first on line 1)",
      'an "&" that starts no reference kept as text (once, first on line 1)',
    ]);
  });

  it("never reads a DTD: declared entities (and external ones) stay as written", () => {
    const text = `<?xml version="1.0"?>\n<!DOCTYPE tt [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n<!ENTITY lol "lol&lol;lol" >\n<!ENTITY odd "]>">\n]>\n${doc(`<p begin="1s" end="2s">&xxe;&lol;</p>`)}`;
    expect(timed(text)).toEqual([{ startMs: 1000, endMs: 2000, text: "&xxe;&lol;" }]);
  });

  it("drops the control characters XML forbids and reads a stray < as text", () => {
    const { cues, notes } = readTtml(doc(`<p begin="1s" end="2s">a\u0001b&#1;c 3 < 4</p>`));
    expect(cues[0].text).toBe("abc 3 < 4");
    expect(notes).toEqual([
      'a "<" that starts no tag kept as text (once, first on line 1)',
      "control characters XML does not allow dropped (2 times, first on line 1)",
    ]);
  });

  it("keeps breaks out of tags at line ends and drops empty lines", () => {
    const text = doc(
      `<p begin="1s" end="2s"><span tts:fontStyle="italic">a<br/></span>b<br/><br/><span tts:fontStyle="italic"><br/>c</span><span tts:fontWeight="bold"> </span></p>`,
    );
    expect(timed(text)[0].text).toBe("<i>a</i>\nb\n<i>c</i>");
  });

  it("closes a <span> left open by its </p>, and reads a document cut after its last </p>", () => {
    const { cues, notes } = readTtml(`<tt><body><div>\n<p begin="1s" end="2s"><span tts:fontStyle="italic">a</p>\n`);
    expect(cues).toEqual([{ index: 1, line: 2, startMs: 1000, endMs: 2000, text: "<i>a</i>" }]);
    expect(notes).toEqual([
      "elements left open closed by the end tag of their parent (once, first on line 2)",
      "the file ends before its elements are closed (once, first on line 3)",
    ]);
  });
});

describe("readTtml: refusals name the cue and the line of its <p>", () => {
  it("refuses a file with no <p>, naming the line of <body>", () => {
    expect(refusal(`<tt>\n<head/>\n<body>\n</body></tt>`)).toMatchObject({ cue: undefined, line: 3 });
    expect(refusal(`<tt>\n<body>\n</body></tt>`).message).toBe("line 2: the file holds no cues (no <p> element)");
    expect(refusal("1\n00:00:01,000 --> 00:00:02,000\nhello\n").message).toBe(
      "line 1: the file holds no cues (no <tt> element: this is not a TTML document)",
    );
  });

  it("refuses a <p> without usable timing", () => {
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a</p>\n<p begin="1s">b</p></div></body></tt>`).message).toBe(
      "cue 2 (line 3): this <p> has no end: no end or dur on it, nor on a <div> or <body> around it",
    );
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2x">a</p></div></body></tt>`).message).toBe(
      'cue 1 (line 2): end="2x" is not a TTML time expression',
    );
    expect(refusal(`<tt><body><div begin="soon">\n<p begin="1s" end="2s">a</p></div></body></tt>`).message).toBe(
      'cue 1 (line 2): begin="soon" on the <div> of line 1 is not a TTML time expression',
    );
    expect(refusal(`<tt><body><div timeContainer="seq"><p begin="1s">a</p>\n<p dur="1s">b</p></div></body></tt>`)).toMatchObject({
      cue: 1,
      line: 1,
    });
  });

  it("refuses XML broken where a cue is", () => {
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a\n<p begin="2s" end="3s">b</p></div></body></tt>`).message).toBe(
      "cue 1 (line 2): a <p> starts inside this <p>: is its </p> missing? (line 3)",
    );
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a\n</div></body></tt>`).message).toBe(
      "cue 1 (line 2): this <p> has no </p> before </div> (line 3)",
    );
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a</p>\n<p begin="1s"\n end="2s" =>b</p></div></body></tt>`).message).toBe(
      'cue 2 (line 3): unexpected "=" in the tag <p (line 4)',
    );
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a\n<span a="b>c</span></p></div></body></tt>`).message).toBe(
      "cue 1 (line 2): the value of a in the tag <span has no closing quote (line 3)",
    );
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a</p>\n<p begin="2s" end="3s">b`).message).toBe(
      "cue 2 (line 3): this <p> has no </p>: the file ends first",
    );
    expect(refusal(`<tt><body><div>\n<p begin="1s" end="2s">a</p>\n<!-- x\n</div></body></tt>`).message).toBe(
      "line 3: a comment opened here never ends (after cue 1)",
    );
    expect(refusal(`<tt><body>${"<div>".repeat(300)}<p begin="1s" end="2s">a</p></body></tt>`).message).toBe(
      "line 1: elements nested more than 256 deep",
    );
  });
});

describe("looksLikeTtml", () => {
  it("finds a <tt> root after a declaration, comments and a DOCTYPE, with any prefix", () => {
    expect(looksLikeTtml("<tt>")).toBe(true);
    expect(looksLikeTtml(`\ufeff<?xml version="1.0"?>\n<!-- made by hand -->\n<tt:tt xmlns:tt="http://www.w3.org/ns/ttml">`)).toBe(true);
    expect(looksLikeTtml(`<!DOCTYPE tt [ <!ENTITY a '>'> ]>\n<tt xml:lang="en">`)).toBe(true);
    expect(looksLikeTtml("<ttx>")).toBe(false);
    expect(looksLikeTtml("<html><tt>")).toBe(false);
    expect(looksLikeTtml("WEBVTT\n\n00:01.000 --> 00:02.000\n<tt>")).toBe(false);
    expect(looksLikeTtml(`<!--${" ".repeat(100_000)}--><tt>`)).toBe(false);
  });
});

describe("writeTtml", () => {
  const cues: CueInput[] = [
    { startMs: 1000, endMs: 2500, text: "Hello & <welcome>\nsecond line" },
    { startMs: 3_723_004, endMs: 3_724_000, text: '<i>it</i> and <b><u>bold under</u></b>\n<font color="#ff0000">red</font> <s>gone</s>' },
    { startMs: 5000, endMs: 6000, text: "  lead  and\tdouble" },
    { startMs: 7000, endMs: 8000, text: "" },
  ];

  it("writes a TTML1 document with escaped text, <br/> and styling spans", () => {
    expect(writeTtml(cues.slice(0, 2), { language: "en" })).toBe(
      [
        `<?xml version="1.0" encoding="UTF-8"?>`,
        `<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en">`,
        `  <body>`,
        `    <div>`,
        `      <p begin="00:00:01.000" end="00:00:02.500">Hello &amp; &lt;welcome&gt;<br/>second line</p>`,
        `      <p begin="01:02:03.004" end="01:02:04.000"><span tts:fontStyle="italic">it</span> and <span tts:fontWeight="bold"><span tts:textDecoration="underline">bold under</span></span><br/><span tts:color="#ff0000">red</span> <span tts:textDecoration="lineThrough">gone</span></p>`,
        `    </div>`,
        `  </body>`,
        `</tt>`,
        ``,
      ].join("\n"),
    );
  });

  it("reads back as written, and is well-formed XML", () => {
    const out = writeTtml(cues, { language: "fr" });
    expect(XMLValidator.validate(out)).toBe(true);
    expect(readTtml(out)).toEqual({ cues: cues.map((c, k) => ({ index: k + 1, line: k + 5, ...c })), notes: [] });
    expect(out).toContain(`<p begin="00:00:05.000" end="00:00:06.000" xml:space="preserve">  lead  and\tdouble</p>`);
  });

  it("stays well-formed with hostile text: control characters dropped, override blocks dropped", () => {
    const hostile: CueInput[] = [
      { startMs: 0, endMs: 1000, text: "]]> <![CDATA[ x ]]> <!-- --> <?pi?> &amp; &#0; <p> </tt>" },
      { startMs: 1000, endMs: 2000, text: "a\u0000b\u0001c\u0008d\u000be\u001ff\ud800g\ufffe" },
      { startMs: 2000, endMs: 3000, text: '{\\an8}<font color="nocolor">x</font> <i>open' },
    ];
    const out = writeTtml(hostile, { language: '"><x' });
    expect(XMLValidator.validate(out)).toBe(true);
    expect(timed(out)).toEqual([
      { startMs: 0, endMs: 1000, text: "]]> <![CDATA[ x ]]> <!-- --> <?pi?> &amp; &#0; <p> </tt>" },
      { startMs: 1000, endMs: 2000, text: "abcdefg" },
      { startMs: 2000, endMs: 3000, text: "x <i>open</i>" },
    ]);
  });
});

describe("readTtml: linear time on 2 MiB", () => {
  const MiB2 = 2 * 1024 * 1024;
  const inP = (inner: string) => `<tt><body><div><p begin="1s" end="2s">${inner}</p></div></body></tt>`;
  const pathological: Array<[string, string]> = [
    ["spaces then a\\u2028a", inP(" ".repeat(MiB2) + "a\u2028a")],
    ["< repeated", inP("<".repeat(MiB2))],
    ["& repeated", inP("&".repeat(MiB2))],
    ["unfinished references", inP("&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".repeat(MiB2 / 32))],
    ["line feeds", inP("\n".repeat(MiB2))],
    ["<br/> repeated", inP("<br/>".repeat(MiB2 / 5))],
    ["spans", inP(`<span tts:fontStyle="italic">a</span><span tts:fontWeight="bold"> </span>`.repeat(MiB2 / 72))],
    ["0s and colons in a time", `<tt><body><p begin="${"0:".repeat(MiB2 / 2)}" end="1s">x</p></body></tt>`],
    ["attributes", `<tt><body><p begin="1s" end="2s" ${"a=' ".repeat(MiB2 / 4)}>x</p></body></tt>`],
    ["stray end tags", `<tt><body>${"<div>".repeat(250)}<p begin="1s" end="2s">x</p>${"</q>".repeat(MiB2 / 4)}</body></tt>`],
    ["a quote never closed", `<tt><body><p begin="1s" end="2s">x</p><p begin="${"x".repeat(MiB2)}`],
    [
      "a chain of styles",
      `<tt><head><styling>${Array.from({ length: 50_000 }, (_, k) => `<style xml:id="s${k}" style="s${k + 1}"/>`).join("")}</styling></head><body><p begin="1s" end="2s" style="s0">x</p></body></tt>`,
    ],
  ];
  for (const [name, text] of pathological) {
    it(`reads or refuses one pathological line in under a second: ${name}`, () => {
      const { ms } = fastest(() => readTtml(text), { limitMs: 1000, refusals: true });
      console.log(`ttml 2 MiB ${name}: ${Math.round(ms)} ms`);
      expect(ms).toBeLessThan(1000);
    });
  }

  it("reads 100,000 cues in 2 MiB in under a second", () => {
    const parts = [`<tt xmlns="http://www.w3.org/ns/ttml"><body><div timeContainer="seq">\n`];
    for (let k = 0; k < 100_000; k++) parts.push(`<p dur="1s">${k % 10}</p>\n`);
    parts.push(`</div></body></tt>\n`);
    const text = parts.join("");
    expect(text.length).toBeLessThanOrEqual(MiB2);
    const {
      ms,
      out: { cues },
    } = fastest(() => readTtml(text), { limitMs: 1000 });
    console.log(`ttml 2 MiB, 100,000 cues: ${Math.round(ms)} ms`);
    expect(cues).toHaveLength(100_000);
    expect(cues[99_999]).toEqual({ index: 100_000, line: 100_001, startMs: 99_999_000, endMs: 100_000_000, text: "9" });
    expect(ms).toBeLessThan(1000);
  });

  it("reads 2 MiB of cues with begin, end and a styled span in under a second", () => {
    const parts = [`${TT}><body><div>\n`];
    let k = 0;
    for (let size = 200; size < MiB2 - 100; k++) {
      const line = `<p begin="${k}s" end="${k + 1}s"><span tts:fontStyle="italic">c${k}</span></p>\n`;
      parts.push(line);
      size += line.length;
    }
    parts.push(`</div></body></tt>\n`);
    const text = parts.join("");
    const {
      ms,
      out: { cues },
    } = fastest(() => readTtml(text), { limitMs: 1000 });
    console.log(`ttml 2 MiB, ${k} styled cues: ${Math.round(ms)} ms`);
    expect(cues).toHaveLength(k);
    expect(cues[k - 1].text).toBe(`<i>c${k - 1}</i>`);
    expect(ms).toBeLessThan(1000);
  });
});
