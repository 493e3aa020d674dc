import subsrt from "subsrt-ts";

/** A parsed cue: times in milliseconds, text with the original line breaks (\n). */
export interface Cue {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
}

/** Why a file was refused: the cue (1-based position in the file) and the line where the problem is. */
export class SrtError extends Error {
  constructor(
    message: string,
    readonly cue?: number,
    readonly line?: number,
  ) {
    super(cue !== undefined ? `cue ${cue} (line ${line}): ${message}` : message);
  }
}

/** Largest upload accepted, in bytes, before decoding. */
export const MAX_SRT_BYTES = 2 * 1024 * 1024;
export const MAX_CUES = 20_000;
export const MAX_CUE_TEXT = 2_000;

/**
 * Bytes to text: UTF-16 (LE or BE) by its BOM, otherwise UTF-8 with or without a BOM. Invalid UTF-8 is
 * refused rather than silently replaced, so a Latin-1 file gets a clear error instead of mojibake.
 */
export function decodeSubtitleBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder("utf-16le", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder("utf-16be", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(2));
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new SrtError("the file is not valid UTF-8 (send UTF-8, or UTF-16 with a byte order mark)");
  }
}

const TIME = String.raw`(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}(?:\s+.*)?$`);

/**
 * Checks the structure cue by cue (subsrt-ts skips what it cannot read, which would lose cues silently),
 * then parses the text with subsrt-ts. Each cue is: an index line, a timing line, one or more text lines, a blank line.
 */
export function parseSrt(text: string): Cue[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  let cue = 0;
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i].trim() === "") i++;
  };
  skipBlank();
  let previousStart = -1;
  const timings: Array<[number, number]> = [];
  while (i < lines.length) {
    cue++;
    const indexLine = i + 1;
    if (!/^\s*\d+\s*$/.test(lines[i])) throw new SrtError(`expected a cue number, found "${lines[i].slice(0, 40)}"`, cue, indexLine);
    i++;
    const m = i < lines.length ? TIMING.exec(lines[i]) : null;
    if (!m) throw new SrtError(`expected "hh:mm:ss,mmm --> hh:mm:ss,mmm"`, cue, i + 1);
    const start = toMs(m.slice(1, 5));
    const end = toMs(m.slice(5, 9));
    if (start === null || end === null) throw new SrtError("minutes and seconds must be below 60", cue, i + 1);
    if (end <= start) throw new SrtError("the cue ends before it starts", cue, i + 1);
    if (start < previousStart) throw new SrtError("cues must be in time order", cue, i + 1);
    previousStart = start;
    timings.push([start, end]);
    i++;
    const textStart = i;
    while (i < lines.length && lines[i].trim() !== "") i++;
    if (i === textStart) throw new SrtError("the cue has no text", cue, textStart + 1);
    const cueText = lines.slice(textStart, i).join("\n");
    if (cueText.length > MAX_CUE_TEXT) throw new SrtError(`the cue text is over ${MAX_CUE_TEXT} characters`, cue, textStart + 1);
    if (cue > MAX_CUES) throw new SrtError(`a file may hold at most ${MAX_CUES} cues`, cue, indexLine);
    skipBlank();
  }
  if (cue === 0) throw new SrtError("the file holds no cues");

  const captions = subsrt.parse(lines.join("\n"), { format: "srt", eol: "\n" });
  if (captions.length !== cue) throw new SrtError(`read ${captions.length} of ${cue} cues`);
  // Times come from the check above: subsrt-ts reads "00:00:01,5" as 5 ms where SubRip means 500 ms.
  return captions.map((c, n) => ({
    index: n + 1,
    startMs: timings[n][0],
    endMs: timings[n][1],
    text: ((c as { content?: string }).content ?? "").replace(/\s+$/, ""),
  }));
}

function toMs([hh, mm, ss, ms]: string[]): number | null {
  if (Number(mm) > 59 || Number(ss) > 59) return null;
  return Number(hh) * 3_600_000 + Number(mm) * 60_000 + Number(ss) * 1000 + Number((ms ?? "0").padEnd(3, "0"));
}

/** Valid SubRip from cues, numbered from 1, with CRLF line ends as most players expect. */
export function buildSrt(cues: Array<{ startMs: number; endMs: number; text: string }>): string {
  return subsrt.build(
    cues.map((c, n) => ({
      type: "caption" as const,
      index: n + 1,
      start: c.startMs,
      end: c.endMs,
      duration: c.endMs - c.startMs,
      content: c.text,
      text: c.text,
    })),
    { format: "srt", eol: "\r\n" },
  );
}
