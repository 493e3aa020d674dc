/** ISO-8601 UTC without milliseconds: "2013-10-22T03:32:35Z". */
export function isoTime(d: Date | number | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  const date = typeof d === "number" ? new Date(d * 1000) : d;
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** ISO 8601: a date, or a date and time (minutes at least, a fraction allowed) with `Z`, an offset or neither (UTC). */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An instant a client writes, as unix seconds: ISO 8601 (`2026-11-22`, `2026-11-22T10:00:00Z`, with an offset, or
 * without one: UTC) or plain unix seconds (`1795689600`). Undefined for anything else, a day or hour that does not
 * exist (`2026-02-30`, `T24:00`) included: `Date.parse` would quietly roll it over.
 */
export function parseInstant(raw: string): number | undefined {
  const value = raw.trim();
  if (/^\d{1,11}$/.test(value)) return Number(value);
  const m = ISO_INSTANT.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const exists =
    local.getUTCFullYear() === y &&
    local.getUTCMonth() === mo - 1 &&
    local.getUTCDate() === d &&
    local.getUTCHours() === h &&
    local.getUTCMinutes() === mi &&
    local.getUTCSeconds() === s;
  if (!exists) return undefined;
  const zone = m[7]?.toUpperCase();
  let offsetMinutes = 0;
  if (zone && zone !== "Z") {
    const [oh, om] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  return Math.floor(local.getTime() / 1000) - offsetMinutes * 60;
}
