-- Playback streams (docs/api.md, "Playback streams"; docs/decisions.md, "Playback grants"): a video's DASH and HLS
-- manifests, kept in R2 by content (manifest_key) or external (manifest_url), exactly one of the two. Applications
-- learn `family_friendly`: adult containers are not played to one that has it.
CREATE TABLE `playback_streams` (
	`id` integer PRIMARY KEY NOT NULL,
	`video_id` integer NOT NULL,
	`kind` text NOT NULL,
	`manifest_url` text,
	`manifest_key` text,
	`resolutions` text DEFAULT '[]' NOT NULL,
	`audio_languages` text DEFAULT '[]' NOT NULL,
	`drm` text,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "playback_streams_kind" CHECK("playback_streams"."kind" IN ('dash', 'hls')),
	CONSTRAINT "playback_streams_drm" CHECK("playback_streams"."drm" IS NULL OR "playback_streams"."drm" IN ('widevine', 'playready', 'fairplay')),
	CONSTRAINT "playback_streams_one_manifest" CHECK(("playback_streams"."manifest_url" IS NULL) <> ("playback_streams"."manifest_key" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `playback_streams_video_kind` ON `playback_streams` (`video_id`,`kind`,`id`);--> statement-breakpoint
CREATE INDEX `playback_streams_manifest_key` ON `playback_streams` (`manifest_key`);--> statement-breakpoint
ALTER TABLE `applications` ADD `family_friendly` integer DEFAULT false NOT NULL;