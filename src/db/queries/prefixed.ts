import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * Every column of `table` as a select field named `<prefix><column>`, decoded like the column (JSON docs, flags,
 * dates). Batched and `raw()` reads match fields by position over the statement's column names, so a select that
 * joins two full rows must not repeat a name (docs/decisions.md, "Rows read for drizzle selects"): one of the two goes through this.
 */
export function prefixed<T extends SQLiteTable>(table: T, prefix: string) {
  const columns = getTableColumns(table);
  const fields = Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, sql`${column}`.mapWith(column).as(`${prefix}${column.name}`)]),
  );
  return fields as { [K in keyof typeof columns]: SQL.Aliased<(typeof columns)[K]["_"]["data"] | null> };
}
