-- Shards (docs/decisions.md, "Shards"): timed comments leave this database for the shard databases (SHARD_<n>,
-- migrations-shard/); this one keeps the directory of where each container's rows live. Every environment starts with
-- shards 1 and 2. No deployed database held timed comments when this was written (wrangler.toml's ids were
-- placeholders), so the table goes without a copy.
CREATE TABLE `shard_cleanups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shard` integer NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shard_cleanups_container` ON `shard_cleanups` (`container_id`,`video_id`);--> statement-breakpoint
CREATE TABLE `shard_directory` (
	`container_id` integer PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`moving_to` integer,
	`move_started_at` integer,
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shard`) REFERENCES `shards`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`moving_to`) REFERENCES `shards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shard_directory_shard` ON `shard_directory` (`shard`);--> statement-breakpoint
CREATE INDEX `shard_directory_moving_to` ON `shard_directory` (`moving_to`);--> statement-breakpoint
CREATE TABLE `shards` (
	`id` integer PRIMARY KEY NOT NULL,
	`accepting` integer DEFAULT true NOT NULL,
	`containers` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP TABLE `timed_comments`;
--> statement-breakpoint
INSERT INTO `shards` (`id`) VALUES (1), (2);
--> statement-breakpoint
-- Containers that exist already: alternately to each shard (the placement trigger does the same for new ones).
INSERT INTO `shard_directory` (`container_id`, `shard`) SELECT `id`, 1 + ((`id` - 1) % 2) FROM `containers`;
--> statement-breakpoint
UPDATE `shards` SET `containers` = (SELECT count(*) FROM `shard_directory` d WHERE d.`shard` = `shards`.`id`);
--> statement-breakpoint
-- Why a trigger: placement is a policy of the data (the accepting shard holding the fewest containers, then the
--   lowest id), so every writer of containers places them alike, in the statement that creates them.
CREATE TRIGGER containers_shard_placement AFTER INSERT ON containers BEGIN
  INSERT INTO shard_directory (container_id, shard)
  SELECT NEW.id, id FROM shards WHERE accepting = 1 ORDER BY containers, id LIMIT 1;
END;
--> statement-breakpoint
-- Why a trigger: the placement policy reads these counts; they follow every directory change.
CREATE TRIGGER shard_directory_count_insert AFTER INSERT ON shard_directory BEGIN
  UPDATE shards SET containers = containers + 1 WHERE id = NEW.shard;
END;
--> statement-breakpoint
CREATE TRIGGER shard_directory_count_delete AFTER DELETE ON shard_directory BEGIN
  UPDATE shards SET containers = containers - 1 WHERE id = OLD.shard;
END;
--> statement-breakpoint
CREATE TRIGGER shard_directory_count_update AFTER UPDATE OF shard ON shard_directory WHEN OLD.shard <> NEW.shard BEGIN
  UPDATE shards SET containers = containers - 1 WHERE id = OLD.shard;
  UPDATE shards SET containers = containers + 1 WHERE id = NEW.shard;
END;
--> statement-breakpoint
-- Why a trigger: a deleted container's shard rows must go too, and D1 has no transaction across databases; the outbox
--   row is written in the statement that deletes the container (BEFORE: the directory row is still there), on both
--   shards while a move is under way.
CREATE TRIGGER containers_shard_cleanup BEFORE DELETE ON containers BEGIN
  INSERT INTO shard_cleanups (shard, container_id)
  SELECT shard, container_id FROM shard_directory WHERE container_id = OLD.id
  UNION SELECT moving_to, container_id FROM shard_directory WHERE container_id = OLD.id AND moving_to IS NOT NULL;
END;
--> statement-breakpoint
-- Why a trigger: the same for one video deleted (a container's delete cascading to its videos finds the container's
--   own cleanup row already written and adds none).
CREATE TRIGGER videos_shard_cleanup AFTER DELETE ON videos
WHEN NOT EXISTS (SELECT 1 FROM shard_cleanups WHERE container_id = OLD.container_id AND video_id IS NULL) BEGIN
  INSERT INTO shard_cleanups (shard, container_id, video_id)
  SELECT shard, container_id, OLD.id FROM shard_directory WHERE container_id = OLD.container_id
  UNION SELECT moving_to, container_id, OLD.id FROM shard_directory WHERE container_id = OLD.container_id AND moving_to IS NOT NULL;
END;
