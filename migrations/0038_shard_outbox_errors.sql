-- The last error a drain of the catalogue's outboxes (shard_cleanups, shard_fact_changes) met on each shard, and when:
-- a shard that fails is skipped for the rest of its drain, the others drain on, and `shards list` shows the error
-- beside the shard's pending rows (docs/decisions.md, "Shards"; docs/operations.md, "Shards").
ALTER TABLE `shards` ADD `outbox_error` text;--> statement-breakpoint
ALTER TABLE `shards` ADD `outbox_error_at` integer;