-- Subtitle versions (docs/decisions.md, "Subtitle versions"): one row per version of a track, its cues an immutable R2
-- object; reports learn where they sit, what they reported, the version they were made against and how they were
-- resolved, so moderators can list and act on them (docs/api.md, "Subtitle versions and reports").
CREATE TABLE `subtitle_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`number` integer NOT NULL,
	`author_id` integer,
	`application_id` integer,
	`cause` text NOT NULL,
	`cues` integer NOT NULL,
	`completion` integer NOT NULL,
	`hash` text NOT NULL,
	`bytes` integer NOT NULL,
	`restored_from` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`application_id`) REFERENCES `applications`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subtitle_versions_track_number` ON `subtitle_versions` (`video_id`,`language`,`number`);--> statement-breakpoint
CREATE INDEX `subtitle_versions_created` ON `subtitle_versions` (`created_at`);--> statement-breakpoint
CREATE INDEX `subtitle_versions_author` ON `subtitle_versions` (`author_id`);--> statement-breakpoint
CREATE INDEX `subtitle_versions_application` ON `subtitle_versions` (`application_id`);--> statement-breakpoint
ALTER TABLE `reports` ADD `video_id` integer REFERENCES videos(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `reports` ADD `container_id` integer REFERENCES containers(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `reports` ADD `language` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `text` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `version` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `status` text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `resolution` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `resolved_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `reports` ADD `resolved_at` integer;--> statement-breakpoint
CREATE INDEX `reports_container_status` ON `reports` (`container_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `reports_video` ON `reports` (`video_id`);--> statement-breakpoint
CREATE INDEX `reports_resolved_by` ON `reports` (`resolved_by`);--> statement-breakpoint
UPDATE `reports` SET
	`video_id` = (SELECT s.video_id FROM subtitles s WHERE s.id = reports.subtitle_id),
	`container_id` = (SELECT v.container_id FROM subtitles s JOIN videos v ON v.id = s.video_id WHERE s.id = reports.subtitle_id),
	`language` = (SELECT s.language FROM subtitles s WHERE s.id = reports.subtitle_id),
	`text` = (SELECT s.text FROM subtitles s WHERE s.id = reports.subtitle_id);
