-- Kept counts for the facets of a product list (src/modules/products/products.facets.ts): products
-- of each status per brand, and per price bucket (the bucket's index; its bounds, in minor units,
-- are PRICE_BUCKETS there and must match the CASE below). Counts may reach 0 and stay as rows.
CREATE TABLE `product_facet_counts` (
	`facet` text NOT NULL,
	`key` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`facet`, `status`, `key`)
);

--> statement-breakpoint
INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`)
  SELECT 'brand', `brand_id`, `status`, count(*) FROM `products` WHERE `brand_id` IS NOT NULL GROUP BY `brand_id`, `status`;
--> statement-breakpoint
INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`)
  SELECT 'price', CASE WHEN products.`price` < 1000 THEN '0' WHEN products.`price` < 2500 THEN '1' WHEN products.`price` < 5000 THEN '2' WHEN products.`price` < 10000 THEN '3' WHEN products.`price` < 25000 THEN '4' WHEN products.`price` < 50000 THEN '5' ELSE '6' END, `status`, count(*) FROM `products` GROUP BY 2, `status`;
--> statement-breakpoint
CREATE TRIGGER `product_facet_counts_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', NEW.`brand_id`, NEW.`status`, 1 WHERE NEW.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN NEW.`price` < 1000 THEN '0' WHEN NEW.`price` < 2500 THEN '1' WHEN NEW.`price` < 5000 THEN '2' WHEN NEW.`price` < 10000 THEN '3' WHEN NEW.`price` < 25000 THEN '4' WHEN NEW.`price` < 50000 THEN '5' ELSE '6' END, NEW.`status`, 1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_facet_counts_update` AFTER UPDATE OF `status`, `brand_id`, `price` ON `products`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`brand_id` IS NOT NEW.`brand_id` OR (CASE WHEN OLD.`price` < 1000 THEN '0' WHEN OLD.`price` < 2500 THEN '1' WHEN OLD.`price` < 5000 THEN '2' WHEN OLD.`price` < 10000 THEN '3' WHEN OLD.`price` < 25000 THEN '4' WHEN OLD.`price` < 50000 THEN '5' ELSE '6' END) IS NOT (CASE WHEN NEW.`price` < 1000 THEN '0' WHEN NEW.`price` < 2500 THEN '1' WHEN NEW.`price` < 5000 THEN '2' WHEN NEW.`price` < 10000 THEN '3' WHEN NEW.`price` < 25000 THEN '4' WHEN NEW.`price` < 50000 THEN '5' ELSE '6' END)
BEGIN
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', OLD.`brand_id`, OLD.`status`, -1 WHERE OLD.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN OLD.`price` < 1000 THEN '0' WHEN OLD.`price` < 2500 THEN '1' WHEN OLD.`price` < 5000 THEN '2' WHEN OLD.`price` < 10000 THEN '3' WHEN OLD.`price` < 25000 THEN '4' WHEN OLD.`price` < 50000 THEN '5' ELSE '6' END, OLD.`status`, -1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', NEW.`brand_id`, NEW.`status`, 1 WHERE NEW.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN NEW.`price` < 1000 THEN '0' WHEN NEW.`price` < 2500 THEN '1' WHEN NEW.`price` < 5000 THEN '2' WHEN NEW.`price` < 10000 THEN '3' WHEN NEW.`price` < 25000 THEN '4' WHEN NEW.`price` < 50000 THEN '5' ELSE '6' END, NEW.`status`, 1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_facet_counts_delete` AFTER DELETE ON `products`
BEGIN
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) SELECT 'brand', OLD.`brand_id`, OLD.`status`, -1 WHERE OLD.`brand_id` IS NOT NULL
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
  INSERT INTO `product_facet_counts` (`facet`, `key`, `status`, `count`) VALUES ('price', CASE WHEN OLD.`price` < 1000 THEN '0' WHEN OLD.`price` < 2500 THEN '1' WHEN OLD.`price` < 5000 THEN '2' WHEN OLD.`price` < 10000 THEN '3' WHEN OLD.`price` < 25000 THEN '4' WHEN OLD.`price` < 50000 THEN '5' ELSE '6' END, OLD.`status`, -1)
    ON CONFLICT (`facet`, `status`, `key`) DO UPDATE SET `count` = `count` + excluded.`count`;
END;
