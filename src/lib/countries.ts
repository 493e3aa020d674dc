const names = new Intl.DisplayNames(["en"], { type: "region" });

/** v3 shows countries by name ("South Korea"), v4 by lowercase code ("kr"). */
export function countryName(code: string): string {
  if (!code) return "";
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** v3 dates: "May 02, 2012 06:44" (UTC). */
export function v3Date(d: Date | null | undefined): string {
  if (!d) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())}, ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
