DROP INDEX `containers_upcoming`;--> statement-breakpoint
CREATE INDEX `containers_upcoming_release` ON `containers` (`upcoming`,`type`,`release_date`);--> statement-breakpoint
CREATE INDEX `videos_type_state` ON `videos` (`type`,`state`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_completions_resource` ON `subtitle_completions` (`resource_kind`,`resource_id`,`language`,`percent`);