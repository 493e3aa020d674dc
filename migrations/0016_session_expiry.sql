-- Sessions expire (docs/decisions.md, "Sessions"): after an idle time (last_used_at + idle limit) and an absolute lifetime
-- (expires_at, fixed at login). Both limits are constants in src/services/sessions.ts. ADD COLUMN needs a constant
-- default; 0 means expired, so the backfill below must cover every existing row.
ALTER TABLE `sessions` ADD `last_used_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `expires_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing sessions: their last use is unknown, so count from now; their lifetime runs from their creation
-- (365 days), but nobody is logged out by the deploy itself: at least the idle window (30 days) is left.
UPDATE `sessions` SET `last_used_at` = unixepoch(), `expires_at` = max(`created_at` + 31536000, unixepoch() + 2592000);
