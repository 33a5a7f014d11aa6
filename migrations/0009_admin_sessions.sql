CREATE TABLE `admin_login_failures` (
	`email` text NOT NULL,
	`ip` text NOT NULL,
	`failures` integer NOT NULL,
	`first_failure_at` text NOT NULL,
	`locked_until` text,
	PRIMARY KEY(`email`, `ip`)
);
--> statement-breakpoint
CREATE TABLE `admin_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_version` integer NOT NULL,
	`csrf_token` text NOT NULL,
	`ip` text,
	`user_agent` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `admin_sessions_user_idx` ON `admin_sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `admin_sessions_expires_idx` ON `admin_sessions` (`expires_at`);