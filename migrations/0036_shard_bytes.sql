-- Placement by two random choices, the smaller shard taking the container (docs/decisions.md, "Shards"): each shard's
-- size as the sweeper last saw it, and the placement trigger that weighs it (src/db/triggers/shards.sql).
ALTER TABLE `shards` ADD `bytes` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
DROP TRIGGER containers_shard_placement;
--> statement-breakpoint
-- Why a trigger: placement is a policy of the data, so every writer of containers places them alike, in the statement
--   that creates them. Two random choices among the accepting shards, the smaller of the two taking the container
--   (bytes in steps of 128 MiB, then fewer containers, then the lower id): a new, empty shard takes about 2/N of new
--   containers instead of every one until its count catches up, and a shard full of large containers takes fewer.
--   With two accepting shards both are always drawn, so they alternate while their sizes are within a step.
CREATE TRIGGER containers_shard_placement AFTER INSERT ON containers BEGIN
  INSERT INTO shard_directory (container_id, shard)
  SELECT NEW.id, id FROM (SELECT id, bytes, containers FROM shards WHERE accepting = 1 ORDER BY random() LIMIT 2)
  ORDER BY bytes / 134217728, containers, id LIMIT 1;
END;
