/**
 * The import route's early refusal of an upload that plainly holds more cues than a file may (docs/api.md, "Limits
 * and retention"): counted before anything is stored or queued, so a client hears it in the answer to its upload
 * rather than from a job that fails a second later. Conservative by construction: only SubRip and WebVTT are counted
 * (their readers say line by line what starts a cue), with the readers' own tests of a timing line, so the count is
 * the number of cues the job's reader reads, and a file the reader would accept is never refused. Other formats, and
 * files it cannot look at cheaply, are left to the job, which refuses them as before.
 */
import { SUBTITLE_LIMITS, splitLines } from "./cue";
import { detectFormat, type SubtitleFormat } from "./formats";
import { isSrtCueLine } from "./srt";
import { isVttCueLine } from "./vtt";

const CUE_LINE: Partial<Record<SubtitleFormat, (line: string) => boolean>> = { srt: isSrtCueLine, vtt: isVttCueLine };

/** The 0-based lines of `text` where the reader of `format` starts a cue it reads; null for a format not counted here. */
export function certainCueLines(text: string, format: SubtitleFormat): number[] | null {
  const isCue = CUE_LINE[format];
  if (!isCue) return null;
  const lines = splitLines(text);
  const found: number[] = [];
  for (let i = 0; i < lines.length; i++) if (isCue(lines[i])) found.push(i);
  return found;
}

/**
 * When the upload holds more than SUBTITLE_LIMITS.cues cues for certain: how many, and the first cue past the limit
 * with its line (as the job would name them); otherwise null. Every timing line holds a ">", so an upload with no more
 * ">" bytes than the limit (nearly every one) is passed after one scan of its bytes. The text is looked at without a
 * real decoding: timing lines are ASCII, and every encoding read here but UTF-16 and UTF-32 keeps ASCII bytes and line
 * ends as they are, so a byte-for-character reading (windows-1252) finds the same timing lines; UTF-16 is decoded
 * after its byte order mark, UTF-32 (rare) is left to the job.
 */
export function plainlyOverCueLimit(bytes: Uint8Array, format?: SubtitleFormat): { cues: number; cue: number; line: number } | null {
  const limit = SUBTITLE_LIMITS.cues;
  let arrows = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x3e) arrows++;
  if (arrows <= limit) return null;
  const [a, b, c, d] = bytes;
  if ((a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0xfe && d === 0xff)) return null;
  let text: string;
  if (a === 0xff && b === 0xfe) text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (a === 0xfe && b === 0xff) text = new TextDecoder("utf-16be").decode(bytes.subarray(2));
  else text = new TextDecoder("windows-1252").decode(a === 0xef && b === 0xbb && c === 0xbf ? bytes.subarray(3) : bytes);
  const lines = certainCueLines(text, format ?? detectFormat(text));
  if (!lines || lines.length <= limit) return null;
  return { cues: lines.length, cue: limit + 1, line: lines[limit] + 1 };
}
