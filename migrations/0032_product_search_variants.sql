-- The search index's update trigger (0030) compared each product's variant names and SKUs inside
-- products.related before and after every update, and every order's stock change rewrites related:
-- 14 more rows read per order in the bench (json_each over both versions). Variant names and SKUs
-- now come from product_variants, re-indexed by triggers on variants when a name or SKU changes (or
-- a variant comes or goes); the products trigger compares only its own text, the brand's name and
-- the categories (as JSON text: no rows read), so a stock change reads nothing more.
DROP TRIGGER `product_search_update`;
--> statement-breakpoint
DROP TRIGGER `product_search_insert`;
--> statement-breakpoint
CREATE TRIGGER `product_search_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_search_rows` (`product_id`) VALUES (NEW.`id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) VALUES ((SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`), NEW.`name`, trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), '')), coalesce(json_extract(NEW.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), ''), coalesce(NEW.`description`, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_update` AFTER UPDATE OF `name`, `description`, `sku`, `related` ON `products`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description` OR OLD.`sku` IS NOT NEW.`sku`
  OR json_extract(OLD.`related`, '$.brand.name') IS NOT json_extract(NEW.`related`, '$.brand.name')
  OR json_extract(OLD.`related`, '$.categories') IS NOT json_extract(NEW.`related`, '$.categories')
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) VALUES ((SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`), NEW.`name`, trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), '')), coalesce(json_extract(NEW.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = NEW.`id`), ''), coalesce(NEW.`description`, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_variant_insert` AFTER INSERT ON `product_variants`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`product_id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = p.`id`), p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), ''), coalesce(p.`description`, '') FROM `products` p WHERE p.`id` = NEW.`product_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_variant_update` AFTER UPDATE OF `name`, `sku`, `product_id` ON `product_variants`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`sku` IS NOT NEW.`sku` OR OLD.`product_id` IS NOT NEW.`product_id`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`product_id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = p.`id`), p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), ''), coalesce(p.`description`, '') FROM `products` p WHERE p.`id` = NEW.`product_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_variant_delete` AFTER DELETE ON `product_variants`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = OLD.`product_id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = p.`id`), p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(v.`sku`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(v.`name`, ' ') FROM `product_variants` v WHERE v.`product_id` = p.`id`), ''), coalesce(p.`description`, '') FROM `products` p WHERE p.`id` = OLD.`product_id`;
END;
