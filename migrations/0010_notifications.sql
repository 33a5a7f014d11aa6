CREATE TABLE `notification_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`channel` text NOT NULL,
	`event` text NOT NULL,
	`audience` text NOT NULL,
	`category` text DEFAULT 'transactional' NOT NULL,
	`description` text,
	`subject` text,
	`body` text NOT NULL,
	`body_html` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_templates_key_channel_idx` ON `notification_templates` (`key`,`channel`);--> statement-breakpoint
CREATE INDEX `notification_templates_event_idx` ON `notification_templates` (`event`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_tokens_token_hash_unique` ON `password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_reset_tokens_user_idx` ON `password_reset_tokens` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `body_html` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `category` text DEFAULT 'transactional' NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `event_id` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `recipient_user_id` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `dedupe_key` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `provider` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `provider_message_id` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `last_attempt_at` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `sent_at` text;--> statement-breakpoint
CREATE INDEX `notifications_status_created_idx` ON `notifications` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_recipient_idx` ON `notifications` (`recipient`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe_idx` ON `notifications` (`dedupe_key`);--> statement-breakpoint
ALTER TABLE `users` ADD `sms_opt_out` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `marketing_email_opt_out` integer DEFAULT false NOT NULL;