-- Derived catalogue data, kept in step by triggers so every writer (routes, queue consumers, seeds,
-- operators with `wrangler d1 execute`) leaves it right:
--   containers.doc / videos.doc  titles, descriptions, genres, completions, managers, video counts and
--                                licensed regions as JSON,
--                                so reading a container or video costs one row;
--   container_facets             one row per (facet, listable container) with the sort keys, so a filtered,
--                                sorted page is one index range scan;
--   containers.sort_title        lower-cased English title (else the first title), for sort=title.
-- Sources bump containers.doc_version / facet_version or videos.doc_version; the triggers on those
-- columns do the rebuild, so each rebuild is written once. (Trigger bodies cannot use WITH clauses, and D1
-- caps compound SELECTs, hence json_each over an array of candidate facets.)
-- The listing threshold for subtitle_completion (facet `sub:<lang>`) is 50 percent.

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
--> statement-breakpoint
CREATE TRIGGER containers_facets_rebuild AFTER UPDATE OF facet_version, type, origin_country, hosted, licensed, adult, state, views, views_recent, trending, average_rating, release_date, air_time, newest_video_at, sort_title ON containers BEGIN
  DELETE FROM container_facets WHERE container_id = NEW.id;
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title)
  SELECT f.value, NEW.id, NEW.views, NEW.views_recent, NEW.trending, coalesce(NEW.newest_video_at, 0), NEW.average_rating,
         coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title
  FROM json_each(json_array(
    'all',
    'type:' || NEW.type,
    CASE WHEN NEW.hosted AND NEW.licensed THEN 'public' END,
    CASE WHEN NOT NEW.hosted THEN 'unhosted' END,
    CASE WHEN NOT NEW.licensed THEN 'unlicensed' END,
    CASE WHEN NOT NEW.adult THEN 'family' END,
    CASE WHEN NEW.origin_country <> '' THEN 'country:' || NEW.origin_country END
  )) f
  WHERE f.value IS NOT NULL AND NEW.state = 'normal';
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title)
  SELECT 'genre:' || g.genre_id, NEW.id, NEW.views, NEW.views_recent, NEW.trending, coalesce(NEW.newest_video_at, 0), NEW.average_rating,
         coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title
  FROM container_genres g WHERE g.container_id = NEW.id AND NEW.state = 'normal';
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title)
  SELECT 'sub:' || sc.language, NEW.id, NEW.views, NEW.views_recent, NEW.trending, coalesce(NEW.newest_video_at, 0), NEW.average_rating,
         coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title
  FROM subtitle_completions sc
  WHERE sc.resource_kind = 'c' AND sc.resource_id = NEW.id AND sc.percent >= 50 AND NEW.state = 'normal';
END;
--> statement-breakpoint
CREATE TRIGGER containers_derive_on_insert AFTER INSERT ON containers BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE id = NEW.id;
END;
--> statement-breakpoint
-- Polymorphic rows (no foreign key can point at "container or video") go with their resource.
CREATE TRIGGER containers_cleanup AFTER DELETE ON containers BEGIN
  DELETE FROM titles WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM descriptions WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM subtitle_completions WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM list_items WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM subscriptions WHERE resource_kind = 'c' AND resource_id = OLD.id;
  DELETE FROM markers WHERE resource_kind = 'c' AND resource_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER videos_doc_rebuild AFTER UPDATE OF doc_version ON videos BEGIN
  UPDATE videos SET doc = json_object(
    'titles', json((SELECT json_group_object(language, text) FROM titles WHERE resource_kind = 'v' AND resource_id = NEW.id)),
    'descriptions', json((SELECT json_group_object(language, text) FROM descriptions WHERE resource_kind = 'v' AND resource_id = NEW.id)),
    'subtitle_completions', json((SELECT json_group_object(language, percent) FROM subtitle_completions WHERE resource_kind = 'v' AND resource_id = NEW.id))
  ) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER videos_derive_on_insert AFTER INSERT ON videos BEGIN
  UPDATE videos SET doc_version = doc_version + 1 WHERE id = NEW.id;
  UPDATE containers SET doc_version = doc_version + 1,
    newest_video_at = max(coalesce(newest_video_at, 0), CASE WHEN NEW.state = 'normal' THEN NEW.created_at ELSE 0 END)
  WHERE id = NEW.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER videos_derive_on_update AFTER UPDATE OF state, type, container_id ON videos BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id IN (OLD.container_id, NEW.container_id);
