-- A glossary per series (docs/decisions.md, "Glossary"): the terms every episode's translators keep the same. In the
-- catalogue beside its container (deleted with it), read by the glossary routes and, for the quality checks, with the
-- container's other catalogue rows. At most 2,000 terms a series (src/services/glossary.ts); one term per
-- (container, language, term).
CREATE TABLE `glossary_terms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`container_id` integer NOT NULL,
	`term` text NOT NULL,
	`language` text NOT NULL,
	`translations` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'preferred' NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`case_sensitive` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `glossary_terms_container` ON `glossary_terms` (`container_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `glossary_terms_container_language_term` ON `glossary_terms` (`container_id`,`language`,`term`);