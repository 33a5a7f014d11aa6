ALTER TABLE `sales_days` ADD `line_tax_included` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Reports for orders whose prices include tax (migrations/0052): a product's revenue is its lines'
-- amounts without tax, total - tax (for tax added on top that is subtotal - discount, as before, so
-- nothing recorded changes), and a day keeps the tax inside line prices for its net figure.
DROP TRIGGER IF EXISTS `sales_order_placed`;
--> statement-breakpoint
CREATE TRIGGER `sales_order_placed` AFTER INSERT ON `orders` WHEN NEW.`status` != 'cancelled'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `orders`, `first_orders`, `first_order_sales`, `gross`, `discounts`, `shipping`, `tax`, `line_tax_included`, `sales`)
  VALUES (substr(NEW.`created_at`, 1, 10), NEW.`currency`, NEW.`minor_units`, 1, NEW.`first_order`, CASE WHEN NEW.`first_order` THEN NEW.`total` ELSE 0 END,
    NEW.`subtotal`, NEW.`discount_total`, NEW.`shipping_total`, NEW.`tax_total`, CASE WHEN NEW.`prices_include_tax` THEN NEW.`tax_total` - NEW.`shipping_tax` ELSE 0 END, NEW.`total`)
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `minor_units` = `excluded`.`minor_units`, `orders` = `orders` + 1, `first_orders` = `first_orders` + `excluded`.`first_orders`,
    `first_order_sales` = `first_order_sales` + `excluded`.`first_order_sales`, `gross` = `gross` + `excluded`.`gross`, `discounts` = `discounts` + `excluded`.`discounts`,
    `shipping` = `shipping` + `excluded`.`shipping`, `tax` = `tax` + `excluded`.`tax`, `line_tax_included` = `line_tax_included` + `excluded`.`line_tax_included`,
    `sales` = `sales` + `excluded`.`sales`;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_line_placed`;
--> statement-breakpoint
CREATE TRIGGER `sales_line_placed` AFTER INSERT ON `order_lines`
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `units`)
  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, `o`.`minor_units`, NEW.`quantity` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `units` = `units` + `excluded`.`units`;
  INSERT INTO `product_sales_days` (`day`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`total` - NEW.`tax`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `day`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;
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
    `units` = `units` - (SELECT sum(`quantity`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`),
    `revenue` = `revenue` - (SELECT sum(`total` - `tax`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_line_placed_month`;
--> statement-breakpoint
CREATE TRIGGER `sales_line_placed_month` AFTER INSERT ON `order_lines`
BEGIN
  INSERT INTO `product_sales_months` (`month`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
  SELECT substr(`o`.`created_at`, 1, 7), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`total` - NEW.`tax`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `month`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `sales_order_cancelled_month`;
--> statement-breakpoint
CREATE TRIGGER `sales_order_cancelled_month` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `product_sales_months` SET
    `units` = `units` - (SELECT sum(`quantity`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`),
    `revenue` = `revenue` - (SELECT sum(`total` - `tax`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `month` = substr(OLD.`created_at`, 1, 7) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;
