-- v4 search (GET /v4/search.json; docs/decisions.md, "Search (v4)"; the triggers: src/db/triggers/search.sql).
--
-- One full-text row per container and one per video, its rowid the resource's id, holding every title of the
-- resource in every language: a match answers resource ids directly (no read of `titles`), and a resource with
-- titles in five languages is one candidate, not five. Contentless (content=''): the index keeps no copy of the
-- text, and contentless_delete=1 lets the triggers replace a resource's row by rowid alone. `prefix='1 2'` keeps
-- the autocomplete form (`c=`, the last word a prefix) from merging every term that starts with one or two letters.
-- The v3 index `titles_fts` (migration 0011) is left as it is: v3 search keeps reading it.
CREATE VIRTUAL TABLE `search_containers_fts` USING fts5(`titles`, content='', contentless_delete=1, prefix='1 2', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_videos_fts` USING fts5(`titles`, content='', contentless_delete=1, prefix='1 2', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `search_containers_fts` (`rowid`, `titles`)
SELECT `resource_id`, group_concat(`text`, char(10)) FROM `titles` WHERE `resource_kind` = 'c' GROUP BY `resource_id`;
--> statement-breakpoint
INSERT INTO `search_videos_fts` (`rowid`, `titles`)
SELECT `resource_id`, group_concat(`text`, char(10)) FROM `titles` WHERE `resource_kind` = 'v' GROUP BY `resource_id`;
--> statement-breakpoint
CREATE TRIGGER search_titles_on_insert AFTER INSERT ON titles WHEN NEW.resource_kind IN ('c', 'v') BEGIN
  DELETE FROM search_containers_fts WHERE NEW.resource_kind = 'c' AND rowid = NEW.resource_id;
  INSERT INTO search_containers_fts (rowid, titles)
    SELECT resource_id, group_concat(text, char(10)) FROM titles
    WHERE NEW.resource_kind = 'c' AND resource_kind = 'c' AND resource_id = NEW.resource_id GROUP BY resource_id;
  DELETE FROM search_videos_fts WHERE NEW.resource_kind = 'v' AND rowid = NEW.resource_id;
  INSERT INTO search_videos_fts (rowid, titles)
    SELECT resource_id, group_concat(text, char(10)) FROM titles
    WHERE NEW.resource_kind = 'v' AND resource_kind = 'v' AND resource_id = NEW.resource_id GROUP BY resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER search_titles_on_update AFTER UPDATE OF text ON titles WHEN NEW.resource_kind IN ('c', 'v') BEGIN
  DELETE FROM search_containers_fts WHERE NEW.resource_kind = 'c' AND rowid = NEW.resource_id;
  INSERT INTO search_containers_fts (rowid, titles)
    SELECT resource_id, group_concat(text, char(10)) FROM titles
    WHERE NEW.resource_kind = 'c' AND resource_kind = 'c' AND resource_id = NEW.resource_id GROUP BY resource_id;
  DELETE FROM search_videos_fts WHERE NEW.resource_kind = 'v' AND rowid = NEW.resource_id;
  INSERT INTO search_videos_fts (rowid, titles)
    SELECT resource_id, group_concat(text, char(10)) FROM titles
    WHERE NEW.resource_kind = 'v' AND resource_kind = 'v' AND resource_id = NEW.resource_id GROUP BY resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER search_titles_on_delete AFTER DELETE ON titles WHEN OLD.resource_kind IN ('c', 'v') BEGIN
  DELETE FROM search_containers_fts WHERE OLD.resource_kind = 'c' AND rowid = OLD.resource_id;
  INSERT INTO search_containers_fts (rowid, titles)
    SELECT resource_id, group_concat(text, char(10)) FROM titles
    WHERE OLD.resource_kind = 'c' AND resource_kind = 'c' AND resource_id = OLD.resource_id GROUP BY resource_id;
  DELETE FROM search_videos_fts WHERE OLD.resource_kind = 'v' AND rowid = OLD.resource_id;
  INSERT INTO search_videos_fts (rowid, titles)
    SELECT resource_id, group_concat(text, char(10)) FROM titles
    WHERE OLD.resource_kind = 'v' AND resource_kind = 'v' AND resource_id = OLD.resource_id GROUP BY resource_id;
END;
