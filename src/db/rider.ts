import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { DB } from "./client";

type Item = BatchItem<"sqlite">;

/**
 * A statement that another layer wants read in the same D1 round trip as a service's data (the session check of a
 * token-bearing read; docs/decisions.md, "One round trip per read"). `take` hands the statement over once; `settle`
 * receives its rows.
 */
export interface Rider {
  take(): Item | undefined;
  settle(rows: unknown): Promise<void>;
}

/**
 * One `db.batch` of `statements`, with the rider's statement in front when it has not travelled yet: the read
 * stays one round trip whether or not a session check rides along.
 */
export async function batchWith<T extends [Item, ...Item[]]>(db: DB, rider: Rider | undefined, statements: T): Promise<BatchResponse<T>> {
  const extra = rider?.take();
  if (!extra) return db.batch(statements);
  const [first, ...rest] = (await db.batch([extra, ...statements] as unknown as T)) as unknown[];
  await rider!.settle(first);
  return rest as BatchResponse<T>;
}
