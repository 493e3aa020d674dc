ALTER TABLE `shard_directory` ADD `subtitles_copied` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Containers whose videos have subtitle rows in the catalogue when the shards start holding subtitles keep them there
-- until `npm run admin -- shards copy-subtitles all` copies and checks them (docs/decisions.md, "Subtitles on the
-- shards"). Any family row hangs off a segment, a history or a version of one of the container's videos (each probe
-- an index that starts with video_id); a container with none has nothing to copy and starts on its shard.
UPDATE `shard_directory` SET `subtitles_copied` = false
WHERE EXISTS (SELECT 1 FROM `videos` v WHERE v.`container_id` = `shard_directory`.`container_id` AND (
  EXISTS (SELECT 1 FROM `segments` s WHERE s.`video_id` = v.`id`)
  OR EXISTS (SELECT 1 FROM `subtitle_histories` h WHERE h.`video_id` = v.`id`)
  OR EXISTS (SELECT 1 FROM `subtitle_versions` sv WHERE sv.`video_id` = v.`id`)));
