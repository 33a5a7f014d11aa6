-- Products per status, kept exact by triggers, so the total of a list filtered by status alone
-- (the public default: active) is one row read instead of a COUNT(*) over every product; and
-- indexes for the sorts that had none. The counts start from the products already there.
CREATE TABLE `product_status_counts` (
	`status` text PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `products_status_name_idx` ON `products` (`status`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `products_status_updated_idx` ON `products` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_name_idx` ON `products` (`name`,`id`);--> statement-breakpoint
CREATE INDEX `products_updated_idx` ON `products` (`updated_at`,`id`);
--> statement-breakpoint
INSERT INTO `product_status_counts` (`status`, `count`) SELECT `status`, count(*) FROM `products` GROUP BY `status`;
--> statement-breakpoint
CREATE TRIGGER `products_count_insert` AFTER INSERT ON `products`
BEGIN
  INSERT INTO `product_status_counts` (`status`, `count`) VALUES (NEW.`status`, 1)
    ON CONFLICT (`status`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_count_status` AFTER UPDATE OF `status` ON `products`
WHEN OLD.`status` IS NOT NEW.`status`
BEGIN
  UPDATE `product_status_counts` SET `count` = `count` - 1 WHERE `status` = OLD.`status`;
  INSERT INTO `product_status_counts` (`status`, `count`) VALUES (NEW.`status`, 1)
    ON CONFLICT (`status`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_count_delete` AFTER DELETE ON `products`
BEGIN
  UPDATE `product_status_counts` SET `count` = `count` - 1 WHERE `status` = OLD.`status`;
END;
