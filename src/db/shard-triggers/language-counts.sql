-- language_counts (this shard's subtitles per language over visible videos, originals and translations) and
-- container_language_counts (the same per container over its normal videos, whatever the container's state), read by
-- the language lists and the completion job. Origins and states come from video_facts and container_facts, the
-- shard's copy of the catalogue's. Every trigger applies a signed delta with an upsert and compares the language with
-- the origin itself (never is_translation), so the order SQLite fires triggers in does not matter.
--
-- A video's or container's facts row is deleted only after its subtitles (the cleanup outbox and the move job delete
-- in that order), whose own triggers have taken them off the counts, so no delete trigger is needed on the facts.
--
-- The current definition of these triggers; a shard gets them from migrations-shard/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated shard and names any trigger missing, extra or different.

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
