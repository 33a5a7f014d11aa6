CREATE TABLE `webhook_replays` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`from` text NOT NULL,
	`to` text NOT NULL,
	`types` text,
	`event_types` text NOT NULL,
	`matched` integer DEFAULT 0 NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`cursor` text,
	`error` text,
	`finished_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_replays_endpoint_created_idx` ON `webhook_replays` (`endpoint_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `replay_id` text;