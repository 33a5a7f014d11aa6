ALTER TABLE `carts` ADD `abandoned_at` text;--> statement-breakpoint
CREATE INDEX `carts_status_updated_idx` ON `carts` (`status`,`updated_at`);