ALTER TABLE `products` ADD `variant_prices` text DEFAULT '{}' NOT NULL;
--> statement-breakpoint
-- products.variant_prices (VariantPriceFloors, src/db/schema/catalogue.ts): for each currency in
-- which a variant of the product has its own price, the lowest own amount and the lowest default
-- price of the variants without one. A list in that currency filters and sorts by the price a cart
-- charges for the cheapest variant, min(own, toConvert converted), from the product's row alone
-- (src/modules/products/products.currency.ts). Rebuilt with `related`, from the same variant rows,
-- whenever a variant is inserted, deleted or changes its price or prices: the two never disagree.
-- The rate is applied when the list is read, so a rate change rewrites nothing.
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
  ), `variant_prices` = (
    SELECT json_group_object(o.`code`, json_object('own', o.`own`, 'toConvert',
      (SELECT min(r.`price`) FROM `product_variants` r WHERE r.`product_id` = `products`.`id` AND json_type(r.`prices`, '$.' || o.`code`) IS NULL)))
    FROM (SELECT j.`key` AS `code`, min(json_extract(j.`value`, '$.amount')) AS `own`
      FROM `product_variants` v, json_each(v.`prices`) j WHERE v.`product_id` = `products`.`id` GROUP BY j.`key`) o
  ) WHERE `id` = NEW.`product_id`;
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
-- The products some variant of which has its own price somewhere; every other product's value is {} already.
INSERT INTO `product_related_refresh` (`product_id`) SELECT DISTINCT `product_id` FROM `product_variants` WHERE `prices` <> '{}';
