import { sql } from "drizzle-orm";
import type { DB } from "../client";

/** The cheapest statement D1 must answer itself: no table, no rows read. */
export const pingDatabase = (db: DB) => db.get<{ ok: number }>(sql`select 1 as ok`);

/** The same on a shard database's binding. */
export const pingShard = (d1: D1Database) => d1.prepare("select 1 as ok").first();
