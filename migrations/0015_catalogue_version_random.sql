-- The catalogue version becomes a random 53-bit number instead of a counter: the isolates keep
-- rendered answers per version (src/middleware/catalogue-cache.ts), and a counter can show the same
-- number twice with different contents after the database is restored to an earlier point (D1 Time
-- Travel), which would serve a stale answer. 2^53 - 1 keeps it exact as a JavaScript number.
DROP TRIGGER `products_bump_catalogue_insert`;
--> statement-breakpoint
CREATE TRIGGER `products_bump_catalogue_insert` AFTER INSERT ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `products_bump_catalogue_update`;
--> statement-breakpoint
CREATE TRIGGER `products_bump_catalogue_update` AFTER UPDATE ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `products_bump_catalogue_delete`;
--> statement-breakpoint
CREATE TRIGGER `products_bump_catalogue_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `product_variants_bump_catalogue_insert`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_catalogue_insert` AFTER INSERT ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `product_variants_bump_catalogue_update`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_catalogue_update` AFTER UPDATE ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `product_variants_bump_catalogue_delete`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_bump_catalogue_delete` AFTER DELETE ON `product_variants`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `product_categories_bump_catalogue_insert`;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_catalogue_insert` AFTER INSERT ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `product_categories_bump_catalogue_update`;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_catalogue_update` AFTER UPDATE ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `product_categories_bump_catalogue_delete`;
--> statement-breakpoint
CREATE TRIGGER `product_categories_bump_catalogue_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `categories_bump_catalogue_insert`;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_catalogue_insert` AFTER INSERT ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `categories_bump_catalogue_update`;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_catalogue_update` AFTER UPDATE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `categories_bump_catalogue_delete`;
--> statement-breakpoint
CREATE TRIGGER `categories_bump_catalogue_delete` AFTER DELETE ON `categories`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `brands_bump_catalogue_insert`;
--> statement-breakpoint
CREATE TRIGGER `brands_bump_catalogue_insert` AFTER INSERT ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `brands_bump_catalogue_update`;
--> statement-breakpoint
CREATE TRIGGER `brands_bump_catalogue_update` AFTER UPDATE ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `brands_bump_catalogue_delete`;
--> statement-breakpoint
CREATE TRIGGER `brands_bump_catalogue_delete` AFTER DELETE ON `brands`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `vendors_bump_catalogue_insert`;
--> statement-breakpoint
CREATE TRIGGER `vendors_bump_catalogue_insert` AFTER INSERT ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `vendors_bump_catalogue_update`;
--> statement-breakpoint
CREATE TRIGGER `vendors_bump_catalogue_update` AFTER UPDATE ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
DROP TRIGGER `vendors_bump_catalogue_delete`;
--> statement-breakpoint
CREATE TRIGGER `vendors_bump_catalogue_delete` AFTER DELETE ON `vendors`
BEGIN
  UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
--> statement-breakpoint
UPDATE `catalogue_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
