-- Payments and refunds that are never lost between the provider and the database
-- (src/modules/payments/settle.ts): a pending row is written before the provider is asked, under
-- the id the provider uses as its idempotency key; request_key ties a retried request to it;
-- provider_events records the webhook events handled. The write_guards trigger learns
-- `payment_settled` and `refund_settled`: a batch recording an outcome asserts the row is still pending.
CREATE TABLE `provider_events` (
	`provider` text NOT NULL,
	`id` text NOT NULL,
	`type` text NOT NULL,
	`handled_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`provider`, `id`)
);
--> statement-breakpoint
CREATE INDEX `provider_events_handled_idx` ON `provider_events` (`handled_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_input` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `request_key` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `dispute_status` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_request_key_idx` ON `payments` (`request_key`);--> statement-breakpoint
CREATE INDEX `payments_pending_idx` ON `payments` (`updated_at`) WHERE `status` = 'pending';--> statement-breakpoint
ALTER TABLE `refunds` ADD `status` text DEFAULT 'completed' NOT NULL;--> statement-breakpoint
ALTER TABLE `refunds` ADD `failure_reason` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `request_key` text;--> statement-breakpoint
-- SQLite adds no column with a non-constant default: the constant is overwritten at once, and the
-- code always writes updated_at (src/modules/payments/refunds.service.ts).
ALTER TABLE `refunds` ADD `updated_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
UPDATE `refunds` SET `updated_at` = `created_at`;--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_request_key_idx` ON `refunds` (`request_key`);--> statement-breakpoint
CREATE INDEX `refunds_pending_idx` ON `refunds` (`updated_at`) WHERE `status` = 'pending';--> statement-breakpoint
DROP TRIGGER `write_guards_check`;--> statement-breakpoint
CREATE TRIGGER `write_guards_check` BEFORE INSERT ON `write_guards`
BEGIN
  SELECT RAISE(ABORT, 'guard:stale_quote') WHERE NEW.`name` = 'stale_quote' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:stale_credential') WHERE NEW.`name` = 'stale_credential' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:payment_settled') WHERE NEW.`name` = 'payment_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:refund_settled') WHERE NEW.`name` = 'refund_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'write_guards: unknown guard') WHERE NEW.`ok` IS NOT 1;
  SELECT RAISE(IGNORE);
END;
