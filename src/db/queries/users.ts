import { eq } from "drizzle-orm";
import type { DB } from "../client";
import { users } from "../schema";

export const findUserByUsername = (db: DB, username: string) => db.select().from(users).where(eq(users.username, username)).get();

export const findUserById = (db: DB, id: number) => db.select().from(users).where(eq(users.id, id)).get();
