-- Community counters, kept in step by triggers so every writer (the thread and follow routes, the catalogue
-- triggers that drop a deleted container's or video's subscriptions, seeds, operators with
-- `wrangler d1 execute`) leaves them right:
--   thread_counts  per user: live (not deleted) threads in the inbox, unread ones among them, and live threads
--                  in Sent, so `only_count`, `with_paging` counts and alerts.json read one row;
--   follow_counts  per user: subscriptions and markers, so the subscription limit and `with_paging` counts
--                  read one row.
-- First the rows that exist before this migration: the new thread_participants columns of 0006
-- (the other participant, the last message, the thread's creation time) and both counters.

UPDATE thread_participants SET
  peer_id = (SELECT o.user_id FROM thread_participants o
             WHERE o.thread_id = thread_participants.thread_id AND o.user_id <> thread_participants.user_id LIMIT 1),
  last_message_id = coalesce((SELECT max(m.id) FROM messages m WHERE m.thread_id = thread_participants.thread_id), 0),
  created_at = coalesce((SELECT t.created_at FROM threads t WHERE t.id = thread_participants.thread_id), 0)
WHERE last_message_id = 0;
--> statement-breakpoint
INSERT INTO thread_counts (user_id, inbox, unread, sent)
SELECT user_id,
       sum(in_inbox <> 0 AND deleted = 0),
       sum(in_inbox <> 0 AND deleted = 0 AND unread <> 0),
       sum(in_sent <> 0 AND deleted = 0)
FROM thread_participants GROUP BY user_id;
--> statement-breakpoint
INSERT INTO follow_counts (user_id, subscriptions, markers)
SELECT user_id, sum(s), sum(m)
FROM (SELECT user_id, 1 AS s, 0 AS m FROM subscriptions UNION ALL SELECT user_id, 0, 1 FROM markers)
GROUP BY user_id;
--> statement-breakpoint
CREATE TRIGGER thread_participants_counts_insert AFTER INSERT ON thread_participants BEGIN
  INSERT INTO thread_counts (user_id, inbox, unread, sent)
  VALUES (NEW.user_id,
          NEW.in_inbox <> 0 AND NEW.deleted = 0,
          NEW.in_inbox <> 0 AND NEW.deleted = 0 AND NEW.unread <> 0,
          NEW.in_sent <> 0 AND NEW.deleted = 0)
  ON CONFLICT (user_id) DO UPDATE SET
    inbox = inbox + excluded.inbox, unread = unread + excluded.unread, sent = sent + excluded.sent;
END;
--> statement-breakpoint
CREATE TRIGGER thread_participants_counts_update AFTER UPDATE OF unread, deleted, in_inbox, in_sent, user_id ON thread_participants
WHEN OLD.unread IS NOT NEW.unread OR OLD.deleted IS NOT NEW.deleted OR OLD.in_inbox IS NOT NEW.in_inbox
  OR OLD.in_sent IS NOT NEW.in_sent OR OLD.user_id IS NOT NEW.user_id BEGIN
  UPDATE thread_counts SET
    inbox = inbox - (OLD.in_inbox <> 0 AND OLD.deleted = 0),
    unread = unread - (OLD.in_inbox <> 0 AND OLD.deleted = 0 AND OLD.unread <> 0),
    sent = sent - (OLD.in_sent <> 0 AND OLD.deleted = 0)
  WHERE user_id = OLD.user_id;
  INSERT INTO thread_counts (user_id, inbox, unread, sent)
  VALUES (NEW.user_id,
          NEW.in_inbox <> 0 AND NEW.deleted = 0,
          NEW.in_inbox <> 0 AND NEW.deleted = 0 AND NEW.unread <> 0,
          NEW.in_sent <> 0 AND NEW.deleted = 0)
  ON CONFLICT (user_id) DO UPDATE SET
    inbox = inbox + excluded.inbox, unread = unread + excluded.unread, sent = sent + excluded.sent;
END;
--> statement-breakpoint
CREATE TRIGGER thread_participants_counts_delete AFTER DELETE ON thread_participants BEGIN
  UPDATE thread_counts SET
    inbox = inbox - (OLD.in_inbox <> 0 AND OLD.deleted = 0),
    unread = unread - (OLD.in_inbox <> 0 AND OLD.deleted = 0 AND OLD.unread <> 0),
    sent = sent - (OLD.in_sent <> 0 AND OLD.deleted = 0)
  WHERE user_id = OLD.user_id;
END;
--> statement-breakpoint
CREATE TRIGGER subscriptions_counts_insert AFTER INSERT ON subscriptions BEGIN
  INSERT INTO follow_counts (user_id, subscriptions) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET subscriptions = subscriptions + 1;
END;
--> statement-breakpoint
CREATE TRIGGER subscriptions_counts_delete AFTER DELETE ON subscriptions BEGIN
  UPDATE follow_counts SET subscriptions = subscriptions - 1 WHERE user_id = OLD.user_id;
END;
--> statement-breakpoint
CREATE TRIGGER markers_counts_insert AFTER INSERT ON markers BEGIN
  INSERT INTO follow_counts (user_id, markers) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET markers = markers + 1;
END;
--> statement-breakpoint
CREATE TRIGGER markers_counts_delete AFTER DELETE ON markers BEGIN
  UPDATE follow_counts SET markers = markers - 1 WHERE user_id = OLD.user_id;
END;
