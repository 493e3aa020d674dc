-- Title search. v3: titles_fts is an external-content FTS5 index over container titles (content='titles'); SQLite
-- keeps such an index right only if every change to the content table is mirrored into it. v4 (migration 0025):
-- search_containers_fts and search_videos_fts hold one contentless row per container or video, its rowid the
-- resource's id and its text every title of the resource in its index form (migration 0041: `search_text`, else the
-- text; docs/decisions.md, "Search (v4)"); each title write rebuilds its resource's row.
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

-- Why a trigger: a container's or video's new title is searchable in its own INSERT, whoever writes titles.
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

-- Why a trigger: a changed title (or its index form, filled later for titles written before migration 0041)
-- re-indexes its container or video in the same statement, whoever changes it.
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

-- Why a trigger: a deleted title leaves the index with its row, including deletes by the cleanup triggers; a
-- resource whose last title goes leaves the index altogether.
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

-- Why a trigger: `search_text` is computed in the Worker (SQL cannot set characters apart); a writer that changes the
-- text and keeps the old index form would leave the title findable by words it no longer has, so it is refused.
CREATE TRIGGER titles_search_text_kept BEFORE UPDATE OF text ON titles
WHEN NEW.text IS NOT OLD.text AND OLD.search_text IS NOT NULL AND NEW.search_text IS OLD.search_text BEGIN
  SELECT RAISE(ABORT, 'titles.search_text must be written with the text');
END;
