// The demo's clock, its seeded randomness and the SQL writers every demo module shares.

/** The demo's "now" (2026-11-15T00:00:00Z). Fixed so the output never changes; all history lies before it. */
export const NOW = Date.UTC(2026, 10, 15) / 1000;
export const DAY = 86_400;
export const HOUR = 3_600;
export const SEED = 0x5eed_2026;
/** Rows per multi-row INSERT: keeps each statement well under D1's statement size limit. */
const CHUNK = 50;

/** mulberry32: tiny, fast, good enough for demo data, and identical on every platform. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random helpers bound to one generator, so call order alone decides the output. */
export function randomTools(seed) {
  const next = mulberry32(seed);
  const int = (min, max) => min + Math.floor(next() * (max - min + 1)); // inclusive
  const pick = (items) => items[Math.floor(next() * items.length)];
  const chance = (p) => next() < p;
  const shuffle = (items) => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return { next, int, pick, chance, shuffle };
}

/** A value as an SQL literal (NULL, a number, or a quoted string). */
export function sqlLiteral(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * Multi-row INSERT OR IGNORE statements for `rows` (objects keyed by column name), CHUNK rows each; with `onConflict`
 * (an `ON CONFLICT ...` clause), plain INSERTs ending with it instead.
 */
export function insertRows(table, columns, rows, { onConflict } = {}) {
  const statements = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows
      .slice(i, i + CHUNK)
      .map((row) => `(${columns.map((col) => sqlLiteral(row[col])).join(", ")})`)
      .join(",\n  ");
    const cols = columns.map((c) => `"${c}"`).join(", ");
    statements.push(
      onConflict
        ? `INSERT INTO ${table} (${cols}) VALUES\n  ${values}\n${onConflict}`
        : `INSERT OR IGNORE INTO ${table} (${cols}) VALUES\n  ${values}`,
    );
  }
  return statements;
}

export const capNow = (ts) => Math.min(ts, NOW - HOUR);
export const isoDate = (ts) => new Date(ts * 1000).toISOString().slice(0, 10);
export const utcMidnight = (y, m, d) => Date.UTC(y, m - 1, d) / 1000;
