-- contributions on a shard: per (container, user), from the subtitle_histories rows of kind segment and subtitle,
-- applied as a delta in the statement of the change, so every writer (routes, the import, the move job) keeps them.
--
-- The current definition of these triggers; a shard gets them from migrations-shard/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated shard and names any trigger missing, extra or different.

-- Why a trigger: contributions follow history rows (their count each),
--   written by the import job in chunks and by the edit routes.
CREATE TRIGGER subtitle_histories_contributions_insert AFTER INSERT ON subtitle_histories
WHEN NEW.kind IN ('segment', 'subtitle') BEGIN
  INSERT INTO contributions (container_id, user_id, username, segments, subtitles, total)
  VALUES (NEW.container_id, NEW.user_id, NEW.username, (NEW.kind = 'segment') * NEW.count,
    (NEW.kind = 'subtitle') * NEW.count, NEW.count)
  ON CONFLICT (container_id, user_id) DO UPDATE SET
    segments = segments + excluded.segments, subtitles = subtitles + excluded.subtitles, total = total + excluded.total;
END;

-- Why a trigger: contributions follow history rows removed (a cleanup, a move's source), and a row at zero goes.
CREATE TRIGGER subtitle_histories_contributions_delete AFTER DELETE ON subtitle_histories
WHEN OLD.kind IN ('segment', 'subtitle') BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment') * OLD.count, subtitles = subtitles - (OLD.kind = 'subtitle') * OLD.count,
    total = total - OLD.count
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id;
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
END;

-- Why a trigger: contributions follow a history row moved to another kind, user, container or count.
CREATE TRIGGER subtitle_histories_contributions_update AFTER UPDATE OF kind, user_id, container_id, count ON subtitle_histories
WHEN OLD.kind IS NOT NEW.kind OR OLD.user_id IS NOT NEW.user_id OR OLD.container_id IS NOT NEW.container_id OR OLD.count IS NOT NEW.count BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment') * OLD.count, subtitles = subtitles - (OLD.kind = 'subtitle') * OLD.count,
    total = total - OLD.count
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND OLD.kind IN ('segment', 'subtitle');
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
  INSERT INTO contributions (container_id, user_id, username, segments, subtitles, total)
  SELECT NEW.container_id, NEW.user_id, NEW.username, (NEW.kind = 'segment') * NEW.count, (NEW.kind = 'subtitle') * NEW.count, NEW.count
  WHERE NEW.kind IN ('segment', 'subtitle')
  ON CONFLICT (container_id, user_id) DO UPDATE SET
    segments = segments + excluded.segments, subtitles = subtitles + excluded.subtitles, total = total + excluded.total;
END;
