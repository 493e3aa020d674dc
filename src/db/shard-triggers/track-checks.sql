-- track_checks: per track (video and language) the cues whose quality checks are stored (subtitles.checks not null)
-- and those of them with no finding (checks = 0), read by subtitle_tracks.json as `checks_passing` without a scan
-- (docs/decisions.md, "Quality checks"). A blank text and a cue written before the checks existed have null checks
-- and are in neither count.
--
-- The current definition of these triggers; a shard gets them from migrations-shard/ (0006), which D1 applies in
-- order and which are never edited once applied: a change is a new migration and the same definition here
-- (test/db/triggers.test.ts compares).

-- Why a trigger: the counts follow every writer of subtitles (imports, edits, restores, the move job's copies) in
--   the statement that writes the row.
CREATE TRIGGER subtitles_track_checks_insert AFTER INSERT ON subtitles WHEN NEW.checks IS NOT NULL BEGIN
  INSERT INTO track_checks (video_id, language, container_id, checked, passing)
  SELECT NEW.video_id, NEW.language, NEW.container_id, 1, NEW.checks = 0 WHERE true
  ON CONFLICT (video_id, language) DO UPDATE SET checked = checked + excluded.checked, passing = passing + excluded.passing;
END;

-- Why a trigger: a deleted cue (a deleted language, a restore, a cleanup, a move's source) leaves the counts with it.
CREATE TRIGGER subtitles_track_checks_delete AFTER DELETE ON subtitles WHEN OLD.checks IS NOT NULL BEGIN
  INSERT INTO track_checks (video_id, language, container_id, checked, passing)
  SELECT OLD.video_id, OLD.language, OLD.container_id, -1, -(OLD.checks = 0) WHERE true
  ON CONFLICT (video_id, language) DO UPDATE SET checked = checked + excluded.checked, passing = passing + excluded.passing;
END;

-- Why a trigger: a cue checked again (after its text or a neighbour changed) moves between the counts.
CREATE TRIGGER subtitles_track_checks_update AFTER UPDATE OF checks, video_id, language ON subtitles
WHEN OLD.checks IS NOT NEW.checks OR OLD.video_id IS NOT NEW.video_id OR OLD.language IS NOT NEW.language BEGIN
  INSERT INTO track_checks (video_id, language, container_id, checked, passing)
  SELECT OLD.video_id, OLD.language, OLD.container_id, -1, -(OLD.checks = 0) WHERE OLD.checks IS NOT NULL
  ON CONFLICT (video_id, language) DO UPDATE SET checked = checked + excluded.checked, passing = passing + excluded.passing;
  INSERT INTO track_checks (video_id, language, container_id, checked, passing)
  SELECT NEW.video_id, NEW.language, NEW.container_id, 1, NEW.checks = 0 WHERE NEW.checks IS NOT NULL
  ON CONFLICT (video_id, language) DO UPDATE SET checked = checked + excluded.checked, passing = passing + excluded.passing;
END;
