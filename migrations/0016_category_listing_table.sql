CREATE TABLE `category_listing` (
	`category_id` text NOT NULL,
	`product_id` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name` text NOT NULL,
	`price` integer NOT NULL,
	`sku` text,
	PRIMARY KEY(`product_id`, `category_id`)
);
--> statement-breakpoint
CREATE INDEX `category_listing_created_idx` ON `category_listing` (`category_id`,`status`,`created_at`,`product_id`);--> statement-breakpoint
CREATE INDEX `category_listing_updated_idx` ON `category_listing` (`category_id`,`status`,`updated_at`,`product_id`);--> statement-breakpoint
CREATE INDEX `category_listing_name_idx` ON `category_listing` (`category_id`,`status`,`name`,`product_id`);--> statement-breakpoint
CREATE INDEX `category_listing_price_idx` ON `category_listing` (`category_id`,`status`,`price`,`product_id`);--> statement-breakpoint
CREATE INDEX `category_listing_sku_idx` ON `category_listing` (`category_id`,`status`,`sku`,`product_id`);--> statement-breakpoint
CREATE INDEX `category_listing_id_idx` ON `category_listing` (`category_id`,`status`,`product_id`);