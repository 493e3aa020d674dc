CREATE TABLE `container_language_counts` (
	`container_id` integer NOT NULL,
	`language` text NOT NULL,
	`originals` integer DEFAULT 0 NOT NULL,
	`translations` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`container_id`, `language`)
);
--> statement-breakpoint
CREATE TABLE `contributions` (
	`container_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`username` text NOT NULL,
	`segments` integer DEFAULT 0 NOT NULL,
	`subtitles` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`container_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `contributions_container_total` ON `contributions` (`container_id`,`total`,`user_id`);--> statement-breakpoint
CREATE INDEX `contributions_user_total` ON `contributions` (`user_id`,`total`,`container_id`);--> statement-breakpoint
CREATE TABLE `language_counts` (
	`language` text PRIMARY KEY NOT NULL,
	`originals` integer DEFAULT 0 NOT NULL,
	`translations` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `container_facts` (
	`container_id` integer PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`origin_language` text NOT NULL,
	`change_id` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `video_facts` (
	`video_id` integer PRIMARY KEY NOT NULL,
	`container_id` integer NOT NULL,
	`state` text NOT NULL,
	`origin_language` text NOT NULL,
	`number` integer,
	`change_id` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `video_facts_container_state_number` ON `video_facts` (`container_id`,`state`,`number`);--> statement-breakpoint
CREATE TABLE `caption_suggestions` (
	`id` integer PRIMARY KEY NOT NULL,
	`origin_subtitle_id` integer NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`user_id` integer NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`origin_subtitle_id`) REFERENCES `subtitles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `caption_suggestions_origin` ON `caption_suggestions` (`origin_subtitle_id`,`language`);--> statement-breakpoint
CREATE INDEX `caption_suggestions_container` ON `caption_suggestions` (`container_id`,`id`);--> statement-breakpoint
CREATE INDEX `caption_suggestions_user` ON `caption_suggestions` (`user_id`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY NOT NULL,
	`subtitle_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`username` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`video_id` integer NOT NULL,
	`container_id` integer NOT NULL,
	`language` text,
	`text` text,
	`version` integer,
	`status` text DEFAULT 'open' NOT NULL,
	`resolution` text,
	`resolved_by` integer,
	`resolved_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`subtitle_id`) REFERENCES `subtitles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_subtitle_user` ON `reports` (`subtitle_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `reports_user` ON `reports` (`user_id`);--> statement-breakpoint
CREATE INDEX `reports_container_status` ON `reports` (`container_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `reports_video` ON `reports` (`video_id`);--> statement-breakpoint
CREATE TABLE `segments` (
	`id` integer PRIMARY KEY NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`start_ms` integer NOT NULL,
	`end_ms` integer NOT NULL,
	`author_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `segments_video_start` ON `segments` (`video_id`,`start_ms`);--> statement-breakpoint
CREATE INDEX `segments_container` ON `segments` (`container_id`,`id`);--> statement-breakpoint
CREATE INDEX `segments_author` ON `segments` (`author_id`);--> statement-breakpoint
CREATE TABLE `subtitle_histories` (
	`id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`username` text NOT NULL,
	`video_id` integer NOT NULL,
	`container_id` integer NOT NULL,
	`segment_id` integer,
	`subtitle_id` integer,
	`language` text,
	`text` text,
	`version` integer DEFAULT 1 NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`source_key` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `subtitle_histories_user` ON `subtitle_histories` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_video_language` ON `subtitle_histories` (`user_id`,`video_id`,`language`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_video_user` ON `subtitle_histories` (`video_id`,`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_language` ON `subtitle_histories` (`user_id`,`language`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_container_user` ON `subtitle_histories` (`container_id`,`kind`,`user_id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_container` ON `subtitle_histories` (`container_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `subtitle_histories_source` ON `subtitle_histories` (`source_key`);--> statement-breakpoint
CREATE TABLE `subtitle_versions` (
	`id` integer PRIMARY KEY NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`number` integer NOT NULL,
	`author_id` integer,
	`application_id` integer,
	`cause` text NOT NULL,
	`cues` integer NOT NULL,
	`completion` integer NOT NULL,
	`hash` text NOT NULL,
	`bytes` integer NOT NULL,
	`restored_from` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subtitle_versions_track_number` ON `subtitle_versions` (`video_id`,`language`,`number`);--> statement-breakpoint
CREATE INDEX `subtitle_versions_container` ON `subtitle_versions` (`container_id`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_versions_created` ON `subtitle_versions` (`created_at`);--> statement-breakpoint
CREATE INDEX `subtitle_versions_author` ON `subtitle_versions` (`author_id`);--> statement-breakpoint
CREATE TABLE `subtitles` (
	`id` integer PRIMARY KEY NOT NULL,
	`container_id` integer NOT NULL,
	`segment_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`text` text NOT NULL,
	`author_id` integer,
	`author_username` text,
	`version` integer DEFAULT 1 NOT NULL,
	`is_translation` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`segment_id`) REFERENCES `segments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subtitles_segment_language` ON `subtitles` (`segment_id`,`language`);--> statement-breakpoint
CREATE INDEX `subtitles_video_language` ON `subtitles` (`video_id`,`language`);--> statement-breakpoint
CREATE INDEX `subtitles_language` ON `subtitles` (`language`,`video_id`);--> statement-breakpoint
CREATE INDEX `subtitles_translations` ON `subtitles` (`id`,`video_id`) WHERE is_translation = 1;--> statement-breakpoint
CREATE INDEX `subtitles_container` ON `subtitles` (`container_id`,`id`);--> statement-breakpoint
CREATE INDEX `subtitles_author` ON `subtitles` (`author_id`);--> statement-breakpoint
CREATE TABLE `translation_votes` (
	`user_id` integer NOT NULL,
	`subtitle_id` integer NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`value` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `subtitle_id`),
	FOREIGN KEY (`subtitle_id`) REFERENCES `subtitles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `translation_votes_subtitle` ON `translation_votes` (`subtitle_id`);--> statement-breakpoint
CREATE INDEX `translation_votes_container` ON `translation_votes` (`container_id`);--> statement-breakpoint
-- The shard's triggers (src/db/shard-triggers/, where each has its current definition).
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
--> statement-breakpoint
-- Why a trigger: contributions follow history rows removed (a cleanup, a move's source), and a row at zero goes.
CREATE TRIGGER subtitle_histories_contributions_delete AFTER DELETE ON subtitle_histories
WHEN OLD.kind IN ('segment', 'subtitle') BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment') * OLD.count, subtitles = subtitles - (OLD.kind = 'subtitle') * OLD.count,
    total = total - OLD.count
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id;
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
END;
--> statement-breakpoint
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
--> statement-breakpoint
-- Why a trigger: counts follow each subtitle inserted, in the
--   statement of the insert (imports write hundreds per statement, the move job too).
CREATE TRIGGER subtitles_language_counts_insert AFTER INSERT ON subtitles BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = NEW.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id
  WHERE v.video_id = NEW.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Why a trigger: counts follow each subtitle deleted, cascades included.
CREATE TRIGGER subtitles_language_counts_delete AFTER DELETE ON subtitles BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = OLD.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id
  WHERE v.video_id = OLD.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Why a trigger: counts follow a subtitle moved to another language or video.
CREATE TRIGGER subtitles_language_counts_update AFTER UPDATE OF language, video_id ON subtitles
WHEN OLD.language IS NOT NEW.language OR OLD.video_id IS NOT NEW.video_id BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = OLD.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id
  WHERE v.video_id = OLD.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = NEW.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id
  WHERE v.video_id = NEW.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Why a trigger: a video's subtitles leave the counts under its old
--   state and origin and enter them under the new, in the statement that brings the change to the shard.
CREATE TRIGGER video_facts_language_counts AFTER UPDATE OF state, origin_language ON video_facts
WHEN OLD.state IS NOT NEW.state OR OLD.origin_language IS NOT NEW.origin_language BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT c.container_id, s.language, -sum(s.language = coalesce(nullif(OLD.origin_language, ''), c.origin_language)),
    -sum(s.language <> coalesce(nullif(OLD.origin_language, ''), c.origin_language))
  FROM container_facts c CROSS JOIN subtitles s ON s.video_id = OLD.video_id
  WHERE c.container_id = OLD.container_id AND OLD.state = 'normal' GROUP BY s.language
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT s.language, -sum(s.language = coalesce(nullif(OLD.origin_language, ''), c.origin_language)),
    -sum(s.language <> coalesce(nullif(OLD.origin_language, ''), c.origin_language))
  FROM container_facts c CROSS JOIN subtitles s ON s.video_id = OLD.video_id
  WHERE c.container_id = OLD.container_id AND OLD.state = 'normal' AND c.state = 'normal' GROUP BY s.language
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT c.container_id, s.language, sum(s.language = coalesce(nullif(NEW.origin_language, ''), c.origin_language)),
    sum(s.language <> coalesce(nullif(NEW.origin_language, ''), c.origin_language))
  FROM container_facts c CROSS JOIN subtitles s ON s.video_id = NEW.video_id
  WHERE c.container_id = NEW.container_id AND NEW.state = 'normal' GROUP BY s.language
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT s.language, sum(s.language = coalesce(nullif(NEW.origin_language, ''), c.origin_language)),
    sum(s.language <> coalesce(nullif(NEW.origin_language, ''), c.origin_language))
  FROM container_facts c CROSS JOIN subtitles s ON s.video_id = NEW.video_id
  WHERE c.container_id = NEW.container_id AND NEW.state = 'normal' AND c.state = 'normal' GROUP BY s.language
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Why a trigger: hiding or showing a container moves its per-container
--   counts out of or into the shard's totals, in the statement that brings the change to the shard.
CREATE TRIGGER container_facts_language_counts_state AFTER UPDATE OF state ON container_facts
WHEN (OLD.state = 'normal') IS NOT (NEW.state = 'normal') BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.container_id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, originals, translations FROM container_language_counts WHERE container_id = NEW.container_id AND NEW.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Why a trigger: a container's origin changing recounts its videos, in the same statement as the change.
CREATE TRIGGER container_facts_language_counts_origin AFTER UPDATE OF origin_language ON container_facts
WHEN OLD.origin_language IS NOT NEW.origin_language BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.container_id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  DELETE FROM container_language_counts WHERE container_id = NEW.container_id;
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT NEW.container_id, s.language, sum(s.language = coalesce(nullif(v.origin_language, ''), NEW.origin_language)),
    sum(s.language <> coalesce(nullif(v.origin_language, ''), NEW.origin_language))
  FROM video_facts v CROSS JOIN subtitles s ON s.video_id = v.video_id
  WHERE v.container_id = NEW.container_id AND v.state = 'normal' GROUP BY s.language;
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, originals, translations FROM container_language_counts WHERE container_id = NEW.container_id AND NEW.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Why a trigger: fixes is_translation on insert when the writer set it
--   wrong, so the index is right at commit whoever writes (an import, an edit, the move job).
CREATE TRIGGER subtitles_translation_on_insert AFTER INSERT ON subtitles
WHEN NEW.is_translation IS NOT coalesce(NEW.language <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
                      FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = NEW.video_id), 0)
BEGIN
  UPDATE subtitles SET is_translation = NOT is_translation WHERE id = NEW.id;
END;
--> statement-breakpoint
-- Why a trigger: a subtitle moved to another language or video gets its flag recomputed in the same statement.
CREATE TRIGGER subtitles_translation_on_update AFTER UPDATE OF language, video_id ON subtitles
WHEN OLD.language <> NEW.language OR OLD.video_id <> NEW.video_id
BEGIN
  UPDATE subtitles SET is_translation = coalesce(NEW.language <> (
      SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
      FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = NEW.video_id), 0)
  WHERE id = NEW.id;
END;
--> statement-breakpoint
-- Why a trigger: a video's origin (its own or its container's) changing in
--   the catalogue reaches video_facts through the sync; its subtitles in the old and new origin flip in that statement.
CREATE TRIGGER video_facts_translation_origin AFTER UPDATE OF origin_language ON video_facts
WHEN coalesce(nullif(OLD.origin_language, ''), (SELECT origin_language FROM container_facts WHERE container_id = OLD.container_id))
  IS NOT coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM container_facts WHERE container_id = NEW.container_id))
BEGIN
  UPDATE subtitles
  SET is_translation = language <> coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM container_facts WHERE container_id = NEW.container_id))
  WHERE video_id = NEW.video_id AND language IN (
    coalesce(nullif(OLD.origin_language, ''), (SELECT origin_language FROM container_facts WHERE container_id = OLD.container_id)),
    coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM container_facts WHERE container_id = NEW.container_id)));
END;
--> statement-breakpoint
-- Why a trigger: a container's origin changing flips the flag of the
--   subtitles of its videos that inherit it, in the statement that brings the change to the shard.
CREATE TRIGGER container_facts_translation_origin AFTER UPDATE OF origin_language ON container_facts
WHEN OLD.origin_language <> NEW.origin_language
BEGIN
  UPDATE subtitles SET is_translation = language <> NEW.origin_language
  WHERE language IN (OLD.origin_language, NEW.origin_language)
    AND video_id IN (SELECT video_id FROM video_facts WHERE container_id = NEW.container_id AND origin_language = '');
END;
