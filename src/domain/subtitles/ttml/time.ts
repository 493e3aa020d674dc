/**
 * TTML1 time expressions (§10.3.1) and the `ttp:` parameters they depend on (§6.2), read on short, bounded slices.
 */

/** The rates a document's times are counted in; defaults as TTML1 states them. */
export interface TimeBase {
  frameRate: number;
  /** `ttp:frameRateMultiplier` as numerator and denominator (`1000 1001` for NTSC rates). */
  multiplier: [number, number];
  subFrameRate: number;
  tickRate: number;
}

function positive(value: string | undefined): number | undefined {
  const t = value?.trim();
  if (!t || t.length > 9 || !/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n > 0 ? n : undefined;
}

/**
 * The time base from the `ttp:` attributes of `<tt>`. The multiplier is read with a space (the specification's
 * form), a colon or a slash between its numbers, since writers use all three. Without `ttp:tickRate`, ticks are
 * sub-frames when a frame rate is given and seconds otherwise (TTML1 §6.2.10).
 */
export function timeBase(param: (name: string) => string | undefined): TimeBase {
  const frameRate = positive(param("frameRate")) ?? 30;
  const m = /^(\d{1,9})[\s:/]+(\d{1,9})$/.exec(param("frameRateMultiplier")?.trim().slice(0, 40) ?? "");
  const multiplier: [number, number] = m && Number(m[1]) > 0 && Number(m[2]) > 0 ? [Number(m[1]), Number(m[2])] : [1, 1];
  const subFrameRate = positive(param("subFrameRate")) ?? 1;
  const declared = positive(param("tickRate"));
  const tickRate = declared ?? (param("frameRate") !== undefined ? (frameRate * multiplier[0] * subFrameRate) / multiplier[1] : 1);
  return { frameRate, multiplier, subFrameRate, tickRate };
}

/** Milliseconds of `n` frames at the effective frame rate (frame rate × multiplier), in one division. */
function framesMs(n: number, tb: TimeBase): number {
  return (n * 1000 * tb.multiplier[1]) / (tb.frameRate * tb.multiplier[0]);
}

const CLOCK = /^(\d{1,7}):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,9})|:(\d{1,6})(?:\.(\d{1,6}))?)?$/;
const OFFSET = /^(\d{1,12}(?:\.\d{0,9})?|\.\d{1,9})(h|ms|m|s|f|t)$/;
const UNIT: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/**
 * A time expression in (unrounded) milliseconds, or null when the value is none: clock times `h:m:s`,
 * `h:m:s.fraction` and `h:m:s:frames[.sub-frames]` (a count of sub-frames, not a decimal) with fields of one digit or more (`0:0:7.800`; a comma before
 * the fraction is read too), and offsets `12.3s`, `500ms`, `2h`, `1.5m`, `75f`, `79249170t`. Frames are counted at
 * the effective frame rate whatever `ttp:timeBase` says (an SMPTE time code without drop frames reads the same).
 */
export function parseTime(value: string, tb: TimeBase): number | null {
  const v = value.trim();
  if (v.length === 0 || v.length > 40) return null;
  const c = CLOCK.exec(v);
  if (c) {
    let ms = Number(c[1]) * 3_600_000 + Number(c[2]) * 60_000 + Number(c[3]) * 1000;
    if (c[4]) ms += Number(`0.${c[4]}`) * 1000;
    if (c[5]) ms += framesMs(Number(c[5]), tb);
    if (c[6]) ms += framesMs(Number(c[6]) / tb.subFrameRate, tb);
    return ms;
  }
  const o = OFFSET.exec(v);
  if (!o) return null;
  const n = Number(o[1]);
  if (o[2] === "f") return framesMs(n, tb);
  if (o[2] === "t") return (n * 1000) / tb.tickRate;
  return n * UNIT[o[2]];
}
