CREATE TABLE `container_genres` (
	`container_id` integer NOT NULL,
	`genre_id` integer NOT NULL,
	PRIMARY KEY(`container_id`, `genre_id`),
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`genre_id`) REFERENCES `genres`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `container_genres_genre` ON `container_genres` (`genre_id`,`container_id`);--> statement-breakpoint
CREATE TABLE `containers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`origin_country` text DEFAULT '' NOT NULL,
	`origin_language` text DEFAULT '' NOT NULL,
	`hosted` integer DEFAULT true NOT NULL,
	`licensed` integer DEFAULT true NOT NULL,
	`adult` integer DEFAULT false NOT NULL,
	`on_air` integer DEFAULT false NOT NULL,
	`upcoming` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'normal' NOT NULL,
	`poster_url` text,
	`sort_title` text DEFAULT '' NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`views_recent` integer DEFAULT 0 NOT NULL,
	`trending` integer DEFAULT 0 NOT NULL,
	`average_rating` real DEFAULT 0 NOT NULL,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`release_date` text,
	`air_time` integer,
	`newest_video_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `containers_type_views` ON `containers` (`type`,`views`);--> statement-breakpoint
CREATE INDEX `containers_views` ON `containers` (`views`);--> statement-breakpoint
CREATE INDEX `containers_sort_title` ON `containers` (`sort_title`);--> statement-breakpoint
CREATE INDEX `containers_origin_country_views` ON `containers` (`origin_country`,`views`);--> statement-breakpoint
CREATE INDEX `containers_upcoming` ON `containers` (`upcoming`,`type`);--> statement-breakpoint
CREATE TABLE `descriptions` (
	`resource_kind` text NOT NULL,
	`resource_id` integer NOT NULL,
	`language` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`resource_kind`, `resource_id`, `language`)
);
--> statement-breakpoint
CREATE TABLE `genres` (
	`id` integer PRIMARY KEY NOT NULL,
	`set` text NOT NULL,
	`position` integer NOT NULL,
	`name_en` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `genres_set_position` ON `genres` (`set`,`position`);--> statement-breakpoint
CREATE TABLE `licenses` (
	`container_id` integer NOT NULL,
	`region` text NOT NULL,
	`platform` text NOT NULL,
	PRIMARY KEY(`container_id`, `region`, `platform`),
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `licenses_region_platform` ON `licenses` (`region`,`platform`,`container_id`);--> statement-breakpoint
CREATE TABLE `list_items` (
	`list_id` integer NOT NULL,
	`position` integer NOT NULL,
	`resource_kind` text NOT NULL,
	`resource_id` integer NOT NULL,
	PRIMARY KEY(`list_id`, `position`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `list_items_resource` ON `list_items` (`resource_kind`,`resource_id`,`list_id`);--> statement-breakpoint
CREATE TABLE `lists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `titles` (
	`resource_kind` text NOT NULL,
	`resource_id` integer NOT NULL,
	`language` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`resource_kind`, `resource_id`, `language`)
);
--> statement-breakpoint
CREATE TABLE `videos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`container_id` integer NOT NULL,
	`type` text NOT NULL,
	`number` integer,
	`duration` integer DEFAULT 0 NOT NULL,
	`state` text DEFAULT 'normal' NOT NULL,
	`origin_language` text DEFAULT '' NOT NULL,
	`hd` integer DEFAULT false NOT NULL,
	`poster_url` text,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `videos_container_state_type_number` ON `videos` (`container_id`,`state`,`type`,`number`);--> statement-breakpoint
CREATE INDEX `videos_container_state_number` ON `videos` (`container_id`,`state`,`number`);--> statement-breakpoint
CREATE TABLE `applications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`official` integer DEFAULT false NOT NULL,
	`unhosted_access` integer DEFAULT false NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `container_managers` (
	`container_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`container_id`, `user_id`),
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `container_managers_user` ON `container_managers` (`user_id`,`container_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`password_hash` text NOT NULL,
	`staff` integer DEFAULT false NOT NULL,
	`avatar_url` text,
	`social_id` text,
	`idp_id` text,
	`retailer_ref` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_social_id_unique` ON `users` (`social_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_idp_id_unique` ON `users` (`idp_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_retailer_ref_unique` ON `users` (`retailer_ref`);--> statement-breakpoint
CREATE TABLE `markers` (
	`user_id` integer NOT NULL,
	`resource_kind` text NOT NULL,
	`resource_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `resource_kind`, `resource_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `markers_user_created` ON `markers` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thread_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_thread` ON `messages` (`thread_id`,`id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`container_id` integer,
	`sender_id` integer,
	`job_id` integer,
	`content` text NOT NULL,
	`unread` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notifications_user` ON `notifications` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_user_unread` ON `notifications` (`user_id`,`unread`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_job_user` ON `notifications` (`job_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`user_id` integer NOT NULL,
	`resource_kind` text NOT NULL,
	`resource_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `resource_kind`, `resource_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscriptions_user_created` ON `subscriptions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_resource_user` ON `subscriptions` (`resource_kind`,`resource_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `thread_participants` (
	`thread_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`unread` integer DEFAULT false NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`in_inbox` integer DEFAULT false NOT NULL,
	`in_sent` integer DEFAULT false NOT NULL,
	`last_message_at` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`thread_id`, `user_id`),
	FOREIGN KEY (`thread_id`) REFERENCES `threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `thread_participants_inbox` ON `thread_participants` (`user_id`,`deleted`,`in_inbox`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `thread_participants_sent` ON `thread_participants` (`user_id`,`deleted`,`in_sent`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `thread_participants_unread` ON `thread_participants` (`user_id`,`deleted`,`in_inbox`,`unread`);--> statement-breakpoint
CREATE TABLE `threads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `timed_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`user_id` integer NOT NULL,
	`time_ms` integer NOT NULL,
	`comment` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `timed_comments_video_language_time` ON `timed_comments` (`video_id`,`language`,`time_ms`);--> statement-breakpoint
CREATE TABLE `caption_suggestions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`origin_subtitle_id` integer NOT NULL,
	`language` text NOT NULL,
	`user_id` integer NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`origin_subtitle_id`) REFERENCES `subtitles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `caption_suggestions_origin` ON `caption_suggestions` (`origin_subtitle_id`,`language`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subtitle_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`subtitle_id`) REFERENCES `subtitles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reports_subtitle` ON `reports` (`subtitle_id`);--> statement-breakpoint
CREATE TABLE `segments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`video_id` integer NOT NULL,
	`start_ms` integer NOT NULL,
	`end_ms` integer NOT NULL,
	`author_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `segments_video_start` ON `segments` (`video_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `subtitle_completions` (
	`resource_kind` text NOT NULL,
	`resource_id` integer NOT NULL,
	`language` text NOT NULL,
	`percent` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`resource_kind`, `resource_id`, `language`)
);
--> statement-breakpoint
CREATE INDEX `subtitle_completions_language_percent` ON `subtitle_completions` (`resource_kind`,`language`,`percent`,`resource_id`);--> statement-breakpoint
CREATE TABLE `subtitle_histories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`container_id` integer NOT NULL,
	`segment_id` integer,
	`subtitle_id` integer,
	`language` text,
	`text` text,
	`version` integer DEFAULT 1 NOT NULL,
	`source_key` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subtitle_histories_user` ON `subtitle_histories` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_user_video_language` ON `subtitle_histories` (`user_id`,`video_id`,`language`,`id`);--> statement-breakpoint
CREATE INDEX `subtitle_histories_container_user` ON `subtitle_histories` (`container_id`,`kind`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `subtitle_histories_source` ON `subtitle_histories` (`source_key`);--> statement-breakpoint
CREATE TABLE `subtitles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`segment_id` integer NOT NULL,
	`video_id` integer NOT NULL,
	`language` text NOT NULL,
	`text` text NOT NULL,
	`author_id` integer,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`segment_id`) REFERENCES `segments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subtitles_segment_language` ON `subtitles` (`segment_id`,`language`);--> statement-breakpoint
CREATE INDEX `subtitles_video_language` ON `subtitles` (`video_id`,`language`);--> statement-breakpoint
CREATE INDEX `subtitles_language` ON `subtitles` (`language`,`video_id`);--> statement-breakpoint
CREATE TABLE `translation_votes` (
	`user_id` integer NOT NULL,
	`subtitle_id` integer NOT NULL,
	`value` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `subtitle_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subtitle_id`) REFERENCES `subtitles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `translation_votes_subtitle` ON `translation_votes` (`subtitle_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`params` text,
	`payload_key` text,
	`result` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`started_at` integer,
	`finished_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `jobs_status` ON `jobs` (`status`,`id`);