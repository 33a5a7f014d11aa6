-- Refunds by line (refund_lines, migration 0056) net out of the product reports: when a refund
-- completes, its lines' units and their revenue without tax (the refunded amount's share net of tax,
-- half-up) leave the day and month the order was placed, as a cancellation's do. A cancellation
-- then takes out only what such refunds have not (cancelling follows refunding an order's money).
CREATE TRIGGER `product_sales_refunded` AFTER UPDATE OF `status` ON `refunds`
WHEN NEW.`status` = 'completed' AND OLD.`status` != 'completed'
BEGIN
  UPDATE `product_sales_days` SET
    `units` = `units` - (SELECT coalesce(sum(rl.`quantity`), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_days`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_days`.`product_id`)
  WHERE `currency` = NEW.`currency` AND `day` = (SELECT substr(`created_at`, 1, 10) FROM `orders` WHERE `id` = NEW.`order_id` AND `status` != 'cancelled')
    AND `product_id` IN (SELECT ol.`product_id` FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id` WHERE rl.`refund_id` = NEW.`id`);
  UPDATE `product_sales_months` SET
    `units` = `units` - (SELECT coalesce(sum(rl.`quantity`), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_months`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_months`.`product_id`)
  WHERE `currency` = NEW.`currency` AND `month` = (SELECT substr(`created_at`, 1, 7) FROM `orders` WHERE `id` = NEW.`order_id` AND `status` != 'cancelled')
    AND `product_id` IN (SELECT ol.`product_id` FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id` WHERE rl.`refund_id` = NEW.`id`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_order_cancelled`;
--> statement-breakpoint
CREATE TRIGGER `sales_order_cancelled` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `sales_days` SET `orders` = `orders` - 1, `first_orders` = `first_orders` - OLD.`first_order`,
    `first_order_sales` = `first_order_sales` - CASE WHEN OLD.`first_order` THEN OLD.`total` ELSE 0 END,
    `units` = `units` - (SELECT coalesce(sum(`quantity`), 0) FROM `order_lines` WHERE `order_id` = OLD.`id`),
    `gross` = `gross` - OLD.`subtotal`, `discounts` = `discounts` - OLD.`discount_total`, `shipping` = `shipping` - OLD.`shipping_total`,
    `tax` = `tax` - OLD.`tax_total`, `line_tax_included` = `line_tax_included` - CASE WHEN OLD.`prices_include_tax` THEN OLD.`tax_total` - OLD.`shipping_tax` ELSE 0 END,
    `sales` = `sales` - OLD.`total`
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10);
  UPDATE `product_sales_days` SET
    `units` = `units` - (SELECT coalesce(sum(l.`quantity`), 0) - coalesce((SELECT sum(rl.`quantity`) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_days`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_days`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(l.`total` - l.`tax`), 0) - coalesce((SELECT sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_days`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_days`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_order_cancelled_month`;
--> statement-breakpoint
CREATE TRIGGER `sales_order_cancelled_month` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `product_sales_months` SET
    `units` = `units` - (SELECT coalesce(sum(l.`quantity`), 0) - coalesce((SELECT sum(rl.`quantity`) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_months`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_months`.`product_id`),
    `revenue` = `revenue` - (SELECT coalesce(sum(l.`total` - l.`tax`), 0) - coalesce((SELECT sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`
      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_months`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_months`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `month` = substr(OLD.`created_at`, 1, 7) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;
