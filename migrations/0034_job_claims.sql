-- Exclusive claims (docs/decisions.md, "Exclusive claims"): a delivery claims a job only when it is queued or no
-- live delivery holds it, each claim bumps `epoch`, and the claiming delivery's later writes are conditional on it.
ALTER TABLE `jobs` ADD `epoch` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `held` integer DEFAULT false NOT NULL;