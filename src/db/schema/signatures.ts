import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Signatures already used by requests whose only credential is the signature (docs/decisions.md, "Signed requests
 * and replay"): a second request with the same signature inside the timestamp window is a replay. The primary key
 * makes the claim exact (one INSERT wins); rows past `expires_at` (the timestamp window's end, unix seconds) are
 * deleted by the sweeper. Written only by signature-only writes, so it holds a few minutes of them.
 */
export const usedSignatures = sqliteTable("used_signatures", {
  signature: text("signature").primaryKey(),
  expiresAt: integer("expires_at").notNull(),
});
