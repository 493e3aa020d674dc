import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { containers } from "./catalogue";
import { createdAt, flag, updatedAt } from "./columns";

export const applications = sqliteTable("applications", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  official: flag("official"),
  unhostedAccess: flag("unhosted_access"),
  // Adult containers are not played to it (docs/decisions.md, "Playback grants"); set by an operator.
  familyFriendly: flag("family_friendly"),
  // Kept as the secret itself: request signatures are HMACs keyed by it, which a hash cannot verify.
  secret: text("secret").notNull(),
  // After a rotation the previous secret also signs until previous_secret_expires_at (unix seconds), so installed
  // apps can switch over; both null when there is no overlap (docs/decisions.md, "Secret rotation").
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: integer("previous_secret_expires_at"),
  createdAt: createdAt(),
});

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  email: text("email").notNull().unique(),
  // Whether someone proved they hold `email` (a provider's verified email: created from or linked to such an
  // identity). Only a verified account email is matched to a new identity (docs/decisions.md, "External identity").
  emailVerified: flag("email_verified"),
  name: text("name").notNull().default(""),
  // "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>", so the cost can be raised later.
  passwordHash: text("password_hash").notNull(),
  staff: flag("staff"),
  avatarUrl: text("avatar_url"),
  // External identities, "<provider or retailer>:<its id of the user>" (src/services/identity/accounts.ts).
  socialId: text("social_id").unique(),
  idpId: text("idp_id").unique(),
  retailerRef: text("retailer_ref").unique(),
  // The app store account: "<bundle id>:<appAccountToken or originalTransactionId>".
  storeRef: text("store_ref").unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A row that belongs to a user and goes with them: `user_id` (or `name`), deleted when the user is. */
export const userOwned = (name = "user_id") =>
  integer(name)
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** The key of a per-user counts row (kept by triggers): one row a user, deleted with them. */
export const userCounts = () =>
  integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" });

/**
 * Single-use login credentials (retailer parameters, store receipts) already spent: the SHA-256 of what was
 * signed, kept until the credential would have expired anyway, so a replay is refused.
 */
export const usedCredentials = sqliteTable(
  "used_credentials",
  {
    hash: text("hash").primaryKey(),
    kind: text("kind", { enum: ["retailer", "store"] }).notNull(),
    // Unix seconds; rows past it are deleted by the next single-use login.
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("used_credentials_expires").on(t.expiresAt)],
);

/** Login sessions; only the SHA-256 of a token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: userOwned(),
    createdAt: createdAt(),
    // Unix seconds (migration 0016). Refreshed at most once a day (src/services/sessions.ts), so idle expiry is
    // last_used_at + the idle limit, to within that day.
    lastUsedAt: integer("last_used_at").notNull().default(0),
    // Unix seconds: the absolute end, fixed at login so a later change of the lifetime never revives a session.
    // The default 0 is already expired: a row inserted without these fails closed.
    expiresAt: integer("expires_at").notNull().default(0),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/**
 * The clients (an address; an IPv6 /64) that logged in to an account with its password in the last 90 days: the
 * per-account login ceiling does not slow them, so a guess spread over many addresses cannot keep the owner out
 * (src/services/login-limits.ts; docs/decisions.md, "External identity"). `client` is a SHA-256 tag of the account
 * and the client, never the address; the account's rows past 90 days go at its next login from a new client.
 */
export const loginClients = sqliteTable(
  "login_clients",
  {
    userId: userOwned(),
    client: text("client").notNull(),
    // Unix seconds of the last password login from this client.
    lastLoginAt: integer("last_login_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.client] })],
);

export const containerManagers = sqliteTable(
  "container_managers",
  {
    containerId: integer("container_id")
      .notNull()
      .references(() => containers.id, { onDelete: "cascade" }),
    userId: userOwned(),
  },
  (t) => [primaryKey({ columns: [t.containerId, t.userId] }), index("container_managers_user").on(t.userId, t.containerId)],
);
