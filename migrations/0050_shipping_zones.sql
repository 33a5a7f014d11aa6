CREATE TABLE `shipping_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`name` text NOT NULL,
	`carrier` text,
	`min_delivery_days` integer,
	`max_delivery_days` integer,
	`active` integer DEFAULT true NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`rate` text NOT NULL,
	`free_above` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`zone_id`) REFERENCES `shipping_zones`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipping_methods_zone_idx` ON `shipping_methods` (`zone_id`,`position`);--> statement-breakpoint
CREATE TABLE `shipping_zones` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`countries` text DEFAULT '[]' NOT NULL,
	`regions` text DEFAULT '[]' NOT NULL,
	`postcodes` text DEFAULT '[]' NOT NULL,
	`rest_of_world` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipping_zones_rest_of_world_idx` ON `shipping_zones` (`rest_of_world`) WHERE "shipping_zones"."rest_of_world" = 1;--> statement-breakpoint
ALTER TABLE `carts` ADD `shipping_method_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_method_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_method_name` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_method_carrier` text;--> statement-breakpoint
ALTER TABLE `product_variants` ADD `weight` real;--> statement-breakpoint
ALTER TABLE `shipments` ADD `shipping_method_id` text;--> statement-breakpoint
-- Every existing store keeps pricing as before: one rest-of-world zone with one flat method at the
-- settings' flat rate and free-shipping threshold. These fixed ids are what the deprecated settings
-- fields shippingFlatRate / freeShippingThreshold read and write (src/modules/shipping/legacy-settings.ts).
INSERT INTO `shipping_zones` (`id`, `name`, `rest_of_world`) VALUES ('szone_everywhere', 'Everywhere', 1);
--> statement-breakpoint
INSERT INTO `shipping_methods` (`id`, `zone_id`, `name`, `rate`, `free_above`)
SELECT 'smeth_standard', 'szone_everywhere', 'Standard', json_object('type', 'flat', 'amount', `shipping_flat_rate`), `free_shipping_threshold`
FROM `store_settings` WHERE `id` = 'store';
--> statement-breakpoint
-- Quotes read zones, methods and variant weights: a change to any of them moves quote_version
-- (migrations/0021_order_guards.sql), so inputs an isolate kept are never priced at an old rate.
CREATE TRIGGER `shipping_zones_bump_quote_insert` AFTER INSERT ON `shipping_zones`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipping_zones_bump_quote_update` AFTER UPDATE ON `shipping_zones`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipping_zones_bump_quote_delete` AFTER DELETE ON `shipping_zones`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipping_methods_bump_quote_insert` AFTER INSERT ON `shipping_methods`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipping_methods_bump_quote_update` AFTER UPDATE ON `shipping_methods`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipping_methods_bump_quote_delete` AFTER DELETE ON `shipping_methods`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `product_variants_bump_quote_update`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_quote_update` AFTER UPDATE OF `id`, `product_id`, `name`, `sku`, `options`, `price`, `weight` ON `product_variants`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;

--> statement-breakpoint
-- Variants' weight in products.related (migrations/0014_product_related.sql): the rebuild writes it
-- and a change of it rebuilds. Products are not rebuilt now: every weight is null until set, and a
-- variant without the key reads as null (toVariant).
DROP TRIGGER IF EXISTS `product_related_refresh_apply`;
--> statement-breakpoint
CREATE TRIGGER `product_related_refresh_apply` BEFORE INSERT ON `product_related_refresh`
BEGIN
  UPDATE `products` SET `related` = json_object(
    'brand', json((SELECT json_object('id', b.`id`, 'name', b.`name`, 'slug', b.`slug`) FROM `brands` b WHERE b.`id` = `products`.`brand_id`)),
    'vendor', json((SELECT json_object('id', v.`id`, 'name', v.`name`, 'slug', v.`slug`) FROM `vendors` v WHERE v.`id` = `products`.`vendor_id`)),
    'categories', json((SELECT json_group_array(json_object('id', c.`id`, 'name', c.`name`, 'slug', c.`slug`) ORDER BY c.`name`, c.`id`)
      FROM `product_categories` pc JOIN `categories` c ON c.`id` = pc.`category_id` WHERE pc.`product_id` = `products`.`id`)),
    'variants', json((SELECT json_group_array(json_object(
        'id', v.`id`, 'productId', v.`product_id`, 'sku', v.`sku`, 'name', v.`name`, 'options', json(v.`options`),
        'price', v.`price`, 'compareAtPrice', v.`compare_at_price`, 'weight', v.`weight`, 'stock', v.`stock`, 'lowStockThreshold', v.`low_stock_threshold`,
        'position', v.`position`, 'createdAt', v.`created_at`, 'updatedAt', v.`updated_at`) ORDER BY v.`position`, v.`id`)
      FROM `product_variants` v WHERE v.`product_id` = `products`.`id`))
  ) WHERE `id` = NEW.`product_id`;
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `product_variants_related_update`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_update` AFTER UPDATE OF `id`, `product_id`, `sku`, `name`, `options`, `price`, `compare_at_price`, `weight`, `low_stock_threshold`, `position`, `created_at` ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;
