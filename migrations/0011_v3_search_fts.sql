-- v3 search: a full-text index over every container title in every language, kept in step with `titles`
-- by triggers. External content (content='titles'): the index keeps no second copy of the text; matches
-- join back to `titles` by rowid. Video and list titles are not searched, so they are not indexed.
CREATE VIRTUAL TABLE `titles_fts` USING fts5(`text`, content='titles', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `titles_fts` (`rowid`, `text`) SELECT `rowid`, `text` FROM `titles` WHERE `resource_kind` = 'c';
--> statement-breakpoint
CREATE TRIGGER titles_fts_on_insert AFTER INSERT ON titles WHEN NEW.resource_kind = 'c' BEGIN
  INSERT INTO titles_fts (rowid, text) VALUES (NEW.rowid, NEW.text);
END;
--> statement-breakpoint
CREATE TRIGGER titles_fts_on_delete AFTER DELETE ON titles WHEN OLD.resource_kind = 'c' BEGIN
  INSERT INTO titles_fts (titles_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
END;
--> statement-breakpoint
CREATE TRIGGER titles_fts_on_update AFTER UPDATE OF text ON titles WHEN NEW.resource_kind = 'c' BEGIN
  INSERT INTO titles_fts (titles_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
  INSERT INTO titles_fts (rowid, text) VALUES (NEW.rowid, NEW.text);
END;
