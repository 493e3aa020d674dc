import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { containers } from "./catalogue";
import { createdAt, flag, updatedAt } from "./columns";

export const applications = sqliteTable("applications", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  official: flag("official"),
  unhostedAccess: flag("unhosted_access"),
  // Kept as the secret itself: request signatures are HMACs keyed by it, which a hash cannot verify.
  secret: text("secret").notNull(),
  createdAt: createdAt(),
});

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull().unique(),
    email: text("email").notNull().unique(),
    name: text("name").notNull().default(""),
    // "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>", so the cost can be raised later.
    passwordHash: text("password_hash").notNull(),
    staff: flag("staff"),
    avatarUrl: text("avatar_url"),
    socialId: text("social_id").unique(),
    idpId: text("idp_id").unique(),
    retailerRef: text("retailer_ref").unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
);

/** Login sessions; only the SHA-256 of a token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

export const containerManagers = sqliteTable(
  "container_managers",
  {
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.containerId, t.userId] }),
    index("container_managers_user").on(t.userId, t.containerId),
  ],
);
