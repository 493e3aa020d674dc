-- The shard map names, for each shard, the containers draining from it (a whole-container cleanup pending there:
-- docs/decisions.md, "Subtitles on the shards"); by shard, that lookup reads only those rows, none when the outbox is empty.
CREATE INDEX `shard_cleanups_shard` ON `shard_cleanups` (`shard`,`video_id`);