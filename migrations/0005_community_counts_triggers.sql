-- Community counts, kept in step by triggers so every writer (the SRT import, translation routes, the
-- notification fan-out, seeds, operators with `wrangler d1 execute`) leaves them right:
--   contributions        per (container, user): subtitle_histories rows of kind segment and subtitle and
--                        their sum, so contribution lists read a page of rows in `total` order instead of
--                        grouping every history row of a container or user;
--   notification_counts  per user: notifications and unread notifications, so the unread badge and
--                        `with_paging` counts read one row.
-- Rows of other history kinds are not contributions. A contributions row whose total falls to zero is deleted.

CREATE TRIGGER subtitle_histories_contributions_insert AFTER INSERT ON subtitle_histories
WHEN NEW.kind IN ('segment', 'subtitle') BEGIN
  INSERT INTO contributions (container_id, user_id, segments, subtitles, total)
  VALUES (NEW.container_id, NEW.user_id, NEW.kind = 'segment', NEW.kind = 'subtitle', 1)
  ON CONFLICT (container_id, user_id) DO UPDATE SET
    segments = segments + excluded.segments, subtitles = subtitles + excluded.subtitles, total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_contributions_delete AFTER DELETE ON subtitle_histories
WHEN OLD.kind IN ('segment', 'subtitle') BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment'), subtitles = subtitles - (OLD.kind = 'subtitle'), total = total - 1
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id;
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER subtitle_histories_contributions_update AFTER UPDATE OF kind, user_id, container_id ON subtitle_histories
WHEN OLD.kind IS NOT NEW.kind OR OLD.user_id IS NOT NEW.user_id OR OLD.container_id IS NOT NEW.container_id BEGIN
  UPDATE contributions
  SET segments = segments - (OLD.kind = 'segment'), subtitles = subtitles - (OLD.kind = 'subtitle'), total = total - 1
  WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND OLD.kind IN ('segment', 'subtitle');
  DELETE FROM contributions WHERE container_id = OLD.container_id AND user_id = OLD.user_id AND total <= 0;
  INSERT INTO contributions (container_id, user_id, segments, subtitles, total)
  SELECT NEW.container_id, NEW.user_id, NEW.kind = 'segment', NEW.kind = 'subtitle', 1
  WHERE NEW.kind IN ('segment', 'subtitle')
  ON CONFLICT (container_id, user_id) DO UPDATE SET
    segments = segments + excluded.segments, subtitles = subtitles + excluded.subtitles, total = total + 1;
END;
--> statement-breakpoint
INSERT INTO contributions (container_id, user_id, segments, subtitles, total)
SELECT container_id, user_id, sum(kind = 'segment'), sum(kind = 'subtitle'), count(*)
FROM subtitle_histories WHERE kind IN ('segment', 'subtitle') GROUP BY container_id, user_id;
--> statement-breakpoint
CREATE TRIGGER notifications_counts_insert AFTER INSERT ON notifications BEGIN
  INSERT INTO notification_counts (user_id, total, unread) VALUES (NEW.user_id, 1, NEW.unread <> 0)
  ON CONFLICT (user_id) DO UPDATE SET total = total + 1, unread = unread + excluded.unread;
END;
--> statement-breakpoint
CREATE TRIGGER notifications_counts_update AFTER UPDATE OF unread, user_id ON notifications
WHEN (OLD.unread <> 0) IS NOT (NEW.unread <> 0) OR OLD.user_id IS NOT NEW.user_id BEGIN
  UPDATE notification_counts SET total = total - 1, unread = unread - (OLD.unread <> 0) WHERE user_id = OLD.user_id;
  INSERT INTO notification_counts (user_id, total, unread) VALUES (NEW.user_id, 1, NEW.unread <> 0)
  ON CONFLICT (user_id) DO UPDATE SET total = total + 1, unread = unread + excluded.unread;
END;
--> statement-breakpoint
CREATE TRIGGER notifications_counts_delete AFTER DELETE ON notifications BEGIN
  UPDATE notification_counts SET total = total - 1, unread = unread - (OLD.unread <> 0) WHERE user_id = OLD.user_id;
END;
--> statement-breakpoint
INSERT INTO notification_counts (user_id, total, unread)
SELECT user_id, count(*), sum(unread <> 0) FROM notifications GROUP BY user_id;
