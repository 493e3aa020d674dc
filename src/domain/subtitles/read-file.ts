import { SUBTITLE_LIMITS, SubtitleError, clock, cueTextProblem, type Cue, type ReadOutcome, type SkippedBlocks } from "./cue";
import { decodeSubtitleBytes } from "./decode";
import { FORMATS, detectFormat, type SubtitleFormat } from "./formats";
import { countCues, qualityReport, type QualityCount, type QualityReport } from "./quality";
import { retime, type TimingChange } from "./timing";

interface ReadOptions {
  /** The import's language: the encoding hint for bytes that are not Unicode. */
  language: string;
  /** `format=`: read as this format instead of detecting it from the content. */
  format?: SubtitleFormat;
  /** `encoding=`: decode legacy bytes with this encoding instead of choosing one. */
  encoding?: string;
  timing?: TimingChange;
}

/** What was read and how: the job result carries all of it but the cues. */
interface FileReport extends QualityReport {
  format: SubtitleFormat;
  format_source: "parameter" | "content";
  encoding: { name: string; source: string; reason: string };
  cues_read: number;
  /** Cues without text: nothing to show, so not stored. */
  empty: QualityCount;
  /** Cues that ended before zero after `offset_ms`: not stored. */
  shifted_before_zero: QualityCount;
  /** Cue blocks skipped for a timing no player reads either (SubRip, WebVTT), with the first few positions and lines. */
  skipped: SkippedBlocks;
  /** What the reader tolerated, e.g. text after the end time dropped. */
  notes: string[];
}

/**
 * Bytes to the cues an import stores (docs/api.md, "Subtitle files"): decode, detect the format, read it in one pass,
 * refuse what no player can read (every refusal a SubtitleError naming cue and line), apply the timing change, and
 * order by start time. Returns the cues with text in time order and the report.
 */
export function readSubtitleFile(bytes: Uint8Array, options: ReadOptions): { cues: Cue[]; report: FileReport } {
  const decoded = decodeSubtitleBytes(bytes, { language: options.language, encoding: options.encoding });
  const format = options.format ?? detectFormat(decoded.text);
  let outcome: ReadOutcome;
  try {
    outcome = FORMATS[format].read(decoded.text);
    if (!outcome.cues.length) throw new SubtitleError("the file holds no cues");
    checkCues(outcome.cues, format);
  } catch (err) {
    if (err instanceof SubtitleError) err.format = format;
    throw err;
  }
  const { cues: read, notes } = outcome;

  const withText = read.filter((cue) => cue.text.trim() !== "");
  const empty = read.filter((cue) => cue.text.trim() === "");
  if (!withText.length) {
    const err = new SubtitleError(`all ${read.length} cues of the file are empty`, read[0].index, read[0].line);
    err.format = format;
    throw err;
  }
  const { cues: timed, dropped } = retime(withText, options.timing ?? {});
  const ordered = [...timed].sort((a, b) => a.startMs - b.startMs);
  const report: FileReport = {
    format,
    format_source: options.format ? "parameter" : "content",
    encoding: { name: decoded.encoding, source: decoded.source, reason: decoded.reason },
    cues_read: read.length,
    ...qualityReport(read, ordered, options.language),
    empty: countCues(empty),
    shifted_before_zero: countCues(dropped),
    skipped: outcome.skipped ?? { count: 0, blocks: [] },
    notes,
  };
  return { cues: ordered, report };
}

/** The refusals every format shares: the limits, and a cue that ends before it starts. */
function checkCues(cues: Cue[], format: SubtitleFormat) {
  // Times in the refusal as the file writes them: SubRip with a comma, the others with a dot.
  const at = (ms: number) => clock(ms, format === "srt" ? "," : ".");
  if (cues.length > SUBTITLE_LIMITS.cues) {
    const over = cues[SUBTITLE_LIMITS.cues];
    throw new SubtitleError(`a file may hold at most ${SUBTITLE_LIMITS.cues} cues`, over.index, over.line, "cues");
  }
  for (const cue of cues) {
    if (cue.endMs < cue.startMs)
      throw new SubtitleError(`the cue ends before it starts (${at(cue.startMs)} --> ${at(cue.endMs)})`, cue.index, cue.line);
    const problem = cueTextProblem(cue.text);
    if (problem) throw new SubtitleError(problem.reason, cue.index, cue.line, problem.limit);
  }
}
