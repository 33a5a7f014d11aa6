CREATE TABLE `tax_classes` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
DROP INDEX `tax_rates_place_idx`;--> statement-breakpoint
ALTER TABLE `tax_rates` ADD `tax_class` text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tax_rates_place_class_idx` ON `tax_rates` (`country`,coalesce(`region`, ''),`tax_class`);--> statement-breakpoint
ALTER TABLE `product_variants` ADD `prices` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `tax_class` text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `prices` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `coupons` ADD `currency_amounts` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `currencies` ADD `prices_include_tax` integer;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `tax_rate` text;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `tax_class` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `prices_include_tax` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_tax` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `shipping_tax_rate` text;--> statement-breakpoint
ALTER TABLE `shipping_methods` ADD `currency_rates` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `store_settings` ADD `prices_include_tax` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Every store has the standard class (what every product and rate so far is), the reduced rate most
-- of Europe charges on books and food, and zero (never taxed: exports, exempt goods).
INSERT INTO `tax_classes` (`code`, `name`) VALUES ('standard', 'Standard rate'), ('reduced', 'Reduced rate'), ('zero', 'Zero rate');
--> statement-breakpoint
-- A class a product still names cannot go (the API answers 409 first; this holds under a race).
CREATE TRIGGER `tax_classes_in_use` BEFORE DELETE ON `tax_classes`
BEGIN
  SELECT RAISE(ABORT, 'tax_class_in_use') WHERE EXISTS (SELECT 1 FROM `products` WHERE `tax_class` = OLD.`code`);
END;
--> statement-breakpoint
-- A class's rates go with it.
CREATE TRIGGER `tax_classes_delete_rates` AFTER DELETE ON `tax_classes`
BEGIN
  DELETE FROM `tax_rates` WHERE `tax_class` = OLD.`code`;
END;
--> statement-breakpoint
-- Quotes read the product's tax class and the variant's own prices (migrations/0021_order_guards.sql).
DROP TRIGGER IF EXISTS `products_bump_quote_update`;
--> statement-breakpoint
CREATE TRIGGER `products_bump_quote_update` AFTER UPDATE OF `id`, `name`, `status`, `vendor_id`, `tax_class` ON `products`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `product_variants_bump_quote_update`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_quote_update` AFTER UPDATE OF `id`, `product_id`, `name`, `sku`, `options`, `price`, `weight`, `prices` ON `product_variants`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
-- Variants' own prices in products.related (migrations/0014_product_related.sql); every value is {}
-- until a shop sets one, and a variant without the key reads as {} (toVariant), so nothing is rebuilt now.
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
        'price', v.`price`, 'compareAtPrice', v.`compare_at_price`, 'weight', v.`weight`, 'prices', json(v.`prices`), 'stock', v.`stock`, 'lowStockThreshold', v.`low_stock_threshold`,
        'position', v.`position`, 'createdAt', v.`created_at`, 'updatedAt', v.`updated_at`) ORDER BY v.`position`, v.`id`)
      FROM `product_variants` v WHERE v.`product_id` = `products`.`id`))
  ) WHERE `id` = NEW.`product_id`;
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `product_variants_related_update`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_update` AFTER UPDATE OF `id`, `product_id`, `sku`, `name`, `options`, `price`, `compare_at_price`, `weight`, `prices`, `low_stock_threshold`, `position`, `created_at` ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;
