-- Moves on the shard a container leaves (docs/decisions.md, "Online moves"): while the container's move_fences row
-- says 'logging', every change of its rows in the tables people write is recorded in move_changes (the move job
-- replays them on the target after its copy); while it says 'fenced', every such write is refused, unless it is a
-- delete run with `passing` set in its own batch (the move's drain and the cleanups, src/db/queries/shard-rows.ts),
-- which is not logged. The refusal names FENCE_REFUSAL (src/db/shard-schema/moves.ts), which the one error handler
-- answers with the move's 503.
--
-- The current definition of these triggers; a shard gets them from migrations-shard/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated shard and names any trigger missing, extra or different.
--
-- Why triggers: a writer that read the directory before the move began, or stalled between that read and its write,
-- writes to this shard whatever the directory says by then; only the database sees every write. AFTER triggers, so
-- the key is the row's own (an id is known once the row is), and a refusal backs the whole statement out.

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER timed_comments_move_insert AFTER INSERT ON timed_comments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'timed_comments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER timed_comments_move_update AFTER UPDATE ON timed_comments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'timed_comments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER timed_comments_move_delete AFTER DELETE ON timed_comments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'timed_comments', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER segments_move_insert AFTER INSERT ON segments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'segments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER segments_move_update AFTER UPDATE ON segments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'segments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER segments_move_delete AFTER DELETE ON segments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'segments', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER subtitles_move_insert AFTER INSERT ON subtitles
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitles', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER subtitles_move_update AFTER UPDATE ON subtitles
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitles', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER subtitles_move_delete AFTER DELETE ON subtitles
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'subtitles', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER subtitle_histories_move_insert AFTER INSERT ON subtitle_histories
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_histories', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER subtitle_histories_move_update AFTER UPDATE ON subtitle_histories
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_histories', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER subtitle_histories_move_delete AFTER DELETE ON subtitle_histories
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'subtitle_histories', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER subtitle_versions_move_insert AFTER INSERT ON subtitle_versions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_versions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER subtitle_versions_move_update AFTER UPDATE ON subtitle_versions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_versions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER subtitle_versions_move_delete AFTER DELETE ON subtitle_versions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'subtitle_versions', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER translation_votes_move_insert AFTER INSERT ON translation_votes
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'translation_votes', json_array(NEW.user_id, NEW.subtitle_id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER translation_votes_move_update AFTER UPDATE ON translation_votes
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'translation_votes', json_array(NEW.user_id, NEW.subtitle_id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER translation_votes_move_delete AFTER DELETE ON translation_votes
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'translation_votes', json_array(OLD.user_id, OLD.subtitle_id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER reports_move_insert AFTER INSERT ON reports
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'reports', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER reports_move_update AFTER UPDATE ON reports
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'reports', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER reports_move_delete AFTER DELETE ON reports
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'reports', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;

-- Why a trigger: a row written on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER caption_suggestions_move_insert AFTER INSERT ON caption_suggestions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'caption_suggestions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row changed on the shard a container leaves is logged for the target, or refused under the fence.
CREATE TRIGGER caption_suggestions_move_update AFTER UPDATE ON caption_suggestions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'caption_suggestions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;

-- Why a trigger: a row deleted on the shard a container leaves is logged for the target, or refused under the fence unless the delete passes it.
CREATE TRIGGER caption_suggestions_move_delete AFTER DELETE ON caption_suggestions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'caption_suggestions', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
