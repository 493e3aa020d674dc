import { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { DB } from "./client";

const dialect = new SQLiteAsyncDialect();

/**
 * Runs raw statements as one D1 batch (one transaction) on the instrumented client; returns each statement's result.
 * drizzle's own batch cannot bind parameters of `db.run(sql)`. Statements already prepared on `db.$client` ride along
 * as they are.
 */
export async function runBatchResults(db: Pick<DB, "$client">, statements: Array<SQL | D1PreparedStatement>) {
  if (!statements.length) return [];
  const client = db.$client;
  const prepared = statements.map((s) => {
    if (!(s instanceof SQL)) return s;
    const q = dialect.sqlToQuery(s);
    return client.prepare(q.sql).bind(...q.params);
  });
  return client.batch(prepared);
}

/** The same, returning the rows written (triggers and indexes included). */
export async function runBatch(db: Pick<DB, "$client">, statements: Array<SQL | D1PreparedStatement>) {
  const results = await runBatchResults(db, statements);
  return results.reduce((sum, r) => sum + (r.meta?.rows_written ?? 0), 0);
}
