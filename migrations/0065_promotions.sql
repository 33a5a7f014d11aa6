CREATE TABLE `promotion_usages` (
	`id` text PRIMARY KEY NOT NULL,
	`promotion_id` text NOT NULL,
	`order_id` text NOT NULL,
	`customer_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`promotion_id`) REFERENCES `promotions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `promotion_usages_customer_idx` ON `promotion_usages` (`promotion_id`,`customer_key`);--> statement-breakpoint
CREATE TABLE `promotions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`code` text,
	`type` text NOT NULL,
	`value` text DEFAULT '0' NOT NULL,
	`currency_amounts` text DEFAULT '{}' NOT NULL,
	`target` text DEFAULT 'order' NOT NULL,
	`buy_x_get_y` text,
	`free_shipping` text,
	`min_subtotal` integer,
	`min_quantity` integer,
	`include` text DEFAULT '{"productIds":[],"categoryIds":[],"brandIds":[]}' NOT NULL,
	`exclude` text DEFAULT '{"productIds":[],"categoryIds":[],"brandIds":[]}' NOT NULL,
	`customer_group_ids` text DEFAULT '[]' NOT NULL,
	`currencies` text DEFAULT '[]' NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`usage_limit` integer,
	`per_customer_limit` integer,
	`times_used` integer DEFAULT 0 NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`combines_with_promotions` integer DEFAULT false NOT NULL,
	`combines_with_codes` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promotions_code_unique` ON `promotions` (`code`);--> statement-breakpoint
CREATE INDEX `promotions_created_idx` ON `promotions` (`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `carts` ADD `promotion_id` text;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `promotions` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Promotions are quote inputs (src/modules/orders/quote-inputs.ts): any change but an order's use
-- (`times_used`) moves quote_version, so no order is priced from promotions that changed.
CREATE TRIGGER `promotions_bump_quote_insert` AFTER INSERT ON `promotions`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `promotions_bump_quote_update` AFTER UPDATE OF `id`, `name`, `code`, `type`, `value`, `currency_amounts`, `target`, `buy_x_get_y`, `free_shipping`, `min_subtotal`, `min_quantity`, `include`, `exclude`, `customer_group_ids`, `currencies`, `starts_at`, `ends_at`, `usage_limit`, `per_customer_limit`, `priority`, `combines_with_promotions`, `combines_with_codes`, `active` ON `promotions`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `promotions_bump_quote_delete` AFTER DELETE ON `promotions`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
-- Usage limits, enforced in the order's batch as for coupons (0005_commerce_rules.sql).
CREATE TRIGGER `promotions_usage_guard` BEFORE UPDATE OF `times_used` ON `promotions`
WHEN NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` > NEW.`usage_limit`
BEGIN
  SELECT RAISE(ABORT, 'guard:promotion_usage_limit');
END;
--> statement-breakpoint
CREATE TRIGGER `promotion_usages_customer_guard` BEFORE INSERT ON `promotion_usages`
WHEN (SELECT `per_customer_limit` FROM `promotions` WHERE `id` = NEW.`promotion_id`) IS NOT NULL
  AND (SELECT count(*) FROM `promotion_usages` WHERE `promotion_id` = NEW.`promotion_id` AND `customer_key` = NEW.`customer_key`)
    >= (SELECT `per_customer_limit` FROM `promotions` WHERE `id` = NEW.`promotion_id`)
BEGIN
  SELECT RAISE(ABORT, 'guard:promotion_customer_limit');
END;
--> statement-breakpoint
-- Quotes now read the lines' categories (with their ancestors) and brands, for promotions limited to
-- some: changing them moves quote_version too, so kept inputs never match a product by old ones.
CREATE TRIGGER `product_categories_bump_quote_insert` AFTER INSERT ON `product_categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_quote_update` AFTER UPDATE ON `product_categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_quote_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_quote_parent` AFTER UPDATE OF `parent_id` ON `categories`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_bump_quote_brand` AFTER UPDATE OF `brand_id` ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
