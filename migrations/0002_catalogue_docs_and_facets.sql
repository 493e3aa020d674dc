CREATE TABLE `container_facets` (
	`facet` text NOT NULL,
	`container_id` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`views_recent` integer DEFAULT 0 NOT NULL,
	`trending` integer DEFAULT 0 NOT NULL,
	`newest_video_at` integer DEFAULT 0 NOT NULL,
	`average_rating` real DEFAULT 0 NOT NULL,
	`release_date` text DEFAULT '' NOT NULL,
	`air_time` integer DEFAULT 0 NOT NULL,
	`sort_title` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`container_id`, `facet`),
	FOREIGN KEY (`container_id`) REFERENCES `containers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `facets_views` ON `container_facets` (`facet`,`views`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_views_recent` ON `container_facets` (`facet`,`views_recent`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_trending` ON `container_facets` (`facet`,`trending`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_newest_video` ON `container_facets` (`facet`,`newest_video_at`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_average_rating` ON `container_facets` (`facet`,`average_rating`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_release_date` ON `container_facets` (`facet`,`release_date`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_air_time` ON `container_facets` (`facet`,`air_time`,`container_id`);--> statement-breakpoint
CREATE INDEX `facets_title` ON `container_facets` (`facet`,`sort_title`,`container_id`);--> statement-breakpoint
ALTER TABLE `containers` ADD `doc` text;--> statement-breakpoint
ALTER TABLE `containers` ADD `doc_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `containers` ADD `facet_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `videos` ADD `doc` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `doc_version` integer DEFAULT 0 NOT NULL;