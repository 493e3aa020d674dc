-- Jobs an operator can see and steer (docs/operations.md, "Jobs runbook").
--
-- The staff listing GET /v4/jobs.json: newest first (created_at, then id) under any combination of its filters,
-- status, type and a created_at range. Each combination walks one index in order, so a page reads about
-- offset + per_page index entries however many jobs the table holds: the index's equality columns, then
-- created_at (and the rowid every index ends with, so ties come out by id). They replace jobs_status (status, id):
-- its one reader, the busy-track check (status IN ('queued', 'running') AND type IN (...)), now walks
-- jobs_status_type_created, which narrows by type too.
DROP INDEX IF EXISTS `jobs_status`;
--> statement-breakpoint
CREATE INDEX `jobs_created` ON `jobs` (`created_at`);
--> statement-breakpoint
CREATE INDEX `jobs_status_created` ON `jobs` (`status`,`created_at`);
--> statement-breakpoint
CREATE INDEX `jobs_type_created` ON `jobs` (`type`,`created_at`);
--> statement-breakpoint
CREATE INDEX `jobs_status_type_created` ON `jobs` (`status`,`type`,`created_at`);
--> statement-breakpoint
-- Which failed jobs the dead-letter queue's consumer failed (queues/index.ts), and when: its error reads like the
-- sweeper's (`failed after N attempts: ...`), so the row says it. A retry clears it. Only those rows are indexed.
ALTER TABLE `jobs` ADD `dead_lettered_at` integer;
--> statement-breakpoint
CREATE INDEX `jobs_dead_letters` ON `jobs` (`dead_lettered_at`) WHERE "jobs"."dead_lettered_at" is not null;
