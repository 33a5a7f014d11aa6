-- A stock change is ONE statement: the history row (src/modules/inventory/stock.ts). Every order
-- line, cancellation, restock and manual adjustment was three statements (UPDATE the variant's stock,
-- INSERT the adjustment, INSERT a conditional inventory.low event), and each D1 statement has a fixed
-- cost (issue 6: POST /api/orders throughput). This trigger does the other two from the row:
--  * applies NEW.delta to the variant's stock (updated_at = the row's created_at); the BEFORE UPDATE OF
--    stock guard (0005, 'guard:insufficient_stock') still refuses a negative stock, which aborts the
--    INSERT of the row and the caller's whole batch, as before;
--  * for a decrement that takes the stock from above the effective low-stock threshold (the variant's,
--    else the product's, else the store's) to at or below it, inserts the inventory.low event with the
--    same data as before. Its id is derived from the adjustment id ('adj_X' -> 'evt_X') so the request
--    knows it in advance and publishes it (stock.ts notes it; an id with no row is skipped by the
--    consumer). The statements of a trigger body run in order, so the SELECT sees the stock after the
--    UPDATE, and the stock before it is that minus NEW.delta; no other trigger on this table.
-- No CASE ... END in here: wrangler's splitter takes that END for the trigger's.
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
       AND v.`stock` - NEW.`delta` > coalesce(v.`low_stock_threshold`, p.`low_stock_threshold`, s.`low_stock_threshold`);
END;
