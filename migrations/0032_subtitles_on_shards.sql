ALTER TABLE `shard_directory` ADD `subtitles_copied` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Containers that exist when the shards start holding subtitles have theirs in the catalogue until
-- `npm run admin -- shards copy-subtitles all` copies and checks them (docs/decisions.md, "Subtitles on the shards").
UPDATE `shard_directory` SET `subtitles_copied` = false;
