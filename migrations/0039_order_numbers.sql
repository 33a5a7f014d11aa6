ALTER TABLE `orders` ADD `number` integer;--> statement-breakpoint
-- The orders placed before numbers existed, numbered in the order they were placed from 1001 (ORDER_NUMBER_START's default).
UPDATE `orders` SET `number` = 1000 + (SELECT count(*) FROM `orders` AS `o` WHERE `o`.`created_at` < `orders`.`created_at` OR (`o`.`created_at` = `orders`.`created_at` AND `o`.`id` <= `orders`.`id`));--> statement-breakpoint
CREATE UNIQUE INDEX `orders_number_unique` ON `orders` (`number`);
--> statement-breakpoint
-- The order templates as seeded (never edited) name the order by its number (src/notifications/defaults.ts); an edited one keeps its text.
UPDATE `notification_templates` SET `subject` = replace(`subject`, '{{orderId}}', '{{orderNumber}}'), `body` = replace(`body`, '{{orderId}}', '{{orderNumber}}'), `body_html` = replace(`body_html`, '{{orderId}}', '{{orderNumber}}')
WHERE `id` IN ('tmpl_order_confirmation_email', 'tmpl_payment_receipt_email', 'tmpl_shipment_shipped_email', 'tmpl_shipment_shipped_sms', 'tmpl_order_cancelled_email') AND `updated_at` = `created_at`;
