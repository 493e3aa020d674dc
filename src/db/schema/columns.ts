import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

// Unix seconds; the views turn them into ISO-8601 UTC strings.
export const createdAt = () =>
  integer("created_at", { mode: "timestamp" })
    .notNull()
    .default(sql`(unixepoch())`);
export const updatedAt = () =>
  integer("updated_at", { mode: "timestamp" })
    .notNull()
    .default(sql`(unixepoch())`);
export const flag = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);
