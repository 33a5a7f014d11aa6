CREATE TABLE `cart_gift_cards` (
	`cart_id` text NOT NULL,
	`gift_card_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`cart_id`, `gift_card_id`),
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`gift_card_id`) REFERENCES `gift_cards`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `gift_card_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`gift_card_id` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer DEFAULT 0 NOT NULL,
	`kind` text NOT NULL,
	`order_id` text,
	`payment_id` text,
	`actor` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`gift_card_id`) REFERENCES `gift_cards`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `gift_card_transactions_card_idx` ON `gift_card_transactions` (`gift_card_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `gift_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`last4` text NOT NULL,
	`currency` text NOT NULL,
	`initial_amount` integer NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`expires_at` text,
	`recipient_email` text,
	`recipient_name` text,
	`message` text,
	`customer_id` text,
	`order_id` text,
	`order_line_id` text,
	`issued_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gift_cards_code_hash_idx` ON `gift_cards` (`code_hash`);--> statement-breakpoint
CREATE INDEX `gift_cards_created_idx` ON `gift_cards` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gift_cards_order_idx` ON `gift_cards` (`order_id`);--> statement-breakpoint
CREATE TABLE `refund_lines` (
	`refund_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`refund_id`, `order_line_id`),
	FOREIGN KEY (`refund_id`) REFERENCES `refunds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `refund_lines_order_line_idx` ON `refund_lines` (`order_line_id`);--> statement-breakpoint
CREATE TABLE `return_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`return_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`reason` text NOT NULL,
	`restocked_quantity` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`return_id`) REFERENCES `returns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_line_id`) REFERENCES `order_lines`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `return_lines_return_idx` ON `return_lines` (`return_id`);--> statement-breakpoint
CREATE INDEX `return_lines_order_line_idx` ON `return_lines` (`order_line_id`);--> statement-breakpoint
CREATE TABLE `returns` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`customer_id` text,
	`status` text DEFAULT 'requested' NOT NULL,
	`note` text,
	`resolution` text,
	`exchange_order_id` text,
	`requested_by` text NOT NULL,
	`approved_at` text,
	`received_at` text,
	`refunded_at` text,
	`closed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `returns_created_idx` ON `returns` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `returns_status_created_idx` ON `returns` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `returns_order_idx` ON `returns` (`order_id`);--> statement-breakpoint
CREATE INDEX `returns_customer_created_idx` ON `returns` (`customer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `store_credit_balances` (
	`customer_id` text NOT NULL,
	`currency` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`customer_id`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `store_credit_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`balance_after` integer DEFAULT 0 NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`order_id` text,
	`return_id` text,
	`refund_id` text,
	`payment_id` text,
	`actor` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `store_credit_entries_customer_idx` ON `store_credit_entries` (`customer_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `products` ADD `gift_card` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `quantity_returned` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `order_lines` ADD `quantity_refunded` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `refunds` ADD `destination` text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE `refunds` ADD `return_id` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `shipping_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `store_settings` ADD `return_window_days` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
-- Balances and quantities after the sale, enforced here as stock is (migrations/0005): a batch that
-- would break one aborts whole with guard:<name> (src/lib/db-guards.ts).
-- Returned and refunded units never exceed the units bought.
CREATE TRIGGER `order_lines_returned_limit` BEFORE UPDATE OF `quantity_returned` ON `order_lines`
WHEN NEW.`quantity_returned` > NEW.`quantity` OR NEW.`quantity_returned` < 0
BEGIN
  SELECT RAISE(ABORT, 'guard:overreturned');
END;
--> statement-breakpoint
CREATE TRIGGER `order_lines_refunded_limit` BEFORE UPDATE OF `quantity_refunded` ON `order_lines`
WHEN NEW.`quantity_refunded` > NEW.`quantity` OR NEW.`quantity_refunded` < 0
BEGIN
  SELECT RAISE(ABORT, 'guard:overrefunded_line');
END;
--> statement-breakpoint
CREATE TRIGGER `return_lines_count` AFTER INSERT ON `return_lines`
BEGIN
  UPDATE `order_lines` SET `quantity_returned` = `quantity_returned` + NEW.`quantity` WHERE `id` = NEW.`order_line_id`;
END;
--> statement-breakpoint
-- A rejected or cancelled return no longer holds its units.
CREATE TRIGGER `returns_release_lines` AFTER UPDATE OF `status` ON `returns`
WHEN NEW.`status` IN ('rejected', 'cancelled') AND OLD.`status` NOT IN ('rejected', 'cancelled')
BEGIN
  UPDATE `order_lines` SET `quantity_returned` = `quantity_returned` - (SELECT sum(rl.`quantity`) FROM `return_lines` rl WHERE rl.`return_id` = NEW.`id` AND rl.`order_line_id` = `order_lines`.`id`)
  WHERE `id` IN (SELECT `order_line_id` FROM `return_lines` WHERE `return_id` = NEW.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `refund_lines_count` AFTER INSERT ON `refund_lines`
BEGIN
  UPDATE `order_lines` SET `quantity_refunded` = `quantity_refunded` + NEW.`quantity` WHERE `id` = NEW.`order_line_id`;
END;
--> statement-breakpoint
-- Store credit: the balance is the sum of the entries, never below zero.
CREATE TRIGGER `store_credit_entries_apply` AFTER INSERT ON `store_credit_entries`
BEGIN
  INSERT INTO `store_credit_balances` (`customer_id`, `currency`, `balance`) VALUES (NEW.`customer_id`, NEW.`currency`, NEW.`amount`)
  ON CONFLICT (`customer_id`, `currency`) DO UPDATE SET `balance` = `balance` + `excluded`.`balance`;
  SELECT RAISE(ABORT, 'guard:insufficient_store_credit')
  WHERE (SELECT `balance` FROM `store_credit_balances` WHERE `customer_id` = NEW.`customer_id` AND `currency` = NEW.`currency`) < 0;
  UPDATE `store_credit_entries` SET `balance_after` = (SELECT `balance` FROM `store_credit_balances` WHERE `customer_id` = NEW.`customer_id` AND `currency` = NEW.`currency`)
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- Gift cards: every balance change is a transaction; the balance never goes below zero.
CREATE TRIGGER `gift_card_transactions_apply` AFTER INSERT ON `gift_card_transactions`
BEGIN
  UPDATE `gift_cards` SET `balance` = `balance` + NEW.`amount`, `updated_at` = NEW.`created_at` WHERE `id` = NEW.`gift_card_id`;
  SELECT RAISE(ABORT, 'guard:insufficient_gift_card_balance') WHERE (SELECT `balance` FROM `gift_cards` WHERE `id` = NEW.`gift_card_id`) < 0;
  UPDATE `gift_card_transactions` SET `balance_after` = (SELECT `balance` FROM `gift_cards` WHERE `id` = NEW.`gift_card_id`) WHERE `id` = NEW.`id`;
END;
