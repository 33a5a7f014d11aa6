CREATE TABLE `category_product_counts` (
	`category_id` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`category_id`, `status`)
);
--> statement-breakpoint
CREATE TABLE `category_tree` (
	`ancestor_id` text NOT NULL,
	`descendant_id` text NOT NULL,
	PRIMARY KEY(`ancestor_id`, `descendant_id`)
);
--> statement-breakpoint
CREATE INDEX `category_tree_descendant_idx` ON `category_tree` (`descendant_id`,`ancestor_id`);--> statement-breakpoint
CREATE TABLE `product_related_refresh` (
	`product_id` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `products` ADD `related` text DEFAULT '{"brand":null,"vendor":null,"categories":[],"variants":[]}' NOT NULL;
--> statement-breakpoint
-- A product's brand, vendor, categories and variants as one JSON value on its row (products.related),
-- so a page of products is one read of its rows instead of five. Kept by triggers: every write that
-- changes what a product shows inserts its id into product_related_refresh, whose BEFORE INSERT
-- trigger rebuilds the value and drops the insert (RAISE(IGNORE)), so that table stays empty and the
-- rebuild is written once. Variants keep the row shape of product_variants (camelCase, minor units).
CREATE TRIGGER `product_related_refresh_apply` BEFORE INSERT ON `product_related_refresh`
BEGIN
  UPDATE `products` SET `related` = json_object(
    'brand', json((SELECT json_object('id', b.`id`, 'name', b.`name`, 'slug', b.`slug`) FROM `brands` b WHERE b.`id` = `products`.`brand_id`)),
    'vendor', json((SELECT json_object('id', v.`id`, 'name', v.`name`, 'slug', v.`slug`) FROM `vendors` v WHERE v.`id` = `products`.`vendor_id`)),
    'categories', json((SELECT json_group_array(json_object('id', c.`id`, 'name', c.`name`, 'slug', c.`slug`) ORDER BY c.`name`, c.`id`)
      FROM `product_categories` pc JOIN `categories` c ON c.`id` = pc.`category_id` WHERE pc.`product_id` = `products`.`id`)),
    'variants', json((SELECT json_group_array(json_object(
        'id', v.`id`, 'productId', v.`product_id`, 'sku', v.`sku`, 'name', v.`name`, 'options', json(v.`options`),
        'price', v.`price`, 'compareAtPrice', v.`compare_at_price`, 'stock', v.`stock`, 'lowStockThreshold', v.`low_stock_threshold`,
        'position', v.`position`, 'createdAt', v.`created_at`, 'updatedAt', v.`updated_at`) ORDER BY v.`position`, v.`id`)
      FROM `product_variants` v WHERE v.`product_id` = `products`.`id`))
  ) WHERE `id` = NEW.`product_id`;
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
CREATE TRIGGER `products_related_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `products_related_refs` AFTER UPDATE OF `brand_id`, `vendor_id` ON `products`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_insert` AFTER INSERT ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_update` AFTER UPDATE ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_delete` AFTER DELETE ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (OLD.`product_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_related_insert` AFTER INSERT ON `product_categories`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_related_delete` AFTER DELETE ON `product_categories`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (OLD.`product_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `categories_related` AFTER UPDATE OF `name`, `slug` ON `categories`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) SELECT `product_id` FROM `product_categories` WHERE `category_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `brands_related` AFTER UPDATE OF `name`, `slug` ON `brands`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) SELECT `id` FROM `products` WHERE `brand_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `vendors_related` AFTER UPDATE OF `name`, `slug` ON `vendors`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) SELECT `id` FROM `products` WHERE `vendor_id` = NEW.`id`;
END;
--> statement-breakpoint
INSERT INTO `product_related_refresh` (`product_id`) SELECT `id` FROM `products`;
--> statement-breakpoint
-- Category filters without scanning the category: category_tree holds every (ancestor, descendant)
-- pair, the category itself included, and category_product_counts how many distinct products of
-- each status a category and its descendants hold, so `?category=x` walks the sort's index probing
-- membership and takes its total from one row per status. Kept by triggers on categories, links and
-- product status. Moving a category recounts everything (rare; a store has hundreds of categories).
CREATE TRIGGER `categories_tree_insert` AFTER INSERT ON `categories`
BEGIN
  INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`) VALUES (NEW.`id`, NEW.`id`);
  INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`)
    SELECT `ancestor_id`, NEW.`id` FROM `category_tree` WHERE `descendant_id` = NEW.`parent_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_tree_move` AFTER UPDATE OF `parent_id` ON `categories`
