-- Webhook events and deliveries: an event is a row written with its change; these triggers make the events no
-- TypeScript writes (job outcomes) and the deliveries of every event, and hold or release a paused endpoint's.
--
-- The current definition of these triggers; the database gets them from migrations/, which D1 applies in order
-- and which are never edited once applied. A change to a trigger is therefore two edits in one change: a new
-- migration that drops and re-creates it, and the same definition here. test/db/triggers.test.ts compares this
-- folder with a freshly migrated database and names any trigger missing, extra or different.

-- Why a trigger: every event gets one delivery per subscribed endpoint in
--   the statement that records it, including the events triggers record.
CREATE TRIGGER `webhook_events_fan_out` AFTER INSERT ON `webhook_events` BEGIN
  INSERT INTO `webhook_deliveries` (`event_id`, `endpoint_id`, `next_attempt_at`)
  SELECT NEW.`id`, e.`id`, NEW.`created_at` FROM `webhook_endpoints` e
  WHERE CASE
    WHEN NEW.`endpoint_id` IS NOT NULL THEN e.`id` = NEW.`endpoint_id`
    WHEN NEW.`application_id` IS NOT NULL THEN e.`application_id` = NEW.`application_id`
      AND EXISTS (SELECT 1 FROM json_each(e.`events`) WHERE value = NEW.`type`)
    ELSE EXISTS (SELECT 1 FROM `applications` a WHERE a.`id` = e.`application_id` AND a.`official`)
      AND EXISTS (SELECT 1 FROM json_each(e.`events`) WHERE value = NEW.`type`)
  END;
END;

-- Why a trigger: job.succeeded / job.failed are recorded with the job's last
--   status change, whoever makes it (consumer, dead-letter consumer, sweeper).
CREATE TRIGGER `jobs_webhook_event` AFTER UPDATE OF `status` ON `jobs`
WHEN NEW.`application_id` IS NOT NULL AND NEW.`status` IN ('succeeded', 'failed') AND OLD.`status` NOT IN ('succeeded', 'failed')
BEGIN
  INSERT INTO `webhook_events` (`type`, `application_id`, `data`)
  SELECT 'job.' || NEW.`status`, NEW.`application_id`, json_object(
    'job_id', NEW.`id` || 'j',
    'job_type', NEW.`type`,
    'status', NEW.`status`,
    'path', '/v4/jobs/' || NEW.`id` || 'j.json',
    'result', json(NEW.`result`),
    'error', NEW.`error`)
  WHERE EXISTS (SELECT 1 FROM `webhook_endpoints` WHERE `application_id` = NEW.`application_id`);
END;

-- Why a trigger: a delivery to a paused endpoint is held as it
--   is inserted, whether by the fan-out trigger or a redelivery.
CREATE TRIGGER `webhook_deliveries_hold_when_paused` AFTER INSERT ON `webhook_deliveries`
WHEN NEW.`status` = 'pending'
  AND (SELECT `status` FROM `webhook_endpoints` WHERE `id` = NEW.`endpoint_id`) = 'paused'
  AND (SELECT `type` FROM `webhook_events` WHERE `id` = NEW.`event_id`) <> 'ping'
BEGIN
  UPDATE `webhook_deliveries` SET `status` = 'held' WHERE `id` = NEW.`id`;
END;

-- Why a trigger: pausing an endpoint (by its application or
--   automatically) holds what is waiting, in the same statement.
CREATE TRIGGER `webhook_endpoints_pause` AFTER UPDATE OF `status` ON `webhook_endpoints`
WHEN NEW.`status` = 'paused' AND OLD.`status` = 'active'
BEGIN
  UPDATE `webhook_deliveries` SET `status` = 'held'
  WHERE `endpoint_id` = NEW.`id` AND `status` = 'pending'
    AND (SELECT `type` FROM `webhook_events` WHERE `id` = `event_id`) <> 'ping';
END;

-- Why a trigger: resuming an endpoint releases what it held, due at once, in the same statement.
CREATE TRIGGER `webhook_endpoints_resume` AFTER UPDATE OF `status` ON `webhook_endpoints`
WHEN NEW.`status` = 'active' AND OLD.`status` = 'paused'
BEGIN
  UPDATE `webhook_deliveries` SET `status` = 'pending', `next_attempt_at` = unixepoch(), `updated_at` = unixepoch()
  WHERE `endpoint_id` = NEW.`id` AND `status` = 'held';
END;
