-- The contract step of the subtitle cut-over (docs/decisions.md, "Subtitles on the shards: the contract step"): the
-- subtitle family lives on the shards, and the catalogue's copy of it, its triggers and the per-container mark of the
-- copy go. The family's rows here are the copy job's source and the way back until every container's copy is checked,
-- so the migration first refuses to run while one is not: a migration cannot branch, but a failing statement rolls the
-- whole migration back (D1 applies a migration as one batch) and wrangler reports the constraint by name.
-- docs/operations.md ("Shards") says what to do then.
CREATE TABLE `subtitle_contract_guard` (
  `containers_not_copied` integer NOT NULL,
  `copy_jobs_unfinished` integer NOT NULL,
  CONSTRAINT `every_container_copied_first` CHECK (`containers_not_copied` = 0),
  CONSTRAINT `no_copy_job_queued_or_running` CHECK (`copy_jobs_unfinished` = 0)
);--> statement-breakpoint
-- A copy job still queued or running would be sent again by the sweeper under a job type this release no longer has.
INSERT INTO `subtitle_contract_guard` (`containers_not_copied`, `copy_jobs_unfinished`) VALUES (
  (SELECT count(*) FROM `shard_directory` WHERE NOT `subtitles_copied`),
  (SELECT count(*) FROM `jobs` WHERE `type` = 'subtitle-family-copy' AND `status` IN ('queued', 'running')));--> statement-breakpoint
DROP TABLE `subtitle_contract_guard`;--> statement-breakpoint
-- The triggers that kept the family's flags and counts in the catalogue (the shards' own are in src/db/shard-triggers).
-- Those on the family's tables would go with them; the ones on videos and containers read the family's tables, and
-- SQLite checks every trigger when a column is dropped below, so all go first, by name.
DROP TRIGGER `subtitle_histories_contributions_insert`;--> statement-breakpoint
DROP TRIGGER `subtitle_histories_contributions_delete`;--> statement-breakpoint
DROP TRIGGER `subtitle_histories_contributions_update`;--> statement-breakpoint
DROP TRIGGER `subtitles_translation_on_insert`;--> statement-breakpoint
DROP TRIGGER `subtitles_translation_on_update`;--> statement-breakpoint
DROP TRIGGER `videos_translation_origin`;--> statement-breakpoint
DROP TRIGGER `containers_translation_origin`;--> statement-breakpoint
DROP TRIGGER `subtitles_language_counts_insert`;--> statement-breakpoint
DROP TRIGGER `subtitles_language_counts_delete`;--> statement-breakpoint
DROP TRIGGER `subtitles_language_counts_update`;--> statement-breakpoint
DROP TRIGGER `videos_language_counts`;--> statement-breakpoint
DROP TRIGGER `videos_language_counts_delete`;--> statement-breakpoint
DROP TRIGGER `containers_language_counts_state`;--> statement-breakpoint
DROP TRIGGER `containers_language_counts_origin`;--> statement-breakpoint
DROP TRIGGER `containers_language_counts_delete`;--> statement-breakpoint
-- Children before the tables their foreign keys name: a table that no remaining table references is dropped without
-- the implicit DELETE of every row that SQLite runs to check foreign keys, so the drops cost no more with millions of
-- rows (their indexes go with them).
DROP TABLE `translation_votes`;--> statement-breakpoint
DROP TABLE `reports`;--> statement-breakpoint
DROP TABLE `caption_suggestions`;--> statement-breakpoint
DROP TABLE `subtitles`;--> statement-breakpoint
DROP TABLE `segments`;--> statement-breakpoint
DROP TABLE `subtitle_histories`;--> statement-breakpoint
DROP TABLE `subtitle_versions`;--> statement-breakpoint
DROP TABLE `contributions`;--> statement-breakpoint
DROP TABLE `container_language_counts`;--> statement-breakpoint
DROP TABLE `language_counts`;--> statement-breakpoint
-- Every container is copied now (the guard above), and a new one starts copied: the mark has nothing left to say.
ALTER TABLE `shard_directory` DROP COLUMN `subtitles_copied`;