WHEN OLD.`parent_id` IS NOT NEW.`parent_id`
BEGIN
  DELETE FROM `category_tree`
    WHERE `descendant_id` IN (SELECT `descendant_id` FROM `category_tree` WHERE `ancestor_id` = NEW.`id`)
      AND `ancestor_id` NOT IN (SELECT `descendant_id` FROM `category_tree` WHERE `ancestor_id` = NEW.`id`);
  INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`)
    SELECT a.`ancestor_id`, s.`descendant_id` FROM `category_tree` a, `category_tree` s
    WHERE a.`descendant_id` = NEW.`parent_id` AND s.`ancestor_id` = NEW.`id`;
  DELETE FROM `category_product_counts`;
  INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
    SELECT t.`ancestor_id`, p.`status`, count(DISTINCT p.`id`)
    FROM `category_tree` t JOIN `product_categories` pc ON pc.`category_id` = t.`descendant_id` JOIN `products` p ON p.`id` = pc.`product_id`
    GROUP BY t.`ancestor_id`, p.`status`;
END;
--> statement-breakpoint
-- Links go first, while the tree still knows the category (their trigger counts them out).
CREATE TRIGGER `categories_tree_delete_links` BEFORE DELETE ON `categories`
BEGIN
  DELETE FROM `product_categories` WHERE `category_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_tree_delete` AFTER DELETE ON `categories`
BEGIN
  DELETE FROM `category_tree` WHERE `ancestor_id` = OLD.`id` OR `descendant_id` = OLD.`id`;
  DELETE FROM `category_product_counts` WHERE `category_id` = OLD.`id`;
END;
--> statement-breakpoint
-- A link counts the product in every ancestor that did not hold it through another link already.
CREATE TRIGGER `product_categories_count_insert` AFTER INSERT ON `product_categories`
BEGIN
  INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
    SELECT t.`ancestor_id`, p.`status`, 1 FROM `category_tree` t JOIN `products` p ON p.`id` = NEW.`product_id`
    WHERE t.`descendant_id` = NEW.`category_id`
      AND NOT EXISTS (
        SELECT 1 FROM `product_categories` pc JOIN `category_tree` t2 ON t2.`descendant_id` = pc.`category_id`
        WHERE pc.`product_id` = NEW.`product_id` AND pc.`category_id` <> NEW.`category_id` AND t2.`ancestor_id` = t.`ancestor_id`
      )
    ON CONFLICT (`category_id`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_count_delete` AFTER DELETE ON `product_categories`
BEGIN
  UPDATE `category_product_counts` SET `count` = `count` - 1
    WHERE `status` = (SELECT `status` FROM `products` WHERE `id` = OLD.`product_id`)
      AND `category_id` IN (
        SELECT t.`ancestor_id` FROM `category_tree` t
        WHERE t.`descendant_id` = OLD.`category_id`
          AND NOT EXISTS (
            SELECT 1 FROM `product_categories` pc JOIN `category_tree` t2 ON t2.`descendant_id` = pc.`category_id`
            WHERE pc.`product_id` = OLD.`product_id` AND t2.`ancestor_id` = t.`ancestor_id`
          )
      );
END;
--> statement-breakpoint
CREATE TRIGGER `products_category_counts_status` AFTER UPDATE OF `status` ON `products`
WHEN OLD.`status` IS NOT NEW.`status`
BEGIN
  UPDATE `category_product_counts` SET `count` = `count` - 1
    WHERE `status` = OLD.`status` AND `category_id` IN (
      SELECT t.`ancestor_id` FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` WHERE pc.`product_id` = NEW.`id`
    );
  INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
    SELECT DISTINCT t.`ancestor_id`, NEW.`status`, 1
    FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` WHERE pc.`product_id` = NEW.`id`
    ON CONFLICT (`category_id`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
-- A deleted product leaves the counts before it goes (its links still name its categories). The cascade
-- that then deletes its links runs after the row is gone, so their trigger finds no status and counts nothing.
CREATE TRIGGER `products_category_counts_delete` BEFORE DELETE ON `products`
BEGIN
  UPDATE `category_product_counts` SET `count` = `count` - 1
    WHERE `status` = OLD.`status` AND `category_id` IN (
      SELECT t.`ancestor_id` FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` WHERE pc.`product_id` = OLD.`id`
    );
END;
--> statement-breakpoint
INSERT INTO `category_tree` (`ancestor_id`, `descendant_id`)
  WITH RECURSIVE t(`ancestor_id`, `descendant_id`) AS (
    SELECT `id`, `id` FROM `categories`
    UNION SELECT t.`ancestor_id`, c.`id` FROM t JOIN `categories` c ON c.`parent_id` = t.`descendant_id`
  )
  SELECT `ancestor_id`, `descendant_id` FROM t;
--> statement-breakpoint
INSERT INTO `category_product_counts` (`category_id`, `status`, `count`)
  SELECT t.`ancestor_id`, p.`status`, count(DISTINCT p.`id`)
  FROM `category_tree` t JOIN `product_categories` pc ON pc.`category_id` = t.`descendant_id` JOIN `products` p ON p.`id` = pc.`product_id`
  GROUP BY t.`ancestor_id`, p.`status`;
