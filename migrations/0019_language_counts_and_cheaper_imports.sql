-- Language counts kept by triggers, and cheaper imports (docs/decisions.md, "Translations and captions"; the triggers, on the shards since migration 0039 dropped these: src/db/shard-triggers/language-counts.sql).
--
-- language_counts: subtitles per language over visible videos (the video and its container in the normal state),
-- split into originals (the video's origin language, else its container's) and translations. The two language
-- lists read it whole (a few dozen rows) instead of grouping every subtitle (about 394,000 rows per rebuild).
-- container_language_counts holds the same per container over its normal videos, whatever the container's state,
-- so hiding or showing a container moves a few rows instead of reading all its subtitles.
-- Every change arrives as a delta upsert, so each trigger is one statement whatever the order SQLite fires them
-- in. The counts never read subtitles.is_translation: they compare the language with the origin themselves, so
-- the triggers of migration 0015 that fix the flag after the fact need no coordination with these.
-- Deletes: a container's BEFORE DELETE takes its rows off; by the time the cascade reaches its videos and their
-- subtitles the container row is gone, so those find nothing to join and take nothing twice.
CREATE TABLE `container_language_counts` (
	`container_id` integer NOT NULL,
	`language` text NOT NULL,
	`originals` integer DEFAULT 0 NOT NULL,
	`translations` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`container_id`, `language`)
);
--> statement-breakpoint
CREATE TABLE `language_counts` (
	`language` text PRIMARY KEY NOT NULL,
	`originals` integer DEFAULT 0 NOT NULL,
	`translations` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO container_language_counts (container_id, language, originals, translations)
SELECT v.container_id, g.language,
  sum(CASE WHEN g.language = coalesce(nullif(v.origin_language, ''), c.origin_language) THEN g.n ELSE 0 END),
  sum(CASE WHEN g.language = coalesce(nullif(v.origin_language, ''), c.origin_language) THEN 0 ELSE g.n END)
FROM (SELECT language, video_id, count(*) AS n FROM subtitles GROUP BY language, video_id) g
CROSS JOIN videos v ON v.id = g.video_id
CROSS JOIN containers c ON c.id = v.container_id
WHERE v.state = 'normal'
GROUP BY v.container_id, g.language;
--> statement-breakpoint
INSERT INTO language_counts (language, originals, translations)
SELECT l.language, sum(l.originals), sum(l.translations)
FROM container_language_counts l JOIN containers c ON c.id = l.container_id WHERE c.state = 'normal'
GROUP BY l.language;
--> statement-breakpoint
CREATE TRIGGER subtitles_language_counts_insert AFTER INSERT ON subtitles BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
CREATE TRIGGER subtitles_language_counts_delete AFTER DELETE ON subtitles BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = OLD.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = OLD.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
CREATE TRIGGER subtitles_language_counts_update AFTER UPDATE OF language, video_id ON subtitles
WHEN OLD.language IS NOT NEW.language OR OLD.video_id IS NOT NEW.video_id BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = OLD.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT OLD.language, -(OLD.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    -(OLD.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = OLD.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT v.container_id, NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id AND v.state = 'normal'
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT NEW.language, (NEW.language = coalesce(nullif(v.origin_language, ''), c.origin_language)),
    (NEW.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))
  FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id AND v.state = 'normal' AND c.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- A video's subtitles leave the counts under its old state, container and origin and come back under the new
-- ones (one grouped read of subtitles_video_language each way); every other video update skips this.
CREATE TRIGGER videos_language_counts AFTER UPDATE OF state, origin_language, container_id ON videos
WHEN OLD.state IS NOT NEW.state OR OLD.origin_language IS NOT NEW.origin_language OR OLD.container_id IS NOT NEW.container_id BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT c.id, s.language, -sum(s.language = coalesce(nullif(OLD.origin_language, ''), c.origin_language)),
    -sum(s.language <> coalesce(nullif(OLD.origin_language, ''), c.origin_language))
  FROM containers c CROSS JOIN subtitles s ON s.video_id = OLD.id
  WHERE c.id = OLD.container_id AND OLD.state = 'normal' GROUP BY s.language
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT s.language, -sum(s.language = coalesce(nullif(OLD.origin_language, ''), c.origin_language)),
    -sum(s.language <> coalesce(nullif(OLD.origin_language, ''), c.origin_language))
  FROM containers c CROSS JOIN subtitles s ON s.video_id = OLD.id
  WHERE c.id = OLD.container_id AND OLD.state = 'normal' AND c.state = 'normal' GROUP BY s.language
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT c.id, s.language, sum(s.language = coalesce(nullif(NEW.origin_language, ''), c.origin_language)),
    sum(s.language <> coalesce(nullif(NEW.origin_language, ''), c.origin_language))
  FROM containers c CROSS JOIN subtitles s ON s.video_id = NEW.id
  WHERE c.id = NEW.container_id AND NEW.state = 'normal' GROUP BY s.language
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT s.language, sum(s.language = coalesce(nullif(NEW.origin_language, ''), c.origin_language)),
    sum(s.language <> coalesce(nullif(NEW.origin_language, ''), c.origin_language))
  FROM containers c CROSS JOIN subtitles s ON s.video_id = NEW.id
  WHERE c.id = NEW.container_id AND NEW.state = 'normal' AND c.state = 'normal' GROUP BY s.language
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
CREATE TRIGGER videos_language_counts_delete BEFORE DELETE ON videos BEGIN
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT c.id, s.language, -sum(s.language = coalesce(nullif(OLD.origin_language, ''), c.origin_language)),
    -sum(s.language <> coalesce(nullif(OLD.origin_language, ''), c.origin_language))
  FROM containers c CROSS JOIN subtitles s ON s.video_id = OLD.id
  WHERE c.id = OLD.container_id AND OLD.state = 'normal' GROUP BY s.language
  ON CONFLICT (container_id, language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT s.language, -sum(s.language = coalesce(nullif(OLD.origin_language, ''), c.origin_language)),
    -sum(s.language <> coalesce(nullif(OLD.origin_language, ''), c.origin_language))
  FROM containers c CROSS JOIN subtitles s ON s.video_id = OLD.id
  WHERE c.id = OLD.container_id AND OLD.state = 'normal' AND c.state = 'normal' GROUP BY s.language
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
-- Hiding or showing a container (the first step of deleting a large one) moves its per-container rows, a few per
-- language, never its subtitles. An origin change (rare) recounts the container's videos, as migration 0015 does.
CREATE TRIGGER containers_language_counts_state AFTER UPDATE OF state ON containers
WHEN (OLD.state = 'normal') IS NOT (NEW.state = 'normal') BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, originals, translations FROM container_language_counts WHERE container_id = NEW.id AND NEW.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
CREATE TRIGGER containers_language_counts_origin AFTER UPDATE OF origin_language ON containers
WHEN OLD.origin_language IS NOT NEW.origin_language BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  DELETE FROM container_language_counts WHERE container_id = NEW.id;
  INSERT INTO container_language_counts (container_id, language, originals, translations)
  SELECT NEW.id, s.language, sum(s.language = coalesce(nullif(v.origin_language, ''), NEW.origin_language)),
    sum(s.language <> coalesce(nullif(v.origin_language, ''), NEW.origin_language))
  FROM videos v CROSS JOIN subtitles s ON s.video_id = v.id
  WHERE v.container_id = NEW.id AND v.state = 'normal' GROUP BY s.language;
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, originals, translations FROM container_language_counts WHERE container_id = NEW.id AND NEW.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;
--> statement-breakpoint
CREATE TRIGGER containers_language_counts_delete BEFORE DELETE ON containers BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  DELETE FROM container_language_counts WHERE container_id = OLD.id;
END;
--> statement-breakpoint
-- A writer that sets is_translation itself (the SRT import) no longer pays a second write of every row: the
-- flag is fixed only when it is wrong.
DROP TRIGGER subtitles_translation_on_insert;
--> statement-breakpoint
CREATE TRIGGER subtitles_translation_on_insert AFTER INSERT ON subtitles
WHEN NEW.is_translation IS NOT coalesce(NEW.language <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
                      FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id), 0)
BEGIN
  UPDATE subtitles SET is_translation = NOT is_translation WHERE id = NEW.id;
END;
--> statement-breakpoint
-- Part 4: an import writes one history row per kind and chunk standing for `count` changes (segments created,
-- texts created, texts replaced), instead of two rows per cue with six index entries and a contributions
-- update each. Contributions add `count`, so they still follow the history rows, whoever writes them.
ALTER TABLE `subtitle_histories` ADD `count` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
DROP TRIGGER subtitle_histories_contributions_insert;
--> statement-breakpoint
DROP TRIGGER subtitle_histories_contributions_delete;
--> statement-breakpoint
DROP TRIGGER subtitle_histories_contributions_update;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_contributions_insert AFTER INSERT ON subtitle_histories
WHEN NEW.kind IN ('segment', 'subtitle') BEGIN
  INSERT INTO contributions (container_id, user_id, segments, subtitles, total)
  VALUES (NEW.container_id, NEW.user_id, (NEW.kind = 'segment') * NEW.count, (NEW.kind = 'subtitle') * NEW.count, NEW.count)
  ON CONFLICT (container_id, user_id) DO UPDATE SET
    segments = segments + excluded.segments, subtitles = subtitles + excluded.subtitles, total = total + excluded.total;
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_contributions_delete AFTER DELETE ON subtitle_histories
WHEN OLD.kind IN ('segment', 'subtitle') BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment') * OLD.count, subtitles = subtitles - (OLD.kind = 'subtitle') * OLD.count,
    total = total - OLD.count
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id;
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_contributions_update AFTER UPDATE OF kind, user_id, container_id, count ON subtitle_histories
WHEN OLD.kind IS NOT NEW.kind OR OLD.user_id IS NOT NEW.user_id OR OLD.container_id IS NOT NEW.container_id OR OLD.count IS NOT NEW.count BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment') * OLD.count, subtitles = subtitles - (OLD.kind = 'subtitle') * OLD.count,
    total = total - OLD.count
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND OLD.kind IN ('segment', 'subtitle');
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
  INSERT INTO contributions (container_id, user_id, segments, subtitles, total)
  SELECT NEW.container_id, NEW.user_id, (NEW.kind = 'segment') * NEW.count, (NEW.kind = 'subtitle') * NEW.count, NEW.count
  WHERE NEW.kind IN ('segment', 'subtitle')
  ON CONFLICT (container_id, user_id) DO UPDATE SET
    segments = segments + excluded.segments, subtitles = subtitles + excluded.subtitles, total = total + excluded.total;
END;
