-- The clients that logged in to an account with its password (docs/decisions.md, "External identity"): the
-- per-account login ceiling across addresses does not slow them, so a guess spread over many addresses cannot keep the
-- owner out. Empty at first: until an owner logs in once from an address, that address counts as new.
CREATE TABLE `login_clients` (
	`user_id` integer NOT NULL,
	`client` text NOT NULL,
	`last_login_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `client`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
