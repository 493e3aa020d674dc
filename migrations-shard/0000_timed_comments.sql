CREATE TABLE `shard_ids` (
	`shard` integer PRIMARY KEY NOT NULL,
	`next_id` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `timed_comments` (
	`id` integer PRIMARY KEY NOT NULL,
	`container_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`user_id` integer NOT NULL,
	`username` text NOT NULL,
	`time_ms` integer NOT NULL,
	`comment` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `timed_comments_video_language_time` ON `timed_comments` (`video_id`,`language`,`time_ms`);--> statement-breakpoint
CREATE INDEX `timed_comments_container` ON `timed_comments` (`container_id`,`id`);--> statement-breakpoint
CREATE INDEX `timed_comments_user` ON `timed_comments` (`user_id`);