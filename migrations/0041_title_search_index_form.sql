-- v4 title search reads each title's index form (docs/decisions.md, "Search (v4)"; the triggers:
-- src/db/triggers/search.sql). `titles.search_text` (migration 0040) is `indexForm(text)` of src/domain/search-text.ts,
-- null when that is the text itself; the index rows are built from `coalesce(search_text, text)`, so a Chinese,
-- Japanese or Korean title holds one token per character and a run in a query finds any substring of it.
--
-- The tables of migration 0025 stay: they already tokenize with `unicode61 remove_diacritics 2`, the tokenizer the
-- index form is made for. No row changes here: every search_text is null until written, so each index row already
-- equals what these triggers would build. Titles written before this migration get their form from
-- `npm run admin -- search index-titles` (docs/operations.md, "Title search index form"), whose updates these
-- triggers index. v3's titles_fts and its triggers are left as they are.
DROP TRIGGER search_titles_on_insert;
--> statement-breakpoint
DROP TRIGGER search_titles_on_update;
--> statement-breakpoint
DROP TRIGGER search_titles_on_delete;
--> statement-breakpoint
CREATE TRIGGER search_titles_on_insert AFTER INSERT ON titles WHEN NEW.resource_kind IN ('c', 'v') BEGIN
  DELETE FROM search_containers_fts WHERE NEW.resource_kind = 'c' AND rowid = NEW.resource_id;
  INSERT INTO search_containers_fts (rowid, titles)
    SELECT resource_id, group_concat(coalesce(search_text, text), char(10)) FROM titles
    WHERE NEW.resource_kind = 'c' AND resource_kind = 'c' AND resource_id = NEW.resource_id GROUP BY resource_id;
  DELETE FROM search_videos_fts WHERE NEW.resource_kind = 'v' AND rowid = NEW.resource_id;
  INSERT INTO search_videos_fts (rowid, titles)
    SELECT resource_id, group_concat(coalesce(search_text, text), char(10)) FROM titles
    WHERE NEW.resource_kind = 'v' AND resource_kind = 'v' AND resource_id = NEW.resource_id GROUP BY resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER search_titles_on_update AFTER UPDATE OF text, search_text ON titles WHEN NEW.resource_kind IN ('c', 'v') BEGIN
  DELETE FROM search_containers_fts WHERE NEW.resource_kind = 'c' AND rowid = NEW.resource_id;
  INSERT INTO search_containers_fts (rowid, titles)
    SELECT resource_id, group_concat(coalesce(search_text, text), char(10)) FROM titles
    WHERE NEW.resource_kind = 'c' AND resource_kind = 'c' AND resource_id = NEW.resource_id GROUP BY resource_id;
  DELETE FROM search_videos_fts WHERE NEW.resource_kind = 'v' AND rowid = NEW.resource_id;
  INSERT INTO search_videos_fts (rowid, titles)
    SELECT resource_id, group_concat(coalesce(search_text, text), char(10)) FROM titles
    WHERE NEW.resource_kind = 'v' AND resource_kind = 'v' AND resource_id = NEW.resource_id GROUP BY resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER search_titles_on_delete AFTER DELETE ON titles WHEN OLD.resource_kind IN ('c', 'v') BEGIN
  DELETE FROM search_containers_fts WHERE OLD.resource_kind = 'c' AND rowid = OLD.resource_id;
  INSERT INTO search_containers_fts (rowid, titles)
    SELECT resource_id, group_concat(coalesce(search_text, text), char(10)) FROM titles
    WHERE OLD.resource_kind = 'c' AND resource_kind = 'c' AND resource_id = OLD.resource_id GROUP BY resource_id;
  DELETE FROM search_videos_fts WHERE OLD.resource_kind = 'v' AND rowid = OLD.resource_id;
  INSERT INTO search_videos_fts (rowid, titles)
    SELECT resource_id, group_concat(coalesce(search_text, text), char(10)) FROM titles
    WHERE OLD.resource_kind = 'v' AND resource_kind = 'v' AND resource_id = OLD.resource_id GROUP BY resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER titles_search_text_kept BEFORE UPDATE OF text ON titles
WHEN NEW.text IS NOT OLD.text AND OLD.search_text IS NOT NULL AND NEW.search_text IS OLD.search_text BEGIN
  SELECT RAISE(ABORT, 'titles.search_text must be written with the text');
END;
