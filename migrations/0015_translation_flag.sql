-- Every translation, newest first (GET /v4/tranlslations.json with no filter), must not walk past originals:
-- a freshly imported video adds its originals as the newest subtitles, thousands at a time. Whether a subtitle
-- is a translation depends on its video's (else container's) origin language, which no index can see, so it is
-- kept in `subtitles.is_translation` by triggers and the list walks the partial index of translations alone.
-- The index holds (id, video_id): the walk reads no subtitle row, only the video and container it checks.
-- Only subtitles in the old or the new origin language change when an origin changes, so the origin triggers
-- touch those two languages of each affected video (subtitles_video_language), never the whole video.
ALTER TABLE `subtitles` ADD `is_translation` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE subtitles SET is_translation = 1
WHERE language <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
                   FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = subtitles.video_id);
--> statement-breakpoint
CREATE INDEX `subtitles_translations` ON `subtitles` (`id`,`video_id`) WHERE is_translation = 1;
--> statement-breakpoint
CREATE TRIGGER subtitles_translation_on_insert AFTER INSERT ON subtitles
WHEN NEW.language <> (SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
                      FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id)
BEGIN
  UPDATE subtitles SET is_translation = 1 WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER subtitles_translation_on_update AFTER UPDATE OF language, video_id ON subtitles
WHEN OLD.language <> NEW.language OR OLD.video_id <> NEW.video_id
BEGIN
  UPDATE subtitles SET is_translation = coalesce(NEW.language <> (
      SELECT coalesce(nullif(v.origin_language, ''), c.origin_language)
      FROM videos v JOIN containers c ON c.id = v.container_id WHERE v.id = NEW.video_id), 0)
  WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER videos_translation_origin AFTER UPDATE OF origin_language, container_id ON videos
WHEN coalesce(nullif(OLD.origin_language, ''), (SELECT origin_language FROM containers WHERE id = OLD.container_id))
  IS NOT coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM containers WHERE id = NEW.container_id))
BEGIN
  UPDATE subtitles
  SET is_translation = language <> coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM containers WHERE id = NEW.container_id))
  WHERE video_id = NEW.id AND language IN (
    coalesce(nullif(OLD.origin_language, ''), (SELECT origin_language FROM containers WHERE id = OLD.container_id)),
    coalesce(nullif(NEW.origin_language, ''), (SELECT origin_language FROM containers WHERE id = NEW.container_id)));
END;
--> statement-breakpoint
CREATE TRIGGER containers_translation_origin AFTER UPDATE OF origin_language ON containers
WHEN OLD.origin_language <> NEW.origin_language
BEGIN
  UPDATE subtitles SET is_translation = language <> NEW.origin_language
  WHERE language IN (OLD.origin_language, NEW.origin_language)
    AND video_id IN (SELECT id FROM videos WHERE container_id = NEW.id AND origin_language = '');
END;
