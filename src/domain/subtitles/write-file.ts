import { splitLines, tidyText, type CueInput } from "./cue";
import { FORMATS, SUBTITLE_FORMATS, type SubtitleFormat } from "./formats";
import { retime, type TimingChange } from "./timing";

/** What a subtitle track can be downloaded as: every format read, and the cues as JSON. */
export const TRACK_EXTENSIONS = [...SUBTITLE_FORMATS, "json"] as const;
export type TrackExtension = (typeof TRACK_EXTENSIONS)[number];

/** The media type a track extension is served as. */
export const mediaTypeOf = (ext: TrackExtension) => (ext === "json" ? "application/json" : FORMATS[ext as SubtitleFormat].mediaTypes[0]);

/**
 * A stored track written as a file: texts tidied (a text stored by an older import or an edit may hold CR or blank
 * lines, which would end a SubRip cue early), the timing change applied (cues that end before zero are left out and
 * counted), then the format's writer. `json` is `{language, cues: [{start_ms, end_ms, text}]}`.
 */
export function writeTrack(
  stored: readonly CueInput[],
  ext: TrackExtension,
  options: { language: string; timing?: TimingChange },
): { body: string; dropped: number } {
  const tidy = stored.map((c) => ({ startMs: c.startMs, endMs: c.endMs, text: tidyText(splitLines(c.text)) })).filter((c) => c.text !== "");
  const { cues, dropped } = retime(tidy, options.timing ?? {});
  const body =
    ext === "json"
      ? JSON.stringify({ language: options.language, cues: cues.map((c) => ({ start_ms: c.startMs, end_ms: c.endMs, text: c.text })) })
      : FORMATS[ext].write(cues, { language: options.language });
  return { body, dropped: dropped.length };
}
