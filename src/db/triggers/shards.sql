-- The shard directory (docs/decisions.md, "Shards"): where each container's localisation and community rows live,
-- written when the container is created, whatever creates it (the API, an import, a seed), and the catalogue's
-- deletes that the shard rows must follow (the shard_cleanups outbox, drained by src/services/shard-cleanups.ts).
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

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

-- Why a trigger: the placement policy reads these counts; they follow every directory change.
CREATE TRIGGER shard_directory_count_insert AFTER INSERT ON shard_directory BEGIN
  UPDATE shards SET containers = containers + 1 WHERE id = NEW.shard;
END;

-- Why a trigger: the same count, when a container goes (its directory row cascades).
CREATE TRIGGER shard_directory_count_delete AFTER DELETE ON shard_directory BEGIN
  UPDATE shards SET containers = containers - 1 WHERE id = OLD.shard;
END;

-- Why a trigger: the same count, when a move switches a container to another shard.
CREATE TRIGGER shard_directory_count_update AFTER UPDATE OF shard ON shard_directory WHEN OLD.shard <> NEW.shard BEGIN
  UPDATE shards SET containers = containers - 1 WHERE id = OLD.shard;
  UPDATE shards SET containers = containers + 1 WHERE id = NEW.shard;
END;

-- Why a trigger: after a move's switch the shard it left still holds the container's rows until the move job deletes
--   them (hours for a large container, never if the job dies): the switch writes that shard's whole-container cleanup
--   in its own statement, so lists across shards leave the rows out there at once (shardMapQuery) and the sweeper
--   deletes them if the job does not live to; the job removes the cleanup when it has emptied the shard.
CREATE TRIGGER shard_directory_switch_cleanup AFTER UPDATE OF shard ON shard_directory WHEN OLD.shard <> NEW.shard BEGIN
  INSERT INTO shard_cleanups (shard, container_id) SELECT OLD.shard, OLD.container_id
  WHERE NOT EXISTS (SELECT 1 FROM shard_cleanups WHERE shard = OLD.shard AND container_id = OLD.container_id AND video_id IS NULL);
END;

-- Why a trigger: the facts a shard keeps must be the catalogue's on the shard a container switches to, but a facts
--   sync that read the container's homes before the move began wrote only the shard it left, after the copy took the
--   older facts there. The switch re-sends the container's and its videos' facts in its own statement: the changes
--   are newer than any before, so the next sync writes the catalogue's current facts over whatever the copy brought.
CREATE TRIGGER shard_directory_switch_facts AFTER UPDATE OF shard ON shard_directory WHEN OLD.shard <> NEW.shard BEGIN
  INSERT INTO shard_fact_changes (container_id, video_id)
  SELECT OLD.container_id, NULL UNION ALL SELECT container_id, id FROM videos WHERE container_id = OLD.container_id;
END;

-- Why a trigger: a deleted container's shard rows must go too, and D1 has no transaction across databases; the outbox
--   row is written in the statement that deletes the container (BEFORE: the directory row is still there), for each
--   shard that may hold its rows (shard_homes: both while a move is under way).
CREATE TRIGGER containers_shard_cleanup BEFORE DELETE ON containers BEGIN
  INSERT INTO shard_cleanups (shard, container_id) SELECT shard, container_id FROM shard_homes WHERE container_id = OLD.id;
END;

-- Why a trigger: the same for one video deleted (a container's delete cascading to its videos finds the container's
--   own cleanup row already written and adds none).
CREATE TRIGGER videos_shard_cleanup AFTER DELETE ON videos
WHEN NOT EXISTS (SELECT 1 FROM shard_cleanups WHERE container_id = OLD.container_id AND video_id IS NULL) BEGIN
  INSERT INTO shard_cleanups (shard, container_id, video_id)
  SELECT shard, container_id, OLD.id FROM shard_homes WHERE container_id = OLD.container_id;
END;

-- Why a trigger: the shards keep a copy of the facts their own triggers read (a container's state and origin
--   language), and D1 has no transaction across databases: the change is recorded in its own statement, whoever makes it.
CREATE TRIGGER containers_shard_facts AFTER UPDATE OF state, origin_language ON containers
WHEN OLD.state IS NOT NEW.state OR OLD.origin_language IS NOT NEW.origin_language BEGIN
  INSERT INTO shard_fact_changes (container_id) VALUES (NEW.id);
END;

-- Why a trigger: the same for a video's state, origin language and number (its place in the container's translations).
CREATE TRIGGER videos_shard_facts AFTER UPDATE OF state, origin_language, number ON videos
WHEN OLD.state IS NOT NEW.state OR OLD.origin_language IS NOT NEW.origin_language OR OLD.number IS NOT NEW.number BEGIN
  INSERT INTO shard_fact_changes (container_id, video_id) VALUES (NEW.container_id, NEW.id);
END;
