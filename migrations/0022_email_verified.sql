-- Whether an account's email is verified (docs/decisions.md, "External identity"): only then is a new identity with
-- the same verified email linked into it. Accounts linked to a social or identity-provider identity hold an email that
-- provider verified (creation and linking both required it), so they start verified; the rest (password accounts,
-- staff typed in by an operator, retailer and store accounts) start unverified.
ALTER TABLE `users` ADD `email_verified` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `users` SET `email_verified` = 1 WHERE `social_id` IS NOT NULL OR `idp_id` IS NOT NULL;
