-- The subtitle search index on a shard (docs/decisions.md, "Subtitle search"): `subtitle_search`, a contentless FTS5
-- table whose rowid is the subtitle's id, its `body` the subtitle's text as the index reads it (`search_text`, else
-- the text itself) and its `scope` the tokens a search is narrowed by: `c<container>`, `v<video>` and `l<language>`
-- (the language lower-cased without hyphens, so `zh-TW` is one token, `lzhtw`).
--
-- The current definition of these triggers; a shard gets them from migrations-shard/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated shard and names any trigger missing, extra or different.

-- Why a trigger: a line is searchable in the statement that writes it, whoever writes (an import, an edit, a
--   restore, the move job), so a search never misses a committed line nor shows one rolled back.
CREATE TRIGGER subtitle_search_insert AFTER INSERT ON subtitles BEGIN
  INSERT INTO subtitle_search (rowid, body, scope)
  VALUES (NEW.id, coalesce(NEW.search_text, NEW.text),
    'c' || NEW.container_id || ' v' || NEW.video_id || ' l' || replace(lower(NEW.language), '-', ''));
END;

-- Why a trigger: a replaced line stops matching its old words in the statement that replaces it.
CREATE TRIGGER subtitle_search_update AFTER UPDATE OF text, search_text, language, container_id, video_id ON subtitles BEGIN
  DELETE FROM subtitle_search WHERE rowid = OLD.id;
  INSERT INTO subtitle_search (rowid, body, scope)
  VALUES (NEW.id, coalesce(NEW.search_text, NEW.text),
    'c' || NEW.container_id || ' v' || NEW.video_id || ' l' || replace(lower(NEW.language), '-', ''));
END;

-- Why a trigger: a deleted line (a deleted language, a restore, a deleted video's cleanup, a move's source) leaves
--   the index with it.
CREATE TRIGGER subtitle_search_delete AFTER DELETE ON subtitles BEGIN
  DELETE FROM subtitle_search WHERE rowid = OLD.id;
END;

-- Why a trigger: `search_text` is computed in the Worker (SQL cannot set characters apart); a writer that changes the
--   text and keeps an old index form would leave the line findable by words it no longer has, so it is refused.
CREATE TRIGGER subtitles_search_text_kept BEFORE UPDATE OF text ON subtitles
WHEN NEW.text IS NOT OLD.text AND OLD.search_text IS NOT NULL AND NEW.search_text IS OLD.search_text BEGIN
  SELECT RAISE(ABORT, 'subtitles.search_text must be written with the text');
END;
