CREATE TABLE `move_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`container_id` integer NOT NULL,
	`table_name` text NOT NULL,
	`row_key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `move_changes_container` ON `move_changes` (`container_id`,`seq`);--> statement-breakpoint
CREATE TABLE `move_fences` (
	`container_id` integer PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`passing` integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE TRIGGER timed_comments_move_insert AFTER INSERT ON timed_comments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'timed_comments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER timed_comments_move_update AFTER UPDATE ON timed_comments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'timed_comments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER timed_comments_move_delete AFTER DELETE ON timed_comments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'timed_comments', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER segments_move_insert AFTER INSERT ON segments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'segments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER segments_move_update AFTER UPDATE ON segments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'segments', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER segments_move_delete AFTER DELETE ON segments
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'segments', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitles_move_insert AFTER INSERT ON subtitles
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitles', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitles_move_update AFTER UPDATE ON subtitles
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitles', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitles_move_delete AFTER DELETE ON subtitles
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'subtitles', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_move_insert AFTER INSERT ON subtitle_histories
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_histories', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_move_update AFTER UPDATE ON subtitle_histories
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_histories', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_move_delete AFTER DELETE ON subtitle_histories
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'subtitle_histories', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_versions_move_insert AFTER INSERT ON subtitle_versions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_versions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_versions_move_update AFTER UPDATE ON subtitle_versions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'subtitle_versions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_versions_move_delete AFTER DELETE ON subtitle_versions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'subtitle_versions', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER translation_votes_move_insert AFTER INSERT ON translation_votes
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'translation_votes', json_array(NEW.user_id, NEW.subtitle_id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER translation_votes_move_update AFTER UPDATE ON translation_votes
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'translation_votes', json_array(NEW.user_id, NEW.subtitle_id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER translation_votes_move_delete AFTER DELETE ON translation_votes
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'translation_votes', json_array(OLD.user_id, OLD.subtitle_id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER reports_move_insert AFTER INSERT ON reports
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'reports', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER reports_move_update AFTER UPDATE ON reports
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'reports', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER reports_move_delete AFTER DELETE ON reports
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'reports', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER caption_suggestions_move_insert AFTER INSERT ON caption_suggestions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'caption_suggestions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER caption_suggestions_move_update AFTER UPDATE ON caption_suggestions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = NEW.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = NEW.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT NEW.container_id, 'caption_suggestions', json_array(NEW.id) FROM move_fences WHERE container_id = NEW.container_id AND state = 'logging';
END;
--> statement-breakpoint
CREATE TRIGGER caption_suggestions_move_delete AFTER DELETE ON caption_suggestions
WHEN EXISTS (SELECT 1 FROM move_fences WHERE container_id = OLD.container_id) BEGIN
  SELECT RAISE(ABORT, 'container_moving') FROM move_fences WHERE container_id = OLD.container_id AND state = 'fenced' AND passing = 0;
  INSERT INTO move_changes (container_id, table_name, row_key)
  SELECT OLD.container_id, 'caption_suggestions', json_array(OLD.id) FROM move_fences WHERE container_id = OLD.container_id AND state = 'logging';
END;
