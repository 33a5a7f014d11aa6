CREATE TABLE `event_positions` (
	`id` integer PRIMARY KEY NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `events` ADD `position` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `resource_id` text;--> statement-breakpoint
ALTER TABLE `events` ADD `sequence` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `events_position_idx` ON `events` (`position`);--> statement-breakpoint
CREATE INDEX `events_resource_idx` ON `events` (`resource_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `events_created_idx` ON `events` (`created_at`);
--> statement-breakpoint
-- The events API (GET /api/events) and ordering consumers can rely on (docs/webhooks.md): every event
-- gets a store-wide `position` from a counter that only moves on, the resource it is about (by its
-- kind: an order's events name the order, a product's the product, ...) and a `sequence` per
-- resource, all in the trigger of its own insert, so no writer (the outbox, an order's compiled
-- insert, a trigger's own inventory.low) has anything to add, and an order stays one round trip.
UPDATE `events` SET `resource_id` = CASE
      WHEN `type` LIKE 'order.%' OR `type` LIKE 'payment.%' OR `type` LIKE 'refund.%' OR `type` LIKE 'shipment.%' OR `type` LIKE 'return.%' THEN json_extract(`data`, '$.orderId')
      WHEN `type` LIKE 'product.%' OR `type` = 'inventory.low' THEN json_extract(`data`, '$.productId')
      WHEN `type` LIKE 'customer.%' OR `type` LIKE 'store\_credit.%' ESCAPE '\' THEN json_extract(`data`, '$.customerId')
      WHEN `type` LIKE 'page.%' THEN json_extract(`data`, '$.pageId')
      WHEN `type` LIKE 'cart.%' THEN json_extract(`data`, '$.cartId')
      WHEN `type` LIKE 'gift\_card.%' ESCAPE '\' THEN json_extract(`data`, '$.giftCardId')
    END;--> statement-breakpoint
UPDATE `events` SET `position` = r.n FROM (SELECT `id`, row_number() OVER (ORDER BY `created_at`, `id`) AS n FROM `events`) AS r WHERE r.`id` = `events`.`id`;--> statement-breakpoint
UPDATE `events` SET `sequence` = r.n
  FROM (SELECT `id`, row_number() OVER (PARTITION BY `resource_id` ORDER BY `created_at`, `id`) AS n FROM `events` WHERE `resource_id` IS NOT NULL) AS r
  WHERE r.`id` = `events`.`id`;--> statement-breakpoint
INSERT INTO `event_positions` (`id`, `position`) VALUES (1, (SELECT coalesce(max(`position`), 0) FROM `events`));--> statement-breakpoint
CREATE TRIGGER `events_position` AFTER INSERT ON `events`
BEGIN
  UPDATE `event_positions` SET `position` = `position` + 1 WHERE `id` = 1;
  UPDATE `events` SET
    `position` = (SELECT `position` FROM `event_positions` WHERE `id` = 1),
    `resource_id` = CASE
      WHEN NEW.`type` LIKE 'order.%' OR NEW.`type` LIKE 'payment.%' OR NEW.`type` LIKE 'refund.%' OR NEW.`type` LIKE 'shipment.%' OR NEW.`type` LIKE 'return.%' THEN json_extract(NEW.`data`, '$.orderId')
      WHEN NEW.`type` LIKE 'product.%' OR NEW.`type` = 'inventory.low' THEN json_extract(NEW.`data`, '$.productId')
      WHEN NEW.`type` LIKE 'customer.%' OR NEW.`type` LIKE 'store\_credit.%' ESCAPE '\' THEN json_extract(NEW.`data`, '$.customerId')
      WHEN NEW.`type` LIKE 'page.%' THEN json_extract(NEW.`data`, '$.pageId')
      WHEN NEW.`type` LIKE 'cart.%' THEN json_extract(NEW.`data`, '$.cartId')
      WHEN NEW.`type` LIKE 'gift\_card.%' ESCAPE '\' THEN json_extract(NEW.`data`, '$.giftCardId')
    END
  WHERE `id` = NEW.`id`;
  UPDATE `events` SET `sequence` = (SELECT coalesce(max(e.`sequence`), 0) + 1 FROM `events` AS e WHERE e.`resource_id` = `events`.`resource_id`)
  WHERE `id` = NEW.`id` AND `resource_id` IS NOT NULL;
END;--> statement-breakpoint
-- Vendors read the events about their own products (src/modules/events/events.access.ts).
UPDATE `roles` SET `permissions` = json_insert(`permissions`, '$[#]', 'events:read') WHERE `id` = 'vendor' AND NOT EXISTS (SELECT 1 FROM json_each(`permissions`) WHERE value = 'events:read');
