CREATE VIEW `shard_homes` AS SELECT container_id, shard FROM shard_directory UNION ALL SELECT container_id, moving_to FROM shard_directory WHERE moving_to IS NOT NULL;
--> statement-breakpoint
DROP TRIGGER containers_shard_cleanup;
--> statement-breakpoint
DROP TRIGGER videos_shard_cleanup;
--> statement-breakpoint
-- Why a trigger: a deleted container's shard rows must go too, and D1 has no transaction across databases; the outbox
--   row is written in the statement that deletes the container (BEFORE: the directory row is still there), for each
--   shard that may hold its rows (shard_homes: both while a move is under way).
CREATE TRIGGER containers_shard_cleanup BEFORE DELETE ON containers BEGIN
  INSERT INTO shard_cleanups (shard, container_id) SELECT shard, container_id FROM shard_homes WHERE container_id = OLD.id;
END;
--> statement-breakpoint
-- Why a trigger: the same for one video deleted (a container's delete cascading to its videos finds the container's
--   own cleanup row already written and adds none).
CREATE TRIGGER videos_shard_cleanup AFTER DELETE ON videos
WHEN NOT EXISTS (SELECT 1 FROM shard_cleanups WHERE container_id = OLD.container_id AND video_id IS NULL) BEGIN
  INSERT INTO shard_cleanups (shard, container_id, video_id)
  SELECT shard, container_id, OLD.id FROM shard_homes WHERE container_id = OLD.container_id;
END;
