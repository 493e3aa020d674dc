-- Signatures used by requests whose only credential is the signature (docs/decisions.md, "Signed requests and
-- replay"): the primary key refuses a second use; the sweeper deletes rows past expires_at (unix seconds).
CREATE TABLE `used_signatures` (
	`signature` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
