// Time limits in tests (docs/development.md, "Tests"): a run over the limit is tried again, at most three runs, and
// the fastest counts. A pause of a busy machine (CI runs other checks beside vitest on two cores) can pass a limit on
// a linear reader once, while a quadratic one, the fault these limits are for, is far over it on every run.
import { SubtitleError } from "../../src/domain/subtitles/cue";

export interface Timing<T> {
  /** The fastest run's wall time in ms. */
  ms: number;
  /** What that run gave: its result, or the SubtitleError it threw when `refusals` allows one. */
  out: T;
}

export interface TimingOptions {
  /** The limit the test asserts (`ms < limitMs`): a run under it ends the tries. */
  limitMs: number;
  /** The most runs tried; 3 unless told. */
  runs?: number;
  /** Whether a SubtitleError thrown by `work` is a result (a refusal) rather than a failure. */
  refusals?: boolean;
}

type Refusing = TimingOptions & { refusals: true };

function once<T>(work: () => T, refusals: boolean): T | SubtitleError {
  try {
    return work();
  } catch (err) {
    if (refusals && err instanceof SubtitleError) return err;
    throw err;
  }
}

/** Runs `work` until a run is under the limit, at most `runs` times: the fastest run's time and result. */
export function fastest<T>(work: () => T, options: Refusing): Timing<T | SubtitleError>;
export function fastest<T>(work: () => T, options: TimingOptions): Timing<T>;
export function fastest<T>(work: () => T, { limitMs, runs = 3, refusals = false }: TimingOptions): Timing<T | SubtitleError> {
  let best: Timing<T | SubtitleError> | undefined;
  for (let run = 0; run < runs && (!best || best.ms >= limitMs); run++) {
    const started = performance.now();
    const out = once(work, refusals);
    const ms = performance.now() - started;
    if (!best || ms < best.ms) best = { ms, out };
  }
  return best!;
}

/**
 * `fastest` for work that may be awaited, each run's clock read after a timer: a Worker's clock may stand still while
 * its code runs, and moves on at the next I/O.
 */
export async function fastestAsync<T>(work: () => T | Promise<T>, options: Refusing): Promise<Timing<T | SubtitleError>>;
export async function fastestAsync<T>(work: () => T | Promise<T>, options: TimingOptions): Promise<Timing<T>>;
export async function fastestAsync<T>(
  work: () => T | Promise<T>,
  { limitMs, runs = 3, refusals = false }: TimingOptions,
): Promise<Timing<T | SubtitleError>> {
  let best: Timing<T | SubtitleError> | undefined;
  for (let run = 0; run < runs && (!best || best.ms >= limitMs); run++) {
    const started = performance.now();
    let out: T | SubtitleError;
    try {
      out = await work();
    } catch (err) {
      if (!(refusals && err instanceof SubtitleError)) throw err;
      out = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    const ms = performance.now() - started;
    if (!best || ms < best.ms) best = { ms, out };
  }
  return best!;
}
