-- subtitles.is_translation: 1 when the subtitle's language is not its video's origin language (else its
-- container's). No index can see that comparison, so the flag is kept here and the list of translations walks
-- the partial index subtitles_translations.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: fixes is_translation on insert only when the writer set
--   it wrong (the import sets it itself), so the index is right at commit.
CREATE TRIGGER subtitles_translation_on_insert AFTER INSERT ON subtitles
WHEN NEW.is_translation IS NOT coalesce(NEW.language <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
                      FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id), 0)
BEGIN
  UPDATE subtitles SET is_translation = NOT is_translation WHERE id = NEW.id;
END;

-- Why a trigger: a subtitle moved to another language or video gets its flag recomputed in the same statement.
CREATE TRIGGER subtitles_translation_on_update AFTER UPDATE OF language, video_id ON subtitles
WHEN OLD.language <> NEW.language OR OLD.video_id <> NEW.video_id
BEGIN
  UPDATE subtitles SET is_translation = coalesce(NEW.language <> (
      SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
      FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id), 0)
  WHERE id = NEW.id;
END;

-- Why a trigger: a video's origin (its own or its container's) changing
--   flips the flag of its subtitles in the old and new origin languages.
CREATE TRIGGER videos_translation_origin AFTER UPDATE OF origin_language, container_id ON videos
WHEN coalesce(nullif(OLD.origin_language, ''), (SELECT origin_language FROM containers WHERE id = OLD.container_id))
  IS NOT coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM containers WHERE id = NEW.container_id))
BEGIN
  UPDATE subtitles
  SET is_translation = language <> coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM containers WHERE id = NEW.container_id))
  WHERE video_id = NEW.id AND language IN (
    coalesce(nullif(OLD.origin_language, ''), (SELECT origin_language FROM containers WHERE id = OLD.container_id)),
    coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM containers WHERE id = NEW.container_id)));
END;

-- Why a trigger: a container's origin changing flips the flag of the
--   subtitles of its videos that inherit it, in the same statement.
CREATE TRIGGER containers_translation_origin AFTER UPDATE OF origin_language ON containers
WHEN OLD.origin_language <> NEW.origin_language
BEGIN
  UPDATE subtitles SET is_translation = language <> NEW.origin_language
  WHERE language IN (OLD.origin_language, NEW.origin_language)
    AND video_id IN (SELECT id FROM videos WHERE container_id = NEW.id AND origin_language = '');
END;
