-- Full-text search of products (src/modules/products/products.search.ts): an FTS5 table over each
-- product's name, SKUs (its own and its variants'), brand, category names, variant names and
-- description, with diacritics folded (`cafe` finds "Café") and prefix indexes for 2 and 3
-- characters (search-as-you-type). Its rank is bm25 weighting a name match above a SKU, brand or
-- category match, and those above the description. Everything it holds comes from the products row
-- (names of brand, categories and variants are in products.related, kept by the triggers of 0014),
-- so triggers on products alone keep it; an update re-indexes the product only when its text
-- changed, not on the stock changes every order makes to products.related.
CREATE TABLE `product_search_rows` (
	`doc` integer PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_search_rows_product_id_unique` ON `product_search_rows` (`product_id`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `product_search` USING fts5(`name`, `skus`, `brand`, `categories`, `variants`, `description`, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
INSERT INTO `product_search` (`product_search`, `rank`) VALUES ('rank', 'bm25(10.0, 6.0, 3.0, 3.0, 2.0, 1.0)');
--> statement-breakpoint
INSERT INTO `product_search_rows` (`product_id`) SELECT `id` FROM `products` ORDER BY `id`;
--> statement-breakpoint
INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) SELECT r.`doc`, p.`name`, trim(coalesce(p.`sku`, '') || ' ' || coalesce((SELECT group_concat(json_extract(`value`, '$.sku'), ' ') FROM json_each(p.`related`, '$.variants')), '')), coalesce(json_extract(p.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.categories')), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(p.`related`, '$.variants')), ''), coalesce(p.`description`, '') FROM `products` p JOIN `product_search_rows` r ON r.`product_id` = p.`id`;
--> statement-breakpoint
CREATE TRIGGER `product_search_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_search_rows` (`product_id`) VALUES (NEW.`id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) VALUES ((SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`), NEW.`name`, trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(json_extract(`value`, '$.sku'), ' ') FROM json_each(NEW.`related`, '$.variants')), '')), coalesce(json_extract(NEW.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.variants')), ''), coalesce(NEW.`description`, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_update` AFTER UPDATE OF `name`, `description`, `sku`, `related` ON `products`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`description` IS NOT NEW.`description` OR OLD.`sku` IS NOT NEW.`sku`
  OR coalesce(json_extract(OLD.`related`, '$.brand.name'), '') IS NOT coalesce(json_extract(NEW.`related`, '$.brand.name'), '')
  OR coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(OLD.`related`, '$.categories')), '') IS NOT coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), '')
  OR coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(OLD.`related`, '$.variants')), '') IS NOT coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.variants')), '')
  OR trim(coalesce(OLD.`sku`, '') || ' ' || coalesce((SELECT group_concat(json_extract(`value`, '$.sku'), ' ') FROM json_each(OLD.`related`, '$.variants')), '')) IS NOT trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(json_extract(`value`, '$.sku'), ' ') FROM json_each(NEW.`related`, '$.variants')), ''))
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`);
  INSERT INTO `product_search` (`rowid`, `name`, `skus`, `brand`, `categories`, `variants`, `description`) VALUES ((SELECT `doc` FROM `product_search_rows` WHERE `product_id` = NEW.`id`), NEW.`name`, trim(coalesce(NEW.`sku`, '') || ' ' || coalesce((SELECT group_concat(json_extract(`value`, '$.sku'), ' ') FROM json_each(NEW.`related`, '$.variants')), '')), coalesce(json_extract(NEW.`related`, '$.brand.name'), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.categories')), ''), coalesce((SELECT group_concat(json_extract(`value`, '$.name'), ' ') FROM json_each(NEW.`related`, '$.variants')), ''), coalesce(NEW.`description`, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `product_search_delete` AFTER DELETE ON `products`
BEGIN
  DELETE FROM `product_search` WHERE `rowid` = (SELECT `doc` FROM `product_search_rows` WHERE `product_id` = OLD.`id`);
  DELETE FROM `product_search_rows` WHERE `product_id` = OLD.`id`;
END;
