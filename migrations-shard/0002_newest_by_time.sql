DROP INDEX `subtitle_histories_user`;--> statement-breakpoint
DROP INDEX `subtitle_histories_user_video_language`;--> statement-breakpoint
DROP INDEX `subtitle_histories_video_user`;--> statement-breakpoint
DROP INDEX `subtitle_histories_user_language`;--> statement-breakpoint
CREATE INDEX `subtitle_histories_user` ON `subtitle_histories` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_video_language` ON `subtitle_histories` (`user_id`,`video_id`,`language`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_video_user` ON `subtitle_histories` (`video_id`,`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_language` ON `subtitle_histories` (`user_id`,`language`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `subtitles_translations`;--> statement-breakpoint
CREATE INDEX `subtitles_translations` ON `subtitles` (`created_at`,`id`,`video_id`) WHERE is_translation = 1;