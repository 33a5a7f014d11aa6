-- inventory.low at most once an hour per variant. Ordering a variant down across its low-stock
-- threshold and cancelling, in a loop, crossed it every time, and each crossing emailed every staff
-- user. The trigger of 0018 now also asks that no inventory.low event of the same variant was
-- created in the hour before the change (by the adjustment's created_at); otherwise it is
-- unchanged, once per crossing. The partial index holds inventory.low events only, by variant and
-- time, so the check is one index seek, evaluated only for a change that crosses.
-- Unpaid orders expire (src/modules/orders/order-expiry.ts) by reading orders_status_created_idx
-- (status, created_at, id) of 0004: no new index for them.
-- No CASE ... END in here: wrangler's splitter takes that END for the trigger's.
CREATE INDEX `events_inventory_low_variant_idx` ON `events` (json_extract(`data`, '$.variantId'), `created_at`) WHERE `type` = 'inventory.low';
--> statement-breakpoint
DROP TRIGGER `inventory_adjustments_apply`;
--> statement-breakpoint
CREATE TRIGGER `inventory_adjustments_apply` AFTER INSERT ON `inventory_adjustments`
BEGIN
  UPDATE `product_variants` SET `stock` = `stock` + NEW.`delta`, `updated_at` = NEW.`created_at`
    WHERE `id` = NEW.`variant_id`;
  INSERT INTO `events` (`id`, `type`, `data`, `created_at`, `published_at`)
    SELECT 'evt' || substr(NEW.`id`, instr(NEW.`id`, '_')), 'inventory.low',
           json_object('productId', v.`product_id`, 'variantId', v.`id`, 'sku', v.`sku`, 'quantity', v.`stock`,
                       'threshold', coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`)),
           NEW.`created_at`, NULL
      FROM `product_variants` v
      JOIN `products` p ON p.`id` = v.`product_id`
      JOIN `store_settings` s ON s.`id` = 'store'
     WHERE NEW.`delta` < 0
       AND v.`id` = NEW.`variant_id`
       AND v.`stock` <= coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`)
       AND v.`stock` - NEW.`delta` > coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`)
       AND NOT EXISTS (
         SELECT 1 FROM `events` e
          WHERE e.`type` = 'inventory.low'
            AND json_extract(e.`data`, '$.variantId') = NEW.`variant_id`
            AND e.`created_at` > strftime('%Y-%m-%dT%H:%M:%fZ', NEW.`created_at`, '-1 hour'));
END;
