import { sql } from "drizzle-orm";
import type { DB } from "../client";

/** The cheapest statement D1 must answer itself: no table, no rows read. */
export const pingDatabase = (db: DB) => db.get<{ ok: number }>(sql`select 1 as ok`);
