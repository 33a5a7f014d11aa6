CREATE TABLE `customer_group_members` (
	`group_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`group_id`, `customer_id`),
	FOREIGN KEY (`group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `customer_group_members_customer_idx` ON `customer_group_members` (`customer_id`,`group_id`);--> statement-breakpoint
CREATE TABLE `customer_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_groups_name_unique` ON `customer_groups` (`name`);--> statement-breakpoint
CREATE TABLE `price_list_prices` (
	`price_list_id` text NOT NULL,
	`variant_id` text NOT NULL,
	`min_quantity` integer DEFAULT 1 NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`price_list_id`, `variant_id`, `min_quantity`),
	FOREIGN KEY (`price_list_id`) REFERENCES `price_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`variant_id`) REFERENCES `product_variants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_list_prices_variant_idx` ON `price_list_prices` (`variant_id`,`price_list_id`);--> statement-breakpoint
CREATE TABLE `price_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`customer_group_id` text,
	`currency` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`customer_group_id`) REFERENCES `customer_groups`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_lists_group_idx` ON `price_lists` (`customer_group_id`);
--> statement-breakpoint
-- Price lists, their prices and who is in which group decide what a signed-in customer pays: a change
-- to any of them moves quote_version (migrations/0021_order_guards.sql), so no order is priced from
-- inputs an isolate kept before it, and catalogue_version (migrations/0007), so no kept catalogue
-- answer of a customer shows an old price. A list's start and end coming by the clock alone move
-- catalogue_version by the cron (src/lib/scheduled-content.ts); quotes check them at quote time.
CREATE TRIGGER `price_lists_bump_versions_insert` AFTER INSERT ON `price_lists`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `price_lists_bump_versions_update` AFTER UPDATE ON `price_lists`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `price_lists_bump_versions_delete` AFTER DELETE ON `price_lists`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_prices_bump_versions_insert` AFTER INSERT ON `price_list_prices`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_prices_bump_versions_update` AFTER UPDATE ON `price_list_prices`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `price_list_prices_bump_versions_delete` AFTER DELETE ON `price_list_prices`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_group_members_bump_versions_insert` AFTER INSERT ON `customer_group_members`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_group_members_bump_versions_update` AFTER UPDATE ON `customer_group_members`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_group_members_bump_versions_delete` AFTER DELETE ON `customer_group_members`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
