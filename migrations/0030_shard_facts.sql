CREATE TABLE `shard_fact_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer
);
--> statement-breakpoint
-- Why a trigger: the shards keep a copy of the facts their own triggers read (a container's state and origin
--   language), and D1 has no transaction across databases: the change is recorded in its own statement, whoever makes it.
CREATE TRIGGER containers_shard_facts AFTER UPDATE OF state, origin_language ON containers
WHEN OLD.state IS NOT NEW.state OR OLD.origin_language IS NOT NEW.origin_language BEGIN
  INSERT INTO shard_fact_changes (container_id) VALUES (NEW.id);
END;
--> statement-breakpoint
-- Why a trigger: the same for a video's state, origin language and number (its place in the container's translations).
CREATE TRIGGER videos_shard_facts AFTER UPDATE OF state, origin_language, number ON videos
WHEN OLD.state IS NOT NEW.state OR OLD.origin_language IS NOT NEW.origin_language OR OLD.number IS NOT NEW.number BEGIN
  INSERT INTO shard_fact_changes (container_id, video_id) VALUES (NEW.container_id, NEW.id);
END;
