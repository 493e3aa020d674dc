/**
 * The registry of subtitle formats (docs/decisions.md, "Subtitle formats"): one entry per format, and everything that
 * names formats elsewhere (the ids `format=` takes, the download extensions, the media types the upload route
 * accepts, the detection order) is derived from it. A new format is its reader and writer and one entry here
 * (docs/development.md, "Recipe: a new subtitle format").
 */
import { looksLikeAss, readAss, writeAss } from "./ass";
import type { CueInput, ReadOutcome } from "./cue";
import type { StyleTag } from "./markup";
import { looksLikeSbv, readSbv, writeSbv } from "./sbv";
import { readSrt, writeSrt } from "./srt";
import { looksLikeTtml, readTtml, writeTtml } from "./ttml/ttml";
import { looksLikeVtt, readVtt, writeVtt } from "./vtt";

interface FormatEntry<Id extends string = string> {
  /** `format=`, a download's extension (`ko.<id>`) and the import report's `format`. */
  id: Id;
  name: string;
  /** The file name extensions the format is known by, its id first. */
  extensions: readonly string[];
  /**
   * Media types, the first being what a download answers with (with `; charset=utf-8`); a raw upload may be sent as
   * any of them. The content decides the format of an upload, never its media type.
   */
  mediaTypes: readonly [string, ...string[]];
  /** Detection asks the formats in increasing priority; the last asked answers yes to any text. */
  priority: number;
  /** A bounded look at the start of a text: whether it is this format's. */
  looksLike(text: string): boolean;
  read(text: string): ReadOutcome;
  write(cues: CueInput[], options: { language: string }): string;
  /** The stored styling (markup.ts) the writer keeps; the rest is dropped, its text kept. */
  carries: readonly StyleTag[];
}

const entry = <const Id extends string>(format: FormatEntry<Id>) => format;
const ALL_STYLING = ["i", "b", "u", "s", "font"] as const;

/** In the order the OpenAPI enum, the error messages and a track's list of downloads name them. */
const REGISTERED = [
  entry({
    id: "srt",
    name: "SubRip",
    extensions: ["srt"],
    // Clients send `text/plain` and `application/octet-stream` for every format; they are listed with the fallback.
    mediaTypes: ["application/x-subrip", "text/plain", "application/octet-stream"],
    // No signature: players read anything with its timing lines, so it is asked last and takes any text.
    priority: 100,
    looksLike: () => true,
    read: readSrt,
    write: (cues) => writeSrt(cues),
    carries: ALL_STYLING,
  }),
  entry({
    id: "vtt",
    name: "WebVTT",
    extensions: ["vtt"],
    mediaTypes: ["text/vtt"],
    priority: 10,
    looksLike: looksLikeVtt,
    read: readVtt,
    write: (cues) => writeVtt(cues),
    // A colour would need a STYLE block, strike-through has no tag.
    carries: ["i", "b", "u"],
  }),
  entry({
    id: "sbv",
    name: "SubViewer (SBV)",
    extensions: ["sbv"],
    mediaTypes: ["text/plain"],
    priority: 40,
    looksLike: looksLikeSbv,
    read: readSbv,
    write: (cues) => writeSbv(cues),
    carries: [],
  }),
  entry({
    id: "ass",
    name: "SSA/ASS",
    extensions: ["ass", "ssa"],
    mediaTypes: ["text/x-ssa", "text/x-ass"],
    priority: 30,
    looksLike: looksLikeAss,
    read: readAss,
    write: (cues) => writeAss(cues),
    carries: ALL_STYLING,
  }),
  entry({
    id: "ttml",
    name: "TTML",
    extensions: ["ttml", "dfxp", "xml"],
    mediaTypes: ["application/ttml+xml", "application/xml", "text/xml"],
    priority: 20,
    looksLike: looksLikeTtml,
    read: readTtml,
    write: (cues, { language }) => writeTtml(cues, { language }),
    carries: ALL_STYLING,
  }),
];

export type SubtitleFormat = (typeof REGISTERED)[number]["id"];

/** The formats read and written, by id, in registry order. */
export const SUBTITLE_FORMATS = REGISTERED.map((f) => f.id) as [SubtitleFormat, ...SubtitleFormat[]];

export const FORMATS = Object.fromEntries(REGISTERED.map((f) => [f.id, f])) as Record<SubtitleFormat, FormatEntry<SubtitleFormat>>;

/** What a raw upload may be sent as: every format's media types, once each, in registry order. */
export const UPLOAD_MEDIA_TYPES = [...new Set(REGISTERED.flatMap((f) => f.mediaTypes))];

/** The formats in the order detection asks them; the last takes any text. */
export const DETECTION_ORDER = [...REGISTERED].sort((a, b) => a.priority - b.priority).map((f) => f.id);

const isSubtitleFormat = (id: string): id is SubtitleFormat => Object.hasOwn(FORMATS, id);

/** The name of a format for messages (`invalid SubRip file: ...`), the id itself for one not registered. */
export const formatName = (id: string) => (isSubtitleFormat(id) ? FORMATS[id].name : id);

/**
 * The format of a text from its content: each format is asked in priority order whether the text is its own (a
 * signature its reader requires: WebVTT's `WEBVTT`, TTML's `<tt>`, SSA's sections, SBV's comma timing). Priority
 * matters only where two could match; SubRip, which has no signature, is asked last and takes any text.
 */
export function detectFormat(text: string): SubtitleFormat {
  for (const id of DETECTION_ORDER) if (FORMATS[id].looksLike(text)) return id;
  return DETECTION_ORDER[DETECTION_ORDER.length - 1];
}
