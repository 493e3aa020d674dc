-- sort=number on container listings orders by the container's count of its main child videos (episodes of a
-- series, movies of a film, news clips of news, music videos of an artist): the count every container object
-- shows (`episodes.count`, ...). Like every other sort it walks container_facets in index order, so the
-- facet rows carry the count (`video_count`), and one index serves both directions (scanned either way).
--
-- The count comes from containers.doc.video_counts (normal-state videos by type), which the doc rebuild of
-- migration 0003 keeps. The facet rebuild reads the count from the current row, not NEW: the doc and facet
-- rebuilds can fire from one UPDATE (a video insert bumps doc_version and newest_video_at) in either order,
-- and NEW would then carry the doc from before the rebuild. A doc change that moves the count (a video added,
-- removed, hidden) patches the facet rows in place instead of rebuilding them.
ALTER TABLE `container_facets` ADD `video_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX `facets_video_count` ON `container_facets` (`facet`,`video_count`,`container_id`);
--> statement-breakpoint
DROP TRIGGER containers_facets_rebuild;
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
UPDATE container_facets SET video_count = (
  SELECT coalesce(json_extract(c.doc, '$.video_counts.' || CASE c.type WHEN 'series' THEN 'episode' WHEN 'film' THEN 'movie'
    WHEN 'news' THEN 'news_clip' ELSE 'music_video' END), 0)
  FROM containers c WHERE c.id = container_facets.container_id);
