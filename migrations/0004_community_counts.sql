CREATE TABLE `notification_counts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`unread` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `contributions` (
	`container_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`segments` integer DEFAULT 0 NOT NULL,
	`subtitles` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`container_id`, `user_id`),
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contributions_container_total` ON `contributions` (`container_id`,`total`,`user_id`);--> statement-breakpoint
CREATE INDEX `contributions_user_total` ON `contributions` (`user_id`,`total`,`container_id`);