-- Application secrets rotate with an overlap (docs/decisions.md, "Secret rotation"): after a rotation the previous
-- secret still signs until previous_secret_expires_at (unix seconds); `npm run admin -- app:end-overlap` clears both.
ALTER TABLE `applications` ADD `previous_secret` text;--> statement-breakpoint
ALTER TABLE `applications` ADD `previous_secret_expires_at` integer;
