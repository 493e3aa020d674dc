-- language_counts (subtitles per language over visible videos, originals and translations) and
-- container_language_counts (the same per container, whatever its state), read whole by the language lists.
-- Every trigger applies a signed delta with an upsert and compares the language with the origin itself (never
-- is_translation), so the order SQLite fires triggers in does not matter.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: counts follow each subtitle inserted, in the
--   statement of the insert (imports write thousands per batch).
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

-- Why a trigger: counts follow each subtitle deleted, cascades included.
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

-- Why a trigger: counts follow a subtitle moved to another language or video.
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

-- Why a trigger: a video's subtitles leave the counts under its old
--   state, origin and container and come back under the new ones.
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

-- Why a trigger: BEFORE DELETE: the video's subtitles are counted off
--   while they still exist; the cascade then finds no visible video.
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

-- Why a trigger: hiding or showing a container moves its per-container
--   rows in or out of language_counts, never its subtitles.
CREATE TRIGGER containers_language_counts_state AFTER UPDATE OF state ON containers
WHEN (OLD.state = 'normal') IS NOT (NEW.state = 'normal') BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, originals, translations FROM container_language_counts WHERE container_id = NEW.id AND NEW.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
END;

-- Why a trigger: a container's origin changing recounts its videos, in the same statement as the change.
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

-- Why a trigger: BEFORE DELETE: the container's rows come off before the cascade reaches its videos and subtitles.
CREATE TRIGGER containers_language_counts_delete BEFORE DELETE ON containers BEGIN
  INSERT INTO language_counts (language, originals, translations)
  SELECT language, -originals, -translations FROM container_language_counts WHERE container_id = OLD.id AND OLD.state = 'normal'
  ON CONFLICT (language) DO UPDATE SET originals = originals + excluded.originals, translations = translations + excluded.translations;
  DELETE FROM container_language_counts WHERE container_id = OLD.id;
END;
