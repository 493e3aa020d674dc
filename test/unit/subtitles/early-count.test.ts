import { describe, expect, it } from "vitest";
import { SUBTITLE_LIMITS } from "../../../src/domain/subtitles/cue";
import { certainCueLines, plainlyOverCueLimit } from "../../../src/domain/subtitles/early-count";
import { readSrt } from "../../../src/domain/subtitles/srt";
import { readVtt } from "../../../src/domain/subtitles/vtt";
import { fastest } from "../../helpers/timing";

const LIMIT = SUBTITLE_LIMITS.cues;
const utf8 = (s: string) => new TextEncoder().encode(s);
const at = (n: number) => `${Math.floor(n / 3600)}:${Math.floor(n / 60) % 60}:${n % 60}`;
/** `count` SubRip cues without numbers and with short times, so 100,000 fit in an upload. */
const srt = (count: number) => Array.from({ length: count }, (_, n) => `${at(n)},5 --> ${at(n + 1)}\nL\n`).join("\n");
const vtt = (count: number) =>
  `WEBVTT\n\n${Array.from({ length: count }, (_, n) => `${at(n).padStart(8, "0")}.000 --> 9:00:00.000\nL\n`).join("\n")}`;

describe("plainlyOverCueLimit: the import route's count before anything is queued", () => {
  it("counts the cues a SubRip or WebVTT file holds past the limit, and the line of the first cue past it", () => {
    const big = srt(48_144);
    expect(big.length).toBeLessThan(SUBTITLE_LIMITS.bytes);
    const { ms } = fastest(() => expect(plainlyOverCueLimit(utf8(big))).toEqual({ cues: 48_144, cue: LIMIT + 1, line: LIMIT * 3 + 1 }), {
      limitMs: 1000,
    });
    console.log(`early cue count of a ${big.length}-byte file of 48,144 cues: ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(1000);
    expect(readSrt(big).cues).toHaveLength(48_144);
    const web = vtt(LIMIT + 5);
    expect(readVtt(web).cues).toHaveLength(LIMIT + 5);
    expect(plainlyOverCueLimit(utf8(web))).toMatchObject({ cues: LIMIT + 5, cue: LIMIT + 1 });
    // As UTF-16 with its byte order mark, and named by format= rather than found.
    const units = Uint16Array.from([0xfeff, ...Array.from(big, (c) => c.charCodeAt(0))]);
    expect(plainlyOverCueLimit(new Uint8Array(units.buffer))).toMatchObject({ cues: 48_144 });
    expect(plainlyOverCueLimit(utf8(big), "srt")).toMatchObject({ cues: 48_144 });
  });

  it("is null at the limit and below, and for arrows that start no cue", () => {
    expect(plainlyOverCueLimit(utf8(srt(LIMIT)))).toBeNull();
    // 30,000 arrows, but as the text of one cue (the job refuses that cue's length later).
    expect(plainlyOverCueLimit(utf8(`1\n00:00:01,000 --> 00:00:02,000\n${"a -> b\n".repeat(30_000)}`))).toBeNull();
    // Timing lines the reader skips (a broken end) are not cues it reads.
    expect(plainlyOverCueLimit(utf8(`${srt(10)}\n${"00:00:01,000 --> soon\nx\n\n".repeat(30_000)}`))).toBeNull();
    // A WebVTT arrow in a NOTE or as text of a comment is no cue; SubRip-style times in WebVTT are read as SubRip's.
    expect(plainlyOverCueLimit(utf8(`WEBVTT\n\n${"NOTE a --> b\n\n".repeat(30_000)}`))).toBeNull();
    // Other formats are left to the job.
    expect(
      plainlyOverCueLimit(utf8(`[Script Info]\n\n[Events]\n${"Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,->\n".repeat(30_000)}`)),
    ).toBeNull();
  });

  it("counts exactly the cues the SubRip and WebVTT readers read, whatever the file", () => {
    const pieces = [
      "00:00:01,000 --> 00:00:02,000",
      "00:01.000 --> 00:02.000",
      "1",
      "",
      "text ->",
      "a --> b",
      "NOTE",
      "STYLE",
      "WEBVTT",
      "00:00:60,000 --> 00:00:61,000",
      "0:0:1 - > 0:0:2",
      "00:00:03.000-->00:00:04.000 align:start",
    ];
    let state = 7;
    const next = (n: number) => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let compared = 0;
    for (let run = 0; run < 300; run++) {
      const body = Array.from({ length: 40 + next(40) }, () => pieces[next(pieces.length)]).join("\n");
      for (const [format, text, read] of [
        ["srt", body, readSrt],
        ["vtt", `WEBVTT\n\n${body}`, readVtt],
      ] as const) {
        let cues: number;
        try {
          cues = read(text).cues.length;
        } catch {
          continue;
        }
        expect(certainCueLines(text, format)?.length, text).toBe(cues);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});
