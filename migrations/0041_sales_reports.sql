CREATE TABLE `product_sales_days` (
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	`lines` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`currency`, `day`, `product_id`)
);
--> statement-breakpoint
CREATE TABLE `sales_days` (
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`minor_units` integer NOT NULL,
	`orders` integer DEFAULT 0 NOT NULL,
	`first_orders` integer DEFAULT 0 NOT NULL,
	`first_order_sales` integer DEFAULT 0 NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`gross` integer DEFAULT 0 NOT NULL,
	`discounts` integer DEFAULT 0 NOT NULL,
	`shipping` integer DEFAULT 0 NOT NULL,
	`tax` integer DEFAULT 0 NOT NULL,
	`sales` integer DEFAULT 0 NOT NULL,
	`refunds` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`currency`, `day`)
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `first_order` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_email_idx` ON `orders` (`email`);--> statement-breakpoint
-- Orders placed before: the first of each customer (account, or guest email), cancelled ones left out.
UPDATE `orders` SET `first_order` = 1 WHERE `status` != 'cancelled'
  AND NOT EXISTS (SELECT 1 FROM `orders` AS `o` WHERE `orders`.`customer_id` IS NOT NULL AND `o`.`customer_id` = `orders`.`customer_id` AND `o`.`status` != 'cancelled' AND `o`.`number` < `orders`.`number`)
  AND NOT EXISTS (SELECT 1 FROM `orders` AS `o` WHERE `orders`.`customer_id` IS NULL AND `o`.`email` = `orders`.`email` AND `o`.`customer_id` IS NULL AND `o`.`status` != 'cancelled' AND `o`.`number` < `orders`.`number`);--> statement-breakpoint
INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `orders`, `first_orders`, `first_order_sales`, `units`, `gross`, `discounts`, `shipping`, `tax`, `sales`)
SELECT substr(`created_at`, 1, 10), `currency`, max(`minor_units`), count(*), sum(`first_order`), sum(CASE WHEN `first_order` THEN `total` ELSE 0 END),
  sum((SELECT coalesce(sum(`quantity`), 0) FROM `order_lines` WHERE `order_id` = `orders`.`id`)), sum(`subtotal`), sum(`discount_total`), sum(`shipping_total`), sum(`tax_total`), sum(`total`)
FROM `orders` WHERE `status` != 'cancelled' GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)
SELECT substr(`r`.`updated_at`, 1, 10), `r`.`currency`, max(`o`.`minor_units`), sum(`r`.`amount`) FROM `refunds` AS `r` JOIN `orders` AS `o` ON `o`.`id` = `r`.`order_id`
WHERE `r`.`status` = 'completed' GROUP BY 1, 2
ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;--> statement-breakpoint
INSERT INTO `product_sales_days` (`day`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, `l`.`product_id`, max(`l`.`name`), sum(`l`.`quantity`), sum(`l`.`subtotal` - `l`.`discount`), count(*)
FROM `order_lines` AS `l` JOIN `orders` AS `o` ON `o`.`id` = `l`.`order_id` WHERE `o`.`status` != 'cancelled' GROUP BY 1, 2, 3;--> statement-breakpoint
-- A placed order counts on its day (its lines' units come with the lines, inserted after it in the same batch).
CREATE TRIGGER `sales_order_placed` AFTER INSERT ON `orders` WHEN NEW.`status` != 'cancelled'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `orders`, `first_orders`, `first_order_sales`, `gross`, `discounts`, `shipping`, `tax`, `sales`)
  VALUES (substr(NEW.`created_at`, 1, 10), NEW.`currency`, NEW.`minor_units`, 1, NEW.`first_order`, CASE WHEN NEW.`first_order` THEN NEW.`total` ELSE 0 END,
    NEW.`subtotal`, NEW.`discount_total`, NEW.`shipping_total`, NEW.`tax_total`, NEW.`total`)
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `minor_units` = `excluded`.`minor_units`, `orders` = `orders` + 1, `first_orders` = `first_orders` + `excluded`.`first_orders`,
    `first_order_sales` = `first_order_sales` + `excluded`.`first_order_sales`, `gross` = `gross` + `excluded`.`gross`, `discounts` = `discounts` + `excluded`.`discounts`,
    `shipping` = `shipping` + `excluded`.`shipping`, `tax` = `tax` + `excluded`.`tax`, `sales` = `sales` + `excluded`.`sales`;
END;--> statement-breakpoint
CREATE TRIGGER `sales_line_placed` AFTER INSERT ON `order_lines`
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `units`)
  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, `o`.`minor_units`, NEW.`quantity` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `units` = `units` + `excluded`.`units`;
  INSERT INTO `product_sales_days` (`day`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`subtotal` - NEW.`discount`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `day`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;
END;--> statement-breakpoint
-- A cancelled order no longer counts, on the day it was placed.
CREATE TRIGGER `sales_order_cancelled` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `sales_days` SET `orders` = `orders` - 1, `first_orders` = `first_orders` - OLD.`first_order`,
    `first_order_sales` = `first_order_sales` - CASE WHEN OLD.`first_order` THEN OLD.`total` ELSE 0 END,
    `units` = `units` - (SELECT coalesce(sum(`quantity`), 0) FROM `order_lines` WHERE `order_id` = OLD.`id`),
    `gross` = `gross` - OLD.`subtotal`, `discounts` = `discounts` - OLD.`discount_total`, `shipping` = `shipping` - OLD.`shipping_total`,
    `tax` = `tax` - OLD.`tax_total`, `sales` = `sales` - OLD.`total`
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10);
  UPDATE `product_sales_days` SET
    `units` = `units` - (SELECT sum(`quantity`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`),
    `revenue` = `revenue` - (SELECT sum(`subtotal` - `discount`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;--> statement-breakpoint
-- A refund counts on the day it completed: written completed, or moved there from pending.
CREATE TRIGGER `sales_refund_written` AFTER INSERT ON `refunds` WHEN NEW.`status` = 'completed'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)
  SELECT substr(NEW.`updated_at`, 1, 10), NEW.`currency`, `o`.`minor_units`, NEW.`amount` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id`
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;
END;--> statement-breakpoint
CREATE TRIGGER `sales_refund_completed` AFTER UPDATE OF `status` ON `refunds` WHEN NEW.`status` = 'completed' AND OLD.`status` != 'completed'
BEGIN
  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)
  SELECT substr(NEW.`updated_at`, 1, 10), NEW.`currency`, `o`.`minor_units`, NEW.`amount` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id`
  ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;
END;
