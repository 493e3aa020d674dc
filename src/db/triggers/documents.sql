-- Derived documents: containers.doc and videos.doc (titles, descriptions, genres, completions, managers, video
-- counts, licensed regions as JSON) and containers.sort_title, so reading a container or video costs one row.
-- Sources bump doc_version (and facet_version, see facets.sql); the triggers on those columns rebuild once.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: keeps containers.doc equal to its sources; rebuilt in
--   the statement that bumped doc_version, whoever wrote the source.
CREATE TRIGGER containers_doc_rebuild AFTER UPDATE OF doc_version ON containers BEGIN
  UPDATE containers SET doc = json_object(
    'titles', json((SELECT json_group_object(language, text) FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.id)),
    'descriptions', json((SELECT json_group_object(language, text) FROM descriptions WHERE resource_kind = 'c' AND resource_id = NEW.id)),
    'genres', json((SELECT json_group_array(genre_id) FROM (SELECT genre_id FROM container_genres WHERE container_id = NEW.id ORDER BY genre_id))),
    'subtitle_completions', json((SELECT json_group_object(language, percent) FROM subtitle_completions WHERE resource_kind = 'c' AND resource_id = NEW.id)),
    'managers', json((SELECT json_group_array(json_object('id', u.id, 'username', u.username)) FROM container_managers m JOIN users u ON u.id = m.user_id WHERE m.container_id = NEW.id)),
    'video_counts', json((SELECT json_group_object(type, n) FROM (SELECT type, count(*) AS n FROM videos WHERE container_id = NEW.id AND state = 'normal' GROUP BY type))),
    'regions', json((SELECT json_group_array(region) FROM (SELECT DISTINCT region FROM licenses WHERE container_id = NEW.id ORDER BY region)))
  ) WHERE id = NEW.id;
END;

-- Why a trigger: a new container has its doc and facets in its
--   own INSERT, whether a route, an import or a seed inserted it.
CREATE TRIGGER containers_derive_on_insert AFTER INSERT ON containers BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE id = NEW.id;
END;

-- Why a trigger: keeps videos.doc equal to its sources; rebuilt in
--   the statement that bumped doc_version, whoever wrote the source.
CREATE TRIGGER videos_doc_rebuild AFTER UPDATE OF doc_version ON videos BEGIN
  UPDATE videos SET doc = json_object(
    'titles', json((SELECT json_group_object(language, text) FROM titles WHERE resource_kind = 'v' AND resource_id = NEW.id)),
    'descriptions', json((SELECT json_group_object(language, text) FROM descriptions WHERE resource_kind = 'v' AND resource_id = NEW.id)),
    'subtitle_completions', json((SELECT json_group_object(language, percent) FROM subtitle_completions WHERE resource_kind = 'v' AND resource_id = NEW.id))
  ) WHERE id = NEW.id;
END;

-- Why a trigger: a new video's doc, its container's video counts
--   and newest_video_at change with the INSERT, whoever inserts it.
CREATE TRIGGER videos_derive_on_insert AFTER INSERT ON videos BEGIN
  UPDATE videos SET doc_version = doc_version + 1 WHERE id = NEW.id;
  UPDATE containers SET doc_version = doc_version + 1,
    newest_video_at = max(coalesce(newest_video_at, 0), CASE WHEN NEW.state = 'normal' THEN NEW.created_at ELSE 0 END)
  WHERE id = NEW.container_id;
END;

-- Why a trigger: a video changing state, type or container recounts both containers' videos in the same statement.
CREATE TRIGGER videos_derive_on_update AFTER UPDATE OF state, type, container_id ON videos BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id IN (OLD.container_id, NEW.container_id);
END;

-- Why a trigger: a title bumps its container's or video's doc and
--   recomputes sort_title in the same statement, whoever writes titles.
CREATE TRIGGER titles_on_insert AFTER INSERT ON titles BEGIN
  UPDATE containers SET doc_version = doc_version + 1,
    sort_title = lower(coalesce((SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id AND language = 'en'),
                                (SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id ORDER BY language LIMIT 1), ''))
  WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;

