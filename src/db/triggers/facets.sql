-- Listing facets: container_facets holds one row per (facet, listable container) with the sort keys, so a
-- filtered, sorted page is one index range scan. The facet names, the `x:` prefix of fan channels and the 50 percent
-- of `sub:<lang>` are named in TypeScript by src/domain/facets.ts; test/db/facets.test.ts holds the two to one meaning.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: keeps container_facets equal to the container's columns, genres and
--   completions; every writer of those (routes, jobs, seeds) leaves a listing right.
CREATE TRIGGER containers_facets_rebuild AFTER UPDATE OF facet_version, type, origin_country, hosted, licensed, adult, state, views, views_recent, trending, average_rating, release_date, air_time, newest_video_at, sort_title ON containers BEGIN
  DELETE FROM container_facets WHERE container_id = NEW.id;
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title, video_count)
  SELECT f.value, NEW.id, NEW.views, NEW.views_recent, NEW.trending, coalesce(NEW.newest_video_at, 0), NEW.average_rating,
         coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title,
    (SELECT coalesce(json_extract(c.doc, '$.video_counts.' || CASE c.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
      WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0) FROM containers c WHERE c.id = NEW.id)
  FROM json_each(json_array(
    CASE WHEN NEW.hosted AND NEW.licensed THEN 'public' END,
    CASE WHEN NOT NEW.hosted THEN 'unhosted' END,
    CASE WHEN NOT NEW.licensed THEN 'unlicensed' END
  )) f
  WHERE f.value IS NOT NULL AND NEW.state = 'normal';
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title, video_count)
  SELECT CASE WHEN NEW.hosted AND NEW.licensed THEN '' ELSE 'x:' END || f.value, NEW.id, NEW.views, NEW.views_recent, NEW.trending,
         coalesce(NEW.newest_video_at, 0), NEW.average_rating, coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title,
    (SELECT coalesce(json_extract(c.doc, '$.video_counts.' || CASE c.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
      WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0) FROM containers c WHERE c.id = NEW.id)
  FROM json_each(json_array(
    'all',
    'type:' || NEW.type,
    CASE WHEN NOT NEW.adult THEN 'family' END,
    CASE WHEN NEW.origin_country <> '' THEN 'country:' || NEW.origin_country END
  )) f
  WHERE f.value IS NOT NULL AND NEW.state = 'normal';
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title, video_count)
  SELECT CASE WHEN NEW.hosted AND NEW.licensed THEN '' ELSE 'x:' END || 'genre:' || g.genre_id, NEW.id, NEW.views, NEW.views_recent, NEW.trending,
         coalesce(NEW.newest_video_at, 0), NEW.average_rating, coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title,
    (SELECT coalesce(json_extract(c.doc, '$.video_counts.' || CASE c.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
      WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0) FROM containers c WHERE c.id = NEW.id)
  FROM container_genres g WHERE g.container_id = NEW.id AND NEW.state = 'normal';
  INSERT INTO container_facets (facet, container_id, views, views_recent, trending, newest_video_at, average_rating, release_date, air_time, sort_title, video_count)
  SELECT CASE WHEN NEW.hosted AND NEW.licensed THEN '' ELSE 'x:' END || 'sub:' || sc.language, NEW.id, NEW.views, NEW.views_recent, NEW.trending,
         coalesce(NEW.newest_video_at, 0), NEW.average_rating, coalesce(NEW.release_date, ''), coalesce(NEW.air_time, 0), NEW.sort_title,
    (SELECT coalesce(json_extract(c.doc, '$.video_counts.' || CASE c.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
      WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0) FROM containers c WHERE c.id = NEW.id)
  FROM subtitle_completions sc
  WHERE sc.resource_kind = 'c' AND sc.resource_id = NEW.id AND sc.percent >= 50 AND NEW.state = 'normal';
END;

-- Why a trigger: patches video_count when doc.video_counts moves; only a trigger on
--   doc sees the doc after its rebuild, which fires in either order with the facets'.
CREATE TRIGGER containers_facets_video_count AFTER UPDATE OF doc ON containers
WHEN coalesce(json_extract(OLD.doc, '$.video_counts.' || CASE NEW.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
       WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0)
  <> coalesce(json_extract(NEW.doc, '$.video_counts.' || CASE NEW.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
       WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0)
BEGIN
  UPDATE container_facets SET video_count = coalesce(json_extract(NEW.doc, '$.video_counts.' || CASE NEW.type WHEN 'series' THEN 'episode'
    WHEN 'film' THEN 'movie' WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0)
  WHERE container_id = NEW.id;
END;