END;
--> statement-breakpoint
CREATE TRIGGER videos_cleanup AFTER DELETE ON videos BEGIN
  DELETE FROM titles WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM descriptions WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM subtitle_completions WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM list_items WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM subscriptions WHERE resource_kind = 'v' AND resource_id = OLD.id;
  DELETE FROM markers WHERE resource_kind = 'v' AND resource_id = OLD.id;
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = OLD.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER lists_cleanup AFTER DELETE ON lists BEGIN
  DELETE FROM titles WHERE resource_kind = 'l' AND resource_id = OLD.id;
  DELETE FROM descriptions WHERE resource_kind = 'l' AND resource_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER titles_on_insert AFTER INSERT ON titles BEGIN
  UPDATE containers SET doc_version = doc_version + 1,
    sort_title = lower(coalesce((SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id AND language = 'en'),
                                (SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id ORDER BY language LIMIT 1), ''))
  WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER titles_on_update AFTER UPDATE ON titles BEGIN
  UPDATE containers SET doc_version = doc_version + 1,
    sort_title = lower(coalesce((SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id AND language = 'en'),
                                (SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = NEW.resource_id ORDER BY language LIMIT 1), ''))
  WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER titles_on_delete AFTER DELETE ON titles BEGIN
  UPDATE containers SET doc_version = doc_version + 1,
    sort_title = lower(coalesce((SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = OLD.resource_id AND language = 'en'),
                                (SELECT text FROM titles WHERE resource_kind = 'c' AND resource_id = OLD.resource_id ORDER BY language LIMIT 1), ''))
  WHERE OLD.resource_kind = 'c' AND id = OLD.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'v' AND id = OLD.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER descriptions_on_insert AFTER INSERT ON descriptions BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER descriptions_on_update AFTER UPDATE ON descriptions BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER descriptions_on_delete AFTER DELETE ON descriptions BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'c' AND id = OLD.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'v' AND id = OLD.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER container_genres_on_insert AFTER INSERT ON container_genres BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE id = NEW.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER container_genres_on_delete AFTER DELETE ON container_genres BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE id = OLD.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER container_managers_on_insert AFTER INSERT ON container_managers BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = NEW.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER container_managers_on_delete AFTER DELETE ON container_managers BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = OLD.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER completions_on_insert AFTER INSERT ON subtitle_completions BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER completions_on_update AFTER UPDATE ON subtitle_completions WHEN OLD.percent <> NEW.percent BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE NEW.resource_kind = 'c' AND id = NEW.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE NEW.resource_kind = 'v' AND id = NEW.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER completions_on_delete AFTER DELETE ON subtitle_completions BEGIN
  UPDATE containers SET doc_version = doc_version + 1, facet_version = facet_version + 1 WHERE OLD.resource_kind = 'c' AND id = OLD.resource_id;
  UPDATE videos SET doc_version = doc_version + 1 WHERE OLD.resource_kind = 'v' AND id = OLD.resource_id;
END;
--> statement-breakpoint
CREATE TRIGGER licenses_on_insert AFTER INSERT ON licenses BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = NEW.container_id;
END;
--> statement-breakpoint
CREATE TRIGGER licenses_on_delete AFTER DELETE ON licenses BEGIN
  UPDATE containers SET doc_version = doc_version + 1 WHERE id = OLD.container_id;
END;
