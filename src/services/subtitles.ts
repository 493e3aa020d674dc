import type { SQL } from "drizzle-orm";
import {
  historiesWithPrefix,
  importChunkStatements,
  listSubtitlesByStart,
  listVideoSegments,
  type ImportChunk,
  type ImportRow,
  type ImportScope,
} from "../db/queries/subtitles";
import { runBatch } from "../db/raw-batch";
import type { ShardDB } from "../db/shards";
import { SubtitleError, cueTextProblem, trackCharsProblem, type Cue } from "../domain/subtitles/cue";
import { trackMasks } from "../domain/subtitles/checks";
import type { TrackShard } from "./subtitle-versions";

/** Subtitle languages: `en`, `pt-br`. */
export const SUBTITLE_LANGUAGE_RE = /^[a-z]{2}(-[a-z]{2})?$/;
/** A cue matches an existing segment whose start is within this many milliseconds of its own. */
export const START_TOLERANCE_MS = 250;
/** Rows per import chunk (one transaction, one JSON parameter per statement); also capped by text size. */
export const IMPORT_CHUNK_ROWS = 500;
const IMPORT_CHUNK_CHARS = 256 * 1024;

export type ImportMode = "create" | "match";
/**
 * One subtitle to write: the segment it belongs to (by start) and `cue`, the number in time order of the first cue that
 * gave it its text (chunk keys are ranges of these); `from`, that cue's position and line in the file, for refusals.
 */
interface PlannedRow {
  cue: number;
  startMs: number;
  endMs: number;
  text: string;
  from: { cue: number; line: number };
}

/**
 * Pairs cues (in time order, with their positions in the file) with segments, numbering them in time order; the order
 * is stable, so a replay numbers them the same. `create` (the video had no segments): one segment per distinct cue
 * start; cues that start at the same millisecond share one segment, their texts joined by a line break, and the joined
 * text is held to the cue limits as a cue read is (a refusal names the cue that took it past). `match`: each cue takes
 * the nearest untaken segment whose start is within ±START_TOLERANCE_MS; a cue with none is `unmatched` and not
 * written (the community's timing is never changed by an import).
 */
export function planImport(cues: Cue[], mode: ImportMode, segments: Array<{ startMs: number; endMs?: number }>) {
  const rows: PlannedRow[] = [];
  if (mode === "create") {
    cues.forEach((cue, n) => {
      const last = rows[rows.length - 1];
      if (last && last.startMs === cue.startMs) {
        last.text = `${last.text}\n${cue.text}`;
        last.endMs = Math.max(last.endMs, cue.endMs);
        // Joining is where a text grows past what any cue read may hold (docs/decisions.md, "Subtitle formats").
        const problem = cueTextProblem(last.text);
        if (problem)
          throw new SubtitleError(
            `${problem.reason} once joined with the cues that start at the same time`,
            cue.index,
            cue.line,
            problem.limit,
          );
      } else rows.push({ cue: n + 1, startMs: cue.startMs, endMs: cue.endMs, text: cue.text, from: { cue: cue.index, line: cue.line } });
    });
    return { rows, unmatched: 0 };
  }
  const sorted = [...segments].sort((a, b) => a.startMs - b.startMs);
  const starts = sorted.map((s) => s.startMs);
  const taken = new Uint8Array(starts.length);
  let unmatched = 0;
  cues.forEach((cue, n) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] < cue.startMs - START_TOLERANCE_MS) lo = mid + 1;
      else hi = mid;
    }
    let best = -1;
    for (let i = lo; i < starts.length && starts[i] <= cue.startMs + START_TOLERANCE_MS; i++) {
      if (!taken[i] && (best < 0 || Math.abs(starts[i] - cue.startMs) < Math.abs(starts[best] - cue.startMs))) best = i;
    }
    if (best < 0) unmatched++;
    else {
      taken[best] = 1;
      // The segment keeps its times: its end is the cue's in the track (the quality checks measure it).
      const endMs = sorted[best].endMs ?? cue.endMs;
      rows.push({ cue: n + 1, startMs: starts[best], endMs, text: cue.text, from: { cue: cue.index, line: cue.line } });
    }
  });
  return { rows, unmatched };
}

/**
 * Refuses an import after which the track would hold more than SUBTITLE_LIMITS.trackChars characters: the stored texts
 * with the planned ones in their place, so a track cannot grow past the limit across imports in either mode. Names the
 * cue at which the total first passed the limit. Before any write, and the same on a replay (the track it computes is
 * the one the import leaves, whatever part of it is already written).
 */
function refuseTrackPastLimit(stored: Array<{ text: string }>, storedText: Map<number, string>, rows: PlannedRow[]) {
  let total = 0;
  for (const s of stored) total += s.text.length;
  let first: PlannedRow | undefined;
  for (const row of rows) {
    total += row.text.length - (storedText.get(row.startMs)?.length ?? 0);
    if (!first && trackCharsProblem(total)) first = row;
  }
  const problem = trackCharsProblem(total);
  if (problem && first) throw new SubtitleError(problem, first.from.cue, first.from.line, "trackChars");
}

/**
 * The checks' masks of the track an import leaves (the stored cues with the planned texts in their place), by segment
 * start, so each chunk writes its texts checked against their final neighbours (docs/decisions.md, "Quality checks").
 * A stored cue keeps its segment's end; a planned one has its segment's (planImport).
 */
function importMasks(
  stored: ReadonlyArray<{ startMs: number; endMs: number; text: string }>,
  rows: readonly PlannedRow[],
  language: string,
) {
  const track = new Map(stored.map((s) => [s.startMs, s]));
  for (const row of rows)
    track.set(row.startMs, { startMs: row.startMs, endMs: track.get(row.startMs)?.endMs ?? row.endMs, text: row.text });
  const cues = [...track.values()].sort((a, b) => a.startMs - b.startMs);
  const masks = trackMasks(cues, language);
  return new Map(cues.map((c, i) => [c.startMs, masks[i]]));
}

