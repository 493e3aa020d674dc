CREATE TABLE `used_credentials` (
	`hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_credentials_expires` ON `used_credentials` (`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `store_ref` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_store_ref_unique` ON `users` (`store_ref`);