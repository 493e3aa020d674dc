-- Rows that point at "a container, a video or a list" (resource_kind, resource_id): no foreign key can name
-- such a parent, so these triggers are the cascade.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: a deleted container takes its titles, descriptions, completions,
--   list items, subscriptions and markers: the cascade no foreign key can give.
CREATE TRIGGER containers_cleanup AFTER DELETE ON containers BEGIN
  DELETE FROM titles WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM descriptions WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM subtitle_completions WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM list_items WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM subscriptions WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM markers WHERE resource_kind = 'c' AND resource_id = OLD.id;
END;

-- Why a trigger: a deleted video takes its polymorphic rows (the cascade
--   no foreign key can give) and recounts its container's videos.
CREATE TRIGGER videos_cleanup AFTER DELETE ON videos BEGIN
  DELETE FROM titles WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM descriptions WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM subtitle_completions WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM list_items WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM subscriptions WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM markers WHERE resource_kind = 'v' AND resource_id = OLD.id;
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = OLD.container_id;
END;

-- Why a trigger: a deleted list takes its titles and descriptions: the cascade no foreign key can give.
CREATE TRIGGER lists_cleanup AFTER DELETE ON lists BEGIN
  DELETE FROM titles WHERE resource_kind = 'l' AND resource_id = OLD.id;
  DELETE FROM descriptions WHERE resource_kind = 'l' AND resource_id = OLD.id;
END;
