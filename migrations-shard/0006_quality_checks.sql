-- Quality checks per cue (docs/decisions.md, "Quality checks"): the mask on subtitles, the per-track counts and
-- their triggers (src/db/shard-triggers/track-checks.sql). Cues written before this migration have null checks until
-- the continuing job subtitle-checks checks them (docs/operations.md, "Quality checks of existing subtitles").
CREATE TABLE `track_checks` (
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`container_id` integer NOT NULL,
	`checked` integer DEFAULT 0 NOT NULL,
	`passing` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`video_id`, `language`)
);
--> statement-breakpoint
CREATE INDEX `track_checks_container` ON `track_checks` (`container_id`);--> statement-breakpoint
ALTER TABLE `subtitles` ADD `checks` integer;
--> statement-breakpoint
-- Why a trigger: the counts follow every writer of subtitles (imports, edits, restores, the move job's copies) in
--   the statement that writes the row.
CREATE TRIGGER subtitles_track_checks_insert AFTER INSERT ON subtitles WHEN NEW.checks IS NOT NULL BEGIN
  INSERT INTO track_checks (video_id, language, container_id, checked, passing)
  SELECT NEW.video_id, NEW.language, NEW.container_id, 1, NEW.checks = 0 WHERE true
  ON CONFLICT (video_id, language) DO UPDATE SET checked = checked + excluded.checked, passing = passing + excluded.passing;
END;
--> statement-breakpoint
-- Why a trigger: a deleted cue (a deleted language, a restore, a cleanup, a move's source) leaves the counts with it.
CREATE TRIGGER subtitles_track_checks_delete AFTER DELETE ON subtitles WHEN OLD.checks IS NOT NULL BEGIN
  INSERT INTO track_checks (video_id, language, container_id, checked, passing)
  SELECT OLD.video_id, OLD.language, OLD.container_id, -1, -(OLD.checks = 0) WHERE true
  ON CONFLICT (video_id, language) DO UPDATE SET checked = checked + excluded.checked, passing = passing + excluded.passing;
END;
--> statement-breakpoint
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
