import { drizzle } from "drizzle-orm/d1";

export type DB = ReturnType<typeof createDb>;

/** What one request (or one queue message) cost in D1: reported in Server-Timing. */
export interface D1Stats {
  /** Statements run (a batch counts each of its statements). */
  queries: number;
  /** Round trips to D1: one per statement, one per batch (one per read: docs/decisions.md, "One round trip per read"). */
  trips: number;
  rowsRead: number;
  rowsWritten: number;
  durationMs: number;
}

export const emptyStats = (): D1Stats => ({ queries: 0, trips: 0, rowsRead: 0, rowsWritten: 0, durationMs: 0 });

type Runner = D1Database | D1DatabaseSession;
const UNDERLYING = Symbol("underlying statement");

function record(stats: D1Stats, meta: Partial<D1Meta> | undefined) {
  stats.queries += 1;
  stats.rowsRead += meta?.rows_read ?? 0;
  stats.rowsWritten += meta?.rows_written ?? 0;
}

/**
 * Wraps a prepared statement so every execution adds its D1 meta to `stats`.
 * `raw()` drops D1's meta, so it is served from `all()` and flattened to arrays, exactly what
 * drizzle itself does for batched queries: select lists must not repeat a column name (alias them).
 */
function wrapStatement(stmt: D1PreparedStatement, stats: D1Stats): D1PreparedStatement {
  const wrapped = {
    [UNDERLYING]: stmt,
    bind: (...values: unknown[]) => wrapStatement(stmt.bind(...values), stats),
    async first(column?: string) {
      const res = await wrapped.all();
      const row = res.results[0] as Record<string, unknown> | undefined;
      if (!row) return null;
      return column ? row[column] : row;
    },
    async all() {
      const started = performance.now();
      const res = await stmt.all();
      stats.trips += 1;
      record(stats, res.meta);
      stats.durationMs += performance.now() - started;
      return res;
    },
    async run() {
      const started = performance.now();
      const res = await stmt.run();
      stats.trips += 1;
      record(stats, res.meta);
      stats.durationMs += performance.now() - started;
      return res;
    },
    async raw(options?: { columnNames?: boolean }) {
      const res = await wrapped.all();
      const rows = res.results as Record<string, unknown>[];
      const values = rows.map((row) => Object.values(row));
      if (options?.columnNames) return [rows[0] ? Object.keys(rows[0]) : [], ...values];
      return values;
    },
  };
  return wrapped as unknown as D1PreparedStatement;
}

export function instrument(runner: Runner, stats: D1Stats): D1Database {
  return {
    prepare: (query: string) => wrapStatement(runner.prepare(query), stats),
    async batch(statements: D1PreparedStatement[]) {
      const started = performance.now();
      const raw = statements.map((s) => (s as unknown as { [UNDERLYING]?: D1PreparedStatement })[UNDERLYING] ?? s);
      const results = await runner.batch(raw);
      stats.trips += 1;
      for (const r of results) record(stats, r.meta);
      stats.durationMs += performance.now() - started;
      return results;
    },
    exec: (query: string) => (runner as D1Database).exec(query),
    dump: () => (runner as D1Database).dump(),
    withSession: (c?: string) => (runner as D1Database).withSession(c),
  } as unknown as D1Database;
}

/**
 * Without drizzle's relational query API: given the schema, `drizzle()` walks every table's relations on each call,
 * which was the largest cost of a token read (docs/performance.md, "Where a token read's time goes"), and a request
 * makes one. Queries name their tables (`db.select().from(table)`).
 */
export function createDb(d1: D1Database) {
  return drizzle(d1);
}
