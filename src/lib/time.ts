/** ISO-8601 UTC without milliseconds: "2013-10-22T03:32:35Z". */
export function isoTime(d: Date | number | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  const date = typeof d === "number" ? new Date(d * 1000) : d;
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