-- Why a trigger: a title bumps its container's or video's doc and
--   recomputes sort_title in the same statement, whoever writes titles.
CREATE TRIGGER titles_on_update AFTER UPDATE ON titles BEGIN
  UPDATE containers SET doc_version = doc_version + 1,
    sort_title = lower(coalesce((SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id AND language = 'en'),
                                (SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id ORDER BY language LIMIT 1), ''))
  WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;

-- Why a trigger: a title bumps its container's or video's doc and recomputes
--   sort_title in the same statement, even when a cleanup trigger deletes it.
CREATE TRIGGER titles_on_delete AFTER DELETE ON titles BEGIN
  UPDATE containers SET doc_version = doc_version + 1,
    sort_title = lower(coalesce((SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = OLD.resource_id AND language = 'en'),
                                (SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = OLD.resource_id ORDER BY language LIMIT 1), ''))
  WHERE OLD.resource_kind = 'c' AND id = OLD.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'v' AND id = OLD.resource_id;
END;

-- Why a trigger: a description bumps its container's or video's doc in the same statement, whoever writes it.
CREATE TRIGGER descriptions_on_insert AFTER INSERT ON descriptions BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;

-- Why a trigger: a description bumps its container's or video's doc in the same statement, whoever writes it.
CREATE TRIGGER descriptions_on_update AFTER UPDATE ON descriptions BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;

-- Why a trigger: a description bumps its container's or video's doc
--   in the same statement, even when a cleanup trigger deletes it.
CREATE TRIGGER descriptions_on_delete AFTER DELETE ON descriptions BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'c' AND id = OLD.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'v' AND id = OLD.resource_id;
END;

-- Why a trigger: genres are in doc.genres and in the genre:<id>
--   facets; both follow a genre link in the same statement.
CREATE TRIGGER container_genres_on_insert AFTER INSERT ON container_genres BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE id = NEW.container_id;
END;

-- Why a trigger: genres are in doc.genres and in the genre:<id>
--   facets; both follow a genre unlink, cascades included.
CREATE TRIGGER container_genres_on_delete AFTER DELETE ON container_genres BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE id = OLD.container_id;
END;

-- Why a trigger: managers are in doc.managers; the doc follows a manager added in the same statement.
CREATE TRIGGER container_managers_on_insert AFTER INSERT ON container_managers BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = NEW.container_id;
END;

-- Why a trigger: managers are in doc.managers; the doc follows a manager removed, cascades included.
CREATE TRIGGER container_managers_on_delete AFTER DELETE ON container_managers BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = OLD.container_id;
END;

-- Why a trigger: completions are in the doc and in the sub:<lang>
--   facets; both follow the completion job's write in its statement.
CREATE TRIGGER completions_on_insert AFTER INSERT ON subtitle_completions BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;

-- Why a trigger: completions are in the doc and in the sub:<lang>
--   facets; only a changed percent rebuilds them, in the same statement.
CREATE TRIGGER completions_on_update AFTER UPDATE ON subtitle_completions WHEN OLD.percent <> NEW.percent BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;

-- Why a trigger: completions are in the doc and in the sub:<lang>
--   facets; both follow a deleted completion, cleanups included.
CREATE TRIGGER completions_on_delete AFTER DELETE ON subtitle_completions BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE OLD.resource_kind = 'c' AND id = OLD.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'v' AND id = OLD.resource_id;
END;

-- Why a trigger: licensed regions are in doc.regions; the doc follows a license added in the same statement.
CREATE TRIGGER licenses_on_insert AFTER INSERT ON licenses BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = NEW.container_id;
END;

-- Why a trigger: licensed regions are in doc.regions; the doc follows a license removed, cascades included.
CREATE TRIGGER licenses_on_delete AFTER DELETE ON licenses BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = OLD.container_id;
END;
