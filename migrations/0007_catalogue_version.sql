-- The catalogue's version: one row, bumped by a trigger on every write to anything a public
-- catalogue read shows (products, variants and their stock, category links, categories, brands,
-- vendors), so writers need not remember it (orders decrementing stock included). Public reads use
-- it as their ETag, and answer a matching If-None-Match after reading only this row.
CREATE TABLE `catalogue_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `catalogue_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `products_bump_catalogue_insert` AFTER INSERT ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_bump_catalogue_update` AFTER UPDATE ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_bump_catalogue_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_catalogue_insert` AFTER INSERT ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_catalogue_update` AFTER UPDATE ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_catalogue_delete` AFTER DELETE ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_catalogue_insert` AFTER INSERT ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_catalogue_update` AFTER UPDATE ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_catalogue_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_catalogue_insert` AFTER INSERT ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_catalogue_update` AFTER UPDATE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_catalogue_delete` AFTER DELETE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `brands_bump_catalogue_insert` AFTER INSERT ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `brands_bump_catalogue_update` AFTER UPDATE ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `brands_bump_catalogue_delete` AFTER DELETE ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `vendors_bump_catalogue_insert` AFTER INSERT ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `vendors_bump_catalogue_update` AFTER UPDATE ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `vendors_bump_catalogue_delete` AFTER DELETE ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
