-- A move's switch leaves the container's rows on the shard it left until they are deleted: the switch writes that
-- shard's whole-container cleanup in its own statement (src/db/triggers/shards.sql), so lists across shards leave
-- the rows out there at once and the sweeper deletes them if the move job does not live to (docs/decisions.md,
-- "Subtitles on the shards"). The switch also re-sends the container's facts: a sync that read the container's homes
-- before the move began wrote only the shard it left, after the copy had taken the older facts.
CREATE TRIGGER shard_directory_switch_cleanup AFTER UPDATE OF shard ON shard_directory WHEN OLD.shard <> NEW.shard BEGIN
  INSERT INTO shard_cleanups (shard, container_id) SELECT OLD.shard, OLD.container_id
  WHERE NOT EXISTS (SELECT 1 FROM shard_cleanups WHERE shard = OLD.shard AND container_id = OLD.container_id AND video_id IS NULL);
END;
--> statement-breakpoint
CREATE TRIGGER shard_directory_switch_facts AFTER UPDATE OF shard ON shard_directory WHEN OLD.shard <> NEW.shard BEGIN
  INSERT INTO shard_fact_changes (container_id, video_id)
  SELECT OLD.container_id, NULL UNION ALL SELECT container_id, id FROM videos WHERE container_id = OLD.container_id;
END;
