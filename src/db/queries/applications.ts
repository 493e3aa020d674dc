import { eq } from "drizzle-orm";
import type { DB } from "../client";
import { applications } from "../schema";

export async function findApplication(db: DB, id: number) {
  return db.select().from(applications).where(eq(applications.id, id)).get();
}
