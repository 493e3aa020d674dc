-- subtitles.is_translation on a shard: 1 when the subtitle's language is not its video's origin language (else its
-- container's), read from video_facts and container_facts, the shard's copy of what the catalogue says of them. The
-- newest-translations walk reads the partial index subtitles_translations, which no comparison could use.
--
-- The current definition of these triggers; a shard gets them from migrations-shard/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated shard and names any trigger missing, extra or different.

-- Why a trigger: fixes is_translation on insert when the writer set it
--   wrong, so the index is right at commit whoever writes (an import, an edit, the move job).
CREATE TRIGGER subtitles_translation_on_insert AFTER INSERT ON subtitles
WHEN NEW.is_translation IS NOT coalesce(NEW.language <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
                      FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = NEW.video_id), 0)
BEGIN
  UPDATE subtitles SET is_translation = NOT is_translation WHERE id = NEW.id;
END;

-- Why a trigger: a subtitle moved to another language or video gets its flag recomputed in the same statement.
CREATE TRIGGER subtitles_translation_on_update AFTER UPDATE OF language, video_id ON subtitles
WHEN OLD.language <> NEW.language OR OLD.video_id <> NEW.video_id
BEGIN
  UPDATE subtitles SET is_translation = coalesce(NEW.language <> (
      SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
      FROM video_facts v JOIN container_facts c ON c.container_id = v.container_id WHERE v.video_id = NEW.video_id), 0)
  WHERE id = NEW.id;
END;

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

-- Why a trigger: a container's origin changing flips the flag of the
--   subtitles of its videos that inherit it, in the statement that brings the change to the shard.
CREATE TRIGGER container_facts_translation_origin AFTER UPDATE OF origin_language ON container_facts
WHEN OLD.origin_language <> NEW.origin_language
BEGIN
  UPDATE subtitles SET is_translation = language <> NEW.origin_language
  WHERE language IN (OLD.origin_language, NEW.origin_language)
    AND video_id IN (SELECT video_id FROM video_facts WHERE container_id = NEW.container_id AND origin_language = '');
END;
