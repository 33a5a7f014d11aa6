CREATE TABLE `product_sales_months` (
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`revenue` integer DEFAULT 0 NOT NULL,
	`lines` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`currency`, `month`, `product_id`)
);
--> statement-breakpoint
INSERT INTO `product_sales_months` (`month`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
SELECT substr(`day`, 1, 7), `currency`, `product_id`, max(`name`), sum(`units`), sum(`revenue`), sum(`lines`) FROM `product_sales_days` GROUP BY 1, 2, 3;--> statement-breakpoint
-- Kept beside product_sales_days by the same events (migrations/0041_sales_reports.sql).
CREATE TRIGGER `sales_line_placed_month` AFTER INSERT ON `order_lines`
BEGIN
  INSERT INTO `product_sales_months` (`month`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)
  SELECT substr(`o`.`created_at`, 1, 7), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`subtotal` - NEW.`discount`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'
  ON CONFLICT (`currency`, `month`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `sales_order_cancelled_month` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'
BEGIN
  UPDATE `product_sales_months` SET
    `units` = `units` - (SELECT sum(`quantity`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`),
    `revenue` = `revenue` - (SELECT sum(`subtotal` - `discount`) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`),
    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`)
  WHERE `currency` = OLD.`currency` AND `month` = substr(OLD.`created_at`, 1, 7) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);
END;
