import { sql } from "drizzle-orm";
import type { DB } from "../client";

/**
 * The last migration applied to a database (`d1_migrations`, which `wrangler d1 migrations apply` and the tests'
 * `applyD1Migrations` keep): one row read through its primary key. A database without the table (never migrated by
 * wrangler) answers null: it did answer, which is what the health check asks.
 */
export const LAST_MIGRATION = "SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1";
const noTable = (err: unknown) => /no such table: d1_migrations/.test(String((err as { cause?: unknown })?.cause ?? err));

/** The catalogue's last migration, as the health check's one statement there besides the shard list. */
export async function lastCatalogueMigration(db: DB): Promise<string | null> {
  try {
    return (await db.get<{ name: string } | undefined>(sql.raw(LAST_MIGRATION)))?.name ?? null;
  } catch (err) {
    if (noTable(err)) return null;
    throw err;
  }
}

/** The same on a shard database's binding. */
export async function lastShardMigration(d1: D1Database): Promise<string | null> {
  try {
    return (await d1.prepare(LAST_MIGRATION).first<{ name: string }>())?.name ?? null;
  } catch (err) {
    if (noTable(err)) return null;
    throw err;
  }
}
