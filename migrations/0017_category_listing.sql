-- category_listing: one row per (category, product) for every product linked to the category or to
-- any of its descendants (product_categories expanded through category_tree, each pair once), with
-- the product's status and sort columns copied, so `?category=x&sort=...` reads the page off an index
-- (category_id, status, <sort column>, product_id) instead of walking every product and probing its
-- links. Kept by triggers on the three tables it is made of: a link, a tree pair or a product's
-- columns changing each fix only the rows they touch, and a row leaves only when no other link
-- still places the product under that category. Derived data: never written by the application.
CREATE TRIGGER `category_listing_link_insert` AFTER INSERT ON `product_categories`
BEGIN
  INSERT INTO `category_listing` (`category_id`, `product_id`, `status`, `created_at`, `updated_at`, `name`, `price`, `sku`)
    SELECT t.`ancestor_id`, p.`id`, p.`status`, p.`created_at`, p.`updated_at`, p.`name`, p.`price`, p.`sku`
    FROM `category_tree` t JOIN `products` p ON p.`id` = NEW.`product_id`
    WHERE t.`descendant_id` = NEW.`category_id`
    ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `category_listing_link_delete` AFTER DELETE ON `product_categories`
BEGIN
  DELETE FROM `category_listing`
    WHERE `product_id` = OLD.`product_id`
      AND `category_id` IN (SELECT `ancestor_id` FROM `category_tree` WHERE `descendant_id` = OLD.`category_id`)
      AND NOT EXISTS (
        SELECT 1 FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id`
        WHERE pc.`product_id` = OLD.`product_id` AND t.`ancestor_id` = `category_listing`.`category_id`
      );
END;
--> statement-breakpoint
-- A link is a pair: the API deletes and inserts links, never changes one in place, and neither the
-- listing nor the counts and products.related (migration 0014) would follow an UPDATE. Refused.
CREATE TRIGGER `product_categories_no_update` BEFORE UPDATE ON `product_categories`
BEGIN
  SELECT RAISE(ABORT, 'product_categories rows are not updated: delete the link and insert the new one');
END;
--> statement-breakpoint
-- The tree's pairs change when a category is created, moved or deleted (migration 0014's triggers):
-- each pair added or removed carries the products linked to its descendant in or out of its ancestor.
-- Being row triggers on category_tree, they see the tree as it is at that pair, whatever the order
-- in which SQLite runs the triggers of the categories write.
CREATE TRIGGER `category_listing_tree_insert` AFTER INSERT ON `category_tree`
BEGIN
  INSERT INTO `category_listing` (`category_id`, `product_id`, `status`, `created_at`, `updated_at`, `name`, `price`, `sku`)
    SELECT NEW.`ancestor_id`, p.`id`, p.`status`, p.`created_at`, p.`updated_at`, p.`name`, p.`price`, p.`sku`
    FROM `product_categories` pc JOIN `products` p ON p.`id` = pc.`product_id`
    WHERE pc.`category_id` = NEW.`descendant_id`
    ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `category_listing_tree_delete` AFTER DELETE ON `category_tree`
BEGIN
  DELETE FROM `category_listing`
    WHERE `category_id` = OLD.`ancestor_id`
      AND `product_id` IN (SELECT `product_id` FROM `product_categories` WHERE `category_id` = OLD.`descendant_id`)
      AND NOT EXISTS (
        SELECT 1 FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id`
        WHERE pc.`product_id` = `category_listing`.`product_id` AND t.`ancestor_id` = OLD.`ancestor_id`
      );
END;
--> statement-breakpoint
-- A product's status and sort columns follow it into every row it has (not `related`, which the
-- product_related_refresh trigger rewrites on its own).
CREATE TRIGGER `category_listing_product_update` AFTER UPDATE OF `status`, `created_at`, `updated_at`, `name`, `price`, `sku` ON `products`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`created_at` IS NOT NEW.`created_at` OR OLD.`updated_at` IS NOT NEW.`updated_at`
  OR OLD.`name` IS NOT NEW.`name` OR OLD.`price` IS NOT NEW.`price` OR OLD.`sku` IS NOT NEW.`sku`
BEGIN
  UPDATE `category_listing`
    SET `status` = NEW.`status`, `created_at` = NEW.`created_at`, `updated_at` = NEW.`updated_at`,
        `name` = NEW.`name`, `price` = NEW.`price`, `sku` = NEW.`sku`
    WHERE `product_id` = NEW.`id`;
END;
--> statement-breakpoint
-- Its links go by cascade, after the row: their trigger finds nothing left to remove, or this one
-- removes it.
CREATE TRIGGER `category_listing_product_delete` AFTER DELETE ON `products`
BEGIN
  DELETE FROM `category_listing` WHERE `product_id` = OLD.`id`;
END;
--> statement-breakpoint
INSERT INTO `category_listing` (`category_id`, `product_id`, `status`, `created_at`, `updated_at`, `name`, `price`, `sku`)
  SELECT t.`ancestor_id`, p.`id`, p.`status`, p.`created_at`, p.`updated_at`, p.`name`, p.`price`, p.`sku`
  FROM `product_categories` pc JOIN `category_tree` t ON t.`descendant_id` = pc.`category_id` JOIN `products` p ON p.`id` = pc.`product_id`
  WHERE true
  ON CONFLICT DO NOTHING;
