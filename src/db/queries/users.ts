import { eq } from "drizzle-orm";
import type { DB } from "../client";
import { users } from "../schema";

export const findUserByUsername = (db: DB, username: string) => db.query.users.findFirst({ where: eq(users.username, username) });

export const findUserById = (db: DB, id: number) => db.query.users.findFirst({ where: eq(users.id, id) });
