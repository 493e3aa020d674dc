DROP INDEX `reports_subtitle`;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_subtitle_user` ON `reports` (`subtitle_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_video` ON `subtitle_histories` (`user_id`,`video_id`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_language` ON `subtitle_histories` (`user_id`,`language`,`id`);