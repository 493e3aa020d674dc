-- Durable jobs (docs/operations.md, "Durable jobs"). `lease_until` is the time by which an unfinished job must show life: a queued
-- job must have been picked up (insert + QUEUED_TIMEOUT_SECONDS), a running one must have reported progress
-- (start or last progress + LEASE_SECONDS). Past it, the sweeper (src/jobs/sweeper.ts, every minute) re-sends
-- the job or, after MAX_ATTEMPTS, fails it with the reason. The constants live in src/jobs/sweeper.ts.
ALTER TABLE `jobs` ADD `lease_until` integer;
--> statement-breakpoint
-- Jobs left unfinished before this migration may have lost their messages long ago: due at once.
UPDATE `jobs` SET `lease_until` = unixepoch() WHERE `status` IN ('queued', 'running');
--> statement-breakpoint
-- The sweeper's range scans (status = ? AND lease_until <= ?); finished jobs, nearly all rows, are not in it.
-- `status` leads so the planner prefers it to jobs_status (status, id), which would read every unfinished job.
CREATE INDEX `jobs_lease` ON `jobs` (`status`,`lease_until`) WHERE "jobs"."status" in ('queued', 'running');
