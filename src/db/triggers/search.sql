-- v3 search: titles_fts is an external-content FTS5 index over container titles (content='titles'); SQLite
-- keeps such an index right only if every change to the content table is mirrored into it.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: a container title enters the search index in its own INSERT, whoever writes titles.
CREATE TRIGGER titles_fts_on_insert AFTER INSERT ON titles WHEN NEW.resource_kind = 'c' BEGIN
  INSERT INTO titles_fts (rowid, text) VALUES (NEW.rowid, NEW.text);
END;

-- Why a trigger: a container title leaves the search index with its row, including deletes by the cleanup triggers.
CREATE TRIGGER titles_fts_on_delete AFTER DELETE ON titles WHEN OLD.resource_kind = 'c' BEGIN
  INSERT INTO titles_fts (titles_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
END;

-- Why a trigger: a changed container title is re-indexed in the same statement, whoever changes it.
CREATE TRIGGER titles_fts_on_update AFTER UPDATE OF text ON titles WHEN NEW.resource_kind = 'c' BEGIN
  INSERT INTO titles_fts (titles_fts, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
  INSERT INTO titles_fts (rowid, text) VALUES (NEW.rowid, NEW.text);
END;
