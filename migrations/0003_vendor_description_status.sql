ALTER TABLE `vendors` ADD `description` text;--> statement-breakpoint
ALTER TABLE `vendors` ADD `status` text DEFAULT 'active' NOT NULL;--> statement-breakpoint
CREATE INDEX `vendors_name_idx` ON `vendors` (`name`);--> statement-breakpoint
CREATE INDEX `vendors_created_idx` ON `vendors` (`created_at`);