-- Users carry a token version in their JWTs; a password change bumps it, retiring older tokens.
ALTER TABLE `users` ADD `token_version` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `tokens_valid_after`;
