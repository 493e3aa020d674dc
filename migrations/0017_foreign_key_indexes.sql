-- Every foreign key leads an index (docs/decisions.md, "Holding up outside"; test/db/foreign-keys.test.ts). Without one, deleting or
-- re-keying a parent row makes SQLite scan the whole child table to cascade (or set null): deleting one empty
-- video read all of subtitle_histories, twice. Most of these columns are only read by those cascades (deleting
-- a user, a container), hence single-column indexes; markers_resource serves the cleanup triggers of
-- migration 0003, which delete a container's or video's markers by resource.
-- subtitle_histories keeps six indexes: (user, video, id) becomes (video, user, id), which serves the same
-- "user + video, newest first" listing and the video cascade.
CREATE INDEX `subtitle_histories_video_user` ON `subtitle_histories` (`video_id`,`user_id`,`id`);--> statement-breakpoint
DROP INDEX `subtitle_histories_user_video`;--> statement-breakpoint
CREATE INDEX `markers_resource` ON `markers` (`resource_kind`,`resource_id`);--> statement-breakpoint
CREATE INDEX `messages_sender` ON `messages` (`sender_id`);--> statement-breakpoint
CREATE INDEX `notifications_container` ON `notifications` (`container_id`);--> statement-breakpoint
CREATE INDEX `notifications_sender` ON `notifications` (`sender_id`);--> statement-breakpoint
CREATE INDEX `threads_created_by` ON `threads` (`created_by`);--> statement-breakpoint
CREATE INDEX `timed_comments_user` ON `timed_comments` (`user_id`);--> statement-breakpoint
CREATE INDEX `caption_suggestions_user` ON `caption_suggestions` (`user_id`);--> statement-breakpoint
CREATE INDEX `reports_user` ON `reports` (`user_id`);--> statement-breakpoint
CREATE INDEX `segments_author` ON `segments` (`author_id`);--> statement-breakpoint
CREATE INDEX `subtitles_author` ON `subtitles` (`author_id`);--> statement-breakpoint
CREATE INDEX `jobs_created_by` ON `jobs` (`created_by`);
