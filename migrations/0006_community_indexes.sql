CREATE TABLE `follow_counts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`subscriptions` integer DEFAULT 0 NOT NULL,
	`markers` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE TABLE `thread_counts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`inbox` integer DEFAULT 0 NOT NULL,
	`unread` integer DEFAULT 0 NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
DROP INDEX `thread_participants_inbox`;--> statement-breakpoint
DROP INDEX `thread_participants_sent`;--> statement-breakpoint
DROP INDEX `thread_participants_unread`;--> statement-breakpoint
ALTER TABLE `thread_participants` ADD `peer_id` integer;--> statement-breakpoint
ALTER TABLE `thread_participants` ADD `last_message_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `thread_participants` ADD `created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `thread_participants_inbox` ON `thread_participants` (`user_id`,`deleted`,`in_inbox`,`last_message_id`);--> statement-breakpoint
CREATE INDEX `thread_participants_sent` ON `thread_participants` (`user_id`,`deleted`,`in_sent`,`last_message_id`);--> statement-breakpoint
CREATE INDEX `thread_participants_unread` ON `thread_participants` (`user_id`,`deleted`,`in_inbox`,`unread`,`last_message_id`);