const historyPrefix = (jobId: number) => `import:${jobId}:`;

/** Whether an earlier delivery of import `jobId` already wrote a chunk (its history rows exist on the track's shard). */
export async function importStarted(db: ShardDB, jobId: number) {
  return (await historiesWithPrefix(db, historyPrefix(jobId))).size > 0;
}

interface ImportCounts {
  cues: number;
  created: number;
  updated: number;
  unchanged: number;
  unmatched: number;
  segments_created: number;
  rows_written: number;
}

/** A chunk an earlier delivery wrote: the cues it covered and what it counted, read back from its history rows. */
interface DoneChunk {
  first: number;
  last: number;
  segments: number;
  created: number;
  updated: number;
  /** Planned rows of this delivery inside the chunk (written or unchanged then). */
  rows: number;
}

function doneChunks(histories: Map<string, number>, prefix: string): DoneChunk[] {
  const chunks = new Map<string, DoneChunk>();
  for (const [key, count] of histories) {
    const m = /^(\d+)-(\d+):(segment|created|updated)$/.exec(key.slice(prefix.length));
    if (!m) continue;
    const chunk = chunks.get(`${m[1]}-${m[2]}`) ?? {
      first: Number(m[1]),
      last: Number(m[2]),
      segments: 0,
      created: 0,
      updated: 0,
      rows: 0,
    };
    chunk[m[3] === "segment" ? "segments" : (m[3] as "created" | "updated")] += count;
    chunks.set(`${m[1]}-${m[2]}`, chunk);
  }
  return [...chunks.values()];
}

/**
 * Writes planned rows in chunks of consecutive cues on the track's shard, each one transaction with its history rows
 * (the video's facts first). Each subtitle is classified against what is stored (new, changed text, same text); the
 * cues of a chunk an earlier delivery already wrote (its history rows exist) keep the counts recorded then, so a
 * replay after a crash reports the same counts and writes only the rest. The import's `subtitles.updated` is the
 * caller's, after the last chunk: these counts say whether there is one, on a replay as on a clean run.
 */
export async function writeImport(
  store: Pick<TrackShard, "db" | "shard" | "facts">,
  jobId: number,
  scope: ImportScope,
  mode: ImportMode,
  plan: { rows: PlannedRow[]; unmatched: number },
  cueCount: number,
  progress: (p: number) => Promise<void>,
): Promise<ImportCounts> {
  const { db, shard, facts } = store;
  const prefix = historyPrefix(jobId);
  const [stored, segments, histories] = await Promise.all([
    listSubtitlesByStart(db, scope.videoId, scope.language),
    mode === "create" ? listVideoSegments(db, scope.videoId) : Promise.resolve([]),
    historiesWithPrefix(db, prefix),
  ]);
  const storedText = new Map(stored.map((s) => [s.startMs, s.text]));
  refuseTrackPastLimit(stored, storedText, plan.rows);
  const segmentStarts = new Set(segments.map((s) => s.startMs));
  const masks = importMasks(stored, plan.rows, scope.language);
  const done = doneChunks(histories, prefix);
  const counts: ImportCounts = {
    cues: cueCount,
    created: 0,
    updated: 0,
    unchanged: 0,
    unmatched: plan.unmatched,
    segments_created: 0,
    rows_written: 0,
  };

  // Chunks follow the file's order and never straddle a chunk written earlier; each carries the new segments
  // and the texts of its own cues, so a text never waits for a segment of a later chunk.
  const chunks: ImportChunk[] = [];
  let chunk: ImportChunk & { first: number; last: number; rows: number } = newChunk();
  let chars = 0;
  function newChunk() {
    return { key: "", segments: [] as ImportRow[], texts: [] as ImportRow[], created: 0, first: 0, last: 0, rows: 0 };
  }
  const flush = () => {
    if (chunk.segments.length || chunk.texts.length) chunks.push({ ...chunk, key: `${prefix}${chunk.first}-${chunk.last}` });
    chunk = newChunk();
    chars = 0;
  };
  for (const row of plan.rows) {
    const earlier = done.find((d) => d.first <= row.cue && row.cue <= d.last);
    if (earlier) {
      earlier.rows++;
      flush();
      continue;
    }
    if (!chunk.rows++) chunk.first = row.cue;
    chunk.last = row.cue;
    if (mode === "create" && !segmentStarts.has(row.startMs)) {
      counts.segments_created++;
      chunk.segments.push({ s: row.startMs, e: row.endMs, t: "" });
    }
    const current = storedText.get(row.startMs);
    if (current === row.text) counts.unchanged++;
    else {
      if (current === undefined) {
        counts.created++;
        chunk.created++;
      } else counts.updated++;
      chunk.texts.push({ s: row.startMs, e: row.endMs, t: row.text, c: masks.get(row.startMs) ?? null });
      chars += row.text.length;
    }
    if (chunk.rows >= IMPORT_CHUNK_ROWS || chars >= IMPORT_CHUNK_CHARS) flush();
  }
  flush();
  for (const d of done) {
    if (!d.rows) continue;
    counts.segments_created += d.segments;
    counts.created += d.created;
    counts.updated += d.updated;
    counts.unchanged += d.rows - d.created - d.updated;
  }

  for (let i = 0; i < chunks.length; i++) {
    const statements: SQL[] = [...facts, ...importChunkStatements(db, shard, scope, chunks[i])];
    counts.rows_written += await runBatch(db, statements);
    await progress(20 + (70 * (i + 1)) / chunks.length);
  }
  return counts;
}
