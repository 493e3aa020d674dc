import type { Cue, CueInput } from "./cue";

/**
 * A change of timing asked for on import or download (docs/api.md, "Subtitle files"): a frame-rate conversion first
 * (a file timed for `fpsFrom` played at `fpsTo`: every time × fpsFrom / fpsTo, e.g. 25 → 23.976 stretches), then a
 * shift of `offsetMs` (positive: later).
 */
export interface TimingChange {
  offsetMs?: number;
  fpsFrom?: number;
  fpsTo?: number;
}

/** The largest shift accepted either way: a day. */
export const MAX_OFFSET_MS = 86_400_000;
/** Frame rates accepted by a conversion. */
export const FPS_RANGE = { min: 1, max: 300 } as const;

const isIdentity = (change: TimingChange) => !change.offsetMs && (!change.fpsFrom || !change.fpsTo || change.fpsFrom === change.fpsTo);

/**
 * Applies the change to every cue. A cue that ends before zero after the shift is dropped and returned in `dropped`;
 * one that only starts before zero starts at zero. Cues keep their order and everything else.
 */
export function retime<T extends CueInput>(cues: readonly T[], change: TimingChange): { cues: T[]; dropped: T[] } {
  if (isIdentity(change)) return { cues: [...cues], dropped: [] };
  const ratio = change.fpsFrom && change.fpsTo ? change.fpsFrom / change.fpsTo : 1;
  const offset = change.offsetMs ?? 0;
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const cue of cues) {
    const startMs = Math.round(cue.startMs * ratio) + offset;
    const endMs = Math.round(cue.endMs * ratio) + offset;
    if (endMs < 0 || (endMs === 0 && startMs < 0)) dropped.push(cue);
    else kept.push({ ...cue, startMs: Math.max(0, startMs), endMs });
  }
  return { cues: kept, dropped };
}

/** A short, stable name of a change for cache keys and ETags (`o-500.f25-23.976`), empty for none. */
export function timingKey(change: TimingChange): string {
  if (isIdentity(change)) return "";
  const parts: string[] = [];
  if (change.offsetMs) parts.push(`o${change.offsetMs}`);
  if (change.fpsFrom && change.fpsTo && change.fpsFrom !== change.fpsTo) parts.push(`f${change.fpsFrom}-${change.fpsTo}`);
  return parts.join(".");
}

export type { Cue };
