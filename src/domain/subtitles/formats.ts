import { looksLikeAss, readAss, writeAss } from "./ass";
import type { CueInput, ReadOutcome, SubtitleFormat } from "./cue";
import { looksLikeSbv, readSbv, writeSbv } from "./sbv";
import { readSrt, writeSrt } from "./srt";
import { looksLikeTtml, readTtml, writeTtml } from "./ttml/ttml";
import { looksLikeVtt, readVtt, writeVtt } from "./vtt";

/** One entry per format: its reader, its writer, the media type it is served as and how it is recognised. */
export interface FormatEntry {
  name: string;
  read(text: string): ReadOutcome;
  write(cues: CueInput[], options: { language: string }): string;
  /** Served as, with `; charset=utf-8`. */
  mediaType: string;
  /** A bounded look at the start of a text; SubRip, the fallback, has none. */
  looksLike?(text: string): boolean;
}

export const FORMATS: Record<SubtitleFormat, FormatEntry> = {
  srt: { name: "SubRip", read: readSrt, write: (cues) => writeSrt(cues), mediaType: "application/x-subrip" },
  vtt: { name: "WebVTT", read: readVtt, write: (cues) => writeVtt(cues), mediaType: "text/vtt", looksLike: looksLikeVtt },
  sbv: { name: "SubViewer (SBV)", read: readSbv, write: (cues) => writeSbv(cues), mediaType: "text/plain", looksLike: looksLikeSbv },
  ass: { name: "SSA/ASS", read: readAss, write: (cues) => writeAss(cues), mediaType: "text/x-ssa", looksLike: looksLikeAss },
  ttml: {
    name: "TTML",
    read: readTtml,
    write: (cues, { language }) => writeTtml(cues, { language }),
    mediaType: "application/ttml+xml",
    looksLike: looksLikeTtml,
  },
};

/**
 * The format of a text from its content: a signature each format's own readers require (WebVTT's `WEBVTT`, TTML's
 * `<tt>`, SSA's sections, SBV's comma timing), SubRip otherwise, since SubRip has no signature and players read
 * anything with its timing lines. Order matters only where two could match: WebVTT and TTML signatures are exact.
 */
export function detectFormat(text: string): SubtitleFormat {
  for (const format of ["vtt", "ttml", "ass", "sbv"] as const) if (FORMATS[format].looksLike!(text)) return format;
  return "srt";
}
