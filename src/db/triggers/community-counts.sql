-- Community counts kept, not counted: notification_counts, thread_counts and follow_counts, so unread badges,
-- `only_count` and `with_paging` read one row. Each is a delta applied in the statement of the change, so every writer
-- (routes, the notification fan-out, seeds) keeps them. Contributions are kept on the shards, beside the subtitle
-- histories they count (src/db/shard-triggers/contributions.sql).
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: notification_counts follows notifications
--   made by the fan-out job and routes, in the same statement.
CREATE TRIGGER notifications_counts_insert AFTER INSERT ON notifications BEGIN
  INSERT INTO notification_counts (user_id, total, unread) VALUES (NEW.user_id, 1, NEW.unread <> 0)
  ON CONFLICT (user_id) DO UPDATE SET total = total + 1, unread = unread + excluded.unread;
END;

-- Why a trigger: notification_counts follows a notification read, unread or moved, in the same statement.
CREATE TRIGGER notifications_counts_update AFTER UPDATE OF unread, user_id ON notifications
WHEN (OLD.unread <> 0) IS NOT (NEW.unread <> 0) OR OLD.user_id IS NOT NEW.user_id BEGIN
  UPDATE notification_counts SET total = total - 1, unread = unread - (OLD.unread <> 0) WHERE user_id = OLD.user_id;
  INSERT INTO notification_counts (user_id, total, unread) VALUES (NEW.user_id, 1, NEW.unread <> 0)
  ON CONFLICT (user_id) DO UPDATE SET total = total + 1, unread = unread + excluded.unread;
END;

-- Why a trigger: notification_counts follows notifications deleted, whoever deletes them (a route, a cascade).
CREATE TRIGGER notifications_counts_delete AFTER DELETE ON notifications BEGIN
  UPDATE notification_counts SET total = total - 1, unread = unread - (OLD.unread <> 0) WHERE user_id = OLD.user_id;
END;

-- Why a trigger: thread_counts (live inbox, unread, live sent)
--   follows a participant row added, in the same statement.
CREATE TRIGGER thread_participants_counts_insert AFTER INSERT ON thread_participants BEGIN
  INSERT INTO thread_counts (user_id, inbox, unread, sent)
  VALUES (NEW.user_id,
          NEW.in_inbox <> 0 AND NEW.deleted = 0,
          NEW.in_inbox <> 0 AND NEW.deleted = 0 AND NEW.unread <> 0,
          NEW.in_sent <> 0 AND NEW.deleted = 0)
  ON CONFLICT (user_id) DO UPDATE SET
    inbox = inbox + excluded.inbox, unread = unread + excluded.unread, sent = sent + excluded.sent;
END;

-- Why a trigger: thread_counts follows a thread read, deleted
--   or moved between inbox and Sent, in the same statement.
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

-- Why a trigger: thread_counts follows participant rows deleted, cascades included.
CREATE TRIGGER thread_participants_counts_delete AFTER DELETE ON thread_participants BEGIN
  UPDATE thread_counts SET
    inbox = inbox - (OLD.in_inbox <> 0 AND OLD.deleted = 0),
    unread = unread - (OLD.in_inbox <> 0 AND OLD.deleted = 0 AND OLD.unread <> 0),
    sent = sent - (OLD.in_sent <> 0 AND OLD.deleted = 0)
  WHERE user_id = OLD.user_id;
END;

-- Why a trigger: follow_counts.subscriptions follows subscriptions; the limit check in the INSERT reads it.
CREATE TRIGGER subscriptions_counts_insert AFTER INSERT ON subscriptions BEGIN
  INSERT INTO follow_counts (user_id, subscriptions) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET subscriptions = subscriptions + 1;
END;

-- Why a trigger: follow_counts.subscriptions follows subscriptions
--   deleted, including by the cleanup triggers TypeScript never sees.
CREATE TRIGGER subscriptions_counts_delete AFTER DELETE ON subscriptions BEGIN
  UPDATE follow_counts SET subscriptions = subscriptions - 1 WHERE user_id = OLD.user_id;
END;

-- Why a trigger: follow_counts.markers follows markers added, in the same statement.
CREATE TRIGGER markers_counts_insert AFTER INSERT ON markers BEGIN
  INSERT INTO follow_counts (user_id, markers) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET markers = markers + 1;
END;

-- Why a trigger: follow_counts.markers follows markers deleted,
--   including by the cleanup triggers TypeScript never sees.
CREATE TRIGGER markers_counts_delete AFTER DELETE ON markers BEGIN
  UPDATE follow_counts SET markers = markers - 1 WHERE user_id = OLD.user_id;
END;
