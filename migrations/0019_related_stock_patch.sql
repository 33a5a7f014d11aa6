-- A stock change (every order line, cancellation and adjustment) no longer rebuilds the product's
-- whole `related` JSON (four subqueries and every variant re-serialised): it patches the variant's
-- `stock` and `updatedAt` in place with json_set. Every other variant change still rebuilds. An
-- update that changes stock and another column fires both, and both leave the same value.
DROP TRIGGER `product_variants_related_update`;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_update` AFTER UPDATE OF `id`, `product_id`, `sku`, `name`, `options`, `price`, `compare_at_price`, `low_stock_threshold`, `position`, `created_at` ON `product_variants`
BEGIN
  INSERT INTO `product_related_refresh` (`product_id`) VALUES (NEW.`product_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_related_stock` AFTER UPDATE OF `stock`, `updated_at` ON `product_variants`
BEGIN
  UPDATE `products` SET `related` = (
    SELECT json_set(`products`.`related`, '$.variants[' || e.`key` || '].stock', NEW.`stock`, '$.variants[' || e.`key` || '].updatedAt', NEW.`updated_at`)
    FROM json_each(`products`.`related`, '$.variants') e WHERE json_extract(e.`value`, '$.id') = NEW.`id`
  )
  WHERE `id` = NEW.`product_id` AND EXISTS (SELECT 1 FROM json_each(`products`.`related`, '$.variants') e WHERE json_extract(e.`value`, '$.id') = NEW.`id`);
END;
