import { sha256Hex } from "../../lib/encoding";

/**
 * The content of one version of a track, as stored: its cues in time order as `[start ms, end ms, stored text]`, the
 * same triples the track cache holds, so a version and the live track share one hash.
 */
export type SnapshotCue = [startMs: number, endMs: number, text: string];

/** The format of a stored body; a reader refuses any other, so a later format is a new number, never a silent change. */
const SNAPSHOT_FORMAT = 1;

/**
 * A snapshot as its stored body: `{"v":1,"cues":[[0,1000,"Hi"],…]}`. It refuses what `decodeSnapshot` would, so a body
 * once written can always be read back.
 */
export function encodeSnapshot(cues: readonly SnapshotCue[]): string {
  checkCues(cues);
  return JSON.stringify({ v: SNAPSHOT_FORMAT, cues });
}

/**
 * Reads a stored body back, checking every part of it: a body that is not exactly what `encodeSnapshot` writes throws
 * an Error naming the first thing wrong (and the cue, by 0-based position), never returns half a track.
 */
export function decodeSnapshot(body: string): SnapshotCue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error("snapshot: the body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("snapshot: the body is not a JSON object");
  const keys = Object.keys(parsed);
  const unknown = keys.find((k) => k !== "v" && k !== "cues");
  if (unknown !== undefined) throw new Error(`snapshot: unknown member "${unknown}"`);
  const { v, cues } = parsed as { v?: unknown; cues?: unknown };
  if (v !== SNAPSHOT_FORMAT) throw new Error(`snapshot: format ${JSON.stringify(v ?? null)} is not ${SNAPSHOT_FORMAT}`);
  if (!Array.isArray(cues)) throw new Error("snapshot: cues is not an array");
  checkCues(cues);
  return cues as SnapshotCue[];
}

/**
 * The first 32 hex digits of the SHA-256 of the cues as JSON: the computation the track cache makes for a track's ETag,
 * so a version whose hash equals the live track's holds the same cues.
 */
export async function snapshotHash(cues: readonly SnapshotCue[]): Promise<string> {
  return (await sha256Hex(JSON.stringify(cues))).slice(0, 32);
}

const isTime = (t: unknown): t is number => typeof t === "number" && Number.isSafeInteger(t) && t >= 0;

/** Each cue a triple of whole milliseconds (end not before start) and text, starts never going back. */
function checkCues(cues: readonly unknown[]): void {
  let previousStart = 0;
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i];
    if (!Array.isArray(cue) || cue.length !== 3) throw new Error(`snapshot: cue ${i} is not a [start, end, text] triple`);
    const [startMs, endMs, text] = cue as unknown[];
    if (!isTime(startMs)) throw new Error(`snapshot: cue ${i} has a start that is not a whole number of milliseconds ≥ 0`);
    if (!isTime(endMs)) throw new Error(`snapshot: cue ${i} has an end that is not a whole number of milliseconds ≥ 0`);
    if (endMs < startMs) throw new Error(`snapshot: cue ${i} ends before it starts`);
    if (typeof text !== "string") throw new Error(`snapshot: cue ${i} has text that is not a string`);
    if (startMs < previousStart) throw new Error(`snapshot: cue ${i} starts before the cue before it`);
    previousStart = startMs;
  }
}
