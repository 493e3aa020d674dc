-- Signed webhooks (docs/decisions.md, "Signed webhooks"): endpoints per application, events recorded with the change that causes them, and one
-- delivery per event and endpoint, created by the trigger below in the same transaction as the event.
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT (unixepoch()) NOT NULL,
	`lease_until` integer,
	`last_status_code` integer,
	`last_latency_ms` integer,
	`last_error` text,
	`last_attempt_at` integer,
	`redelivery_of` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`) WHERE "webhook_deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`application_id` integer NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`paused_reason` text,
	`paused_at` integer,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_until` integer,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`failing_since` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`application_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_application` ON `webhook_endpoints` (`application_id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`application_id` integer,
	`endpoint_id` integer,
	`data` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`application_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_events_application` ON `webhook_events` (`application_id`) WHERE "webhook_events"."application_id" is not null;--> statement-breakpoint
CREATE INDEX `webhook_events_endpoint` ON `webhook_events` (`endpoint_id`) WHERE "webhook_events"."endpoint_id" is not null;--> statement-breakpoint
ALTER TABLE `jobs` ADD `application_id` integer REFERENCES applications(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `jobs_application` ON `jobs` (`application_id`);--> statement-breakpoint
-- The audience of an event: one endpoint (a ping), one application's subscribed endpoints (its jobs), or, for the
-- catalogue events, the subscribed endpoints of every official application (the only ones that may read subtitles
-- and completions). Paused endpoints get their deliveries too: held (below), they go out when the endpoint is resumed.
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
--> statement-breakpoint
-- job.succeeded / job.failed, in the same statement as the job's last status change, whoever makes it (the consumer,
-- the dead-letter consumer or the sweeper). Only for jobs an application started, and only when it has an endpoint.
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
--> statement-breakpoint
-- A paused endpoint's deliveries are `held`, outside the partial index webhook_deliveries_due, so a long pause never
-- makes the consumer's claims or the sweeper's checks read its backlog; pings still go out (they are how an
-- application checks a receiver before resuming it). One rule, whoever inserts the delivery (the fan-out, a redelivery).
CREATE TRIGGER `webhook_deliveries_hold_when_paused` AFTER INSERT ON `webhook_deliveries`
WHEN NEW.`status` = 'pending'
  AND (SELECT `status` FROM `webhook_endpoints` WHERE `id` = NEW.`endpoint_id`) = 'paused'
  AND (SELECT `type` FROM `webhook_events` WHERE `id` = NEW.`event_id`) <> 'ping'
BEGIN
  UPDATE `webhook_deliveries` SET `status` = 'held' WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- Pausing (by the application or automatically) holds what is waiting; resuming releases it, due at once.
CREATE TRIGGER `webhook_endpoints_pause` AFTER UPDATE OF `status` ON `webhook_endpoints`
WHEN NEW.`status` = 'paused' AND OLD.`status` = 'active'
BEGIN
  UPDATE `webhook_deliveries` SET `status` = 'held'
  WHERE `endpoint_id` = NEW.`id` AND `status` = 'pending'
    AND (SELECT `type` FROM `webhook_events` WHERE `id` = `event_id`) <> 'ping';
END;
--> statement-breakpoint
CREATE TRIGGER `webhook_endpoints_resume` AFTER UPDATE OF `status` ON `webhook_endpoints`
WHEN NEW.`status` = 'active' AND OLD.`status` = 'paused'
BEGIN
  UPDATE `webhook_deliveries` SET `status` = 'pending', `next_attempt_at` = unixepoch(), `updated_at` = unixepoch()
  WHERE `endpoint_id` = NEW.`id` AND `status` = 'held';
END;
