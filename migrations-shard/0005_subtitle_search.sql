-- The subtitle search index (docs/decisions.md, "Subtitle search"): a contentless FTS5 table kept by triggers on
-- subtitles (src/db/shard-triggers/subtitle-search.sql). Lines written before this migration are indexed by the
-- continuing job subtitle-search-index on each shard (docs/operations.md, "Subtitle search index").
CREATE VIRTUAL TABLE subtitle_search USING fts5(body, scope, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
--> statement-breakpoint
-- Why a trigger: a line is searchable in the statement that writes it, whoever writes (an import, an edit, a
--   restore, the move job), so a search never misses a committed line nor shows one rolled back.
CREATE TRIGGER subtitle_search_insert AFTER INSERT ON subtitles BEGIN
  INSERT INTO subtitle_search (rowid, body, scope)
  VALUES (NEW.id, coalesce(NEW.search_text, NEW.text),
    'c' || NEW.container_id || ' v' || NEW.video_id || ' l' || replace(lower(NEW.language), '-', ''));
END;
--> statement-breakpoint
-- Why a trigger: a replaced line stops matching its old words in the statement that replaces it.
CREATE TRIGGER subtitle_search_update AFTER UPDATE OF text, search_text, language, container_id, video_id ON subtitles BEGIN
  DELETE FROM subtitle_search WHERE rowid = OLD.id;
  INSERT INTO subtitle_search (rowid, body, scope)
  VALUES (NEW.id, coalesce(NEW.search_text, NEW.text),
    'c' || NEW.container_id || ' v' || NEW.video_id || ' l' || replace(lower(NEW.language), '-', ''));
END;
--> statement-breakpoint
-- Why a trigger: a deleted line (a deleted language, a restore, a deleted video's cleanup, a move's source) leaves
--   the index with it.
CREATE TRIGGER subtitle_search_delete AFTER DELETE ON subtitles BEGIN
  DELETE FROM subtitle_search WHERE rowid = OLD.id;
END;
--> statement-breakpoint
-- Why a trigger: `search_text` is computed in the Worker (SQL cannot set characters apart); a writer that changes the
--   text and keeps an old index form would leave the line findable by words it no longer has, so it is refused.
CREATE TRIGGER subtitles_search_text_kept BEFORE UPDATE OF text ON subtitles
WHEN NEW.text IS NOT OLD.text AND OLD.search_text IS NOT NULL AND NEW.search_text IS OLD.search_text BEGIN
  SELECT RAISE(ABORT, 'subtitles.search_text must be written with the text');
END;